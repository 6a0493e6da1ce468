import Foundation
import ScrollworkTestSupport
import Testing
@testable import ScrollworkApp

/// The terminal outside tmux is asked through tmux only from the pane in front: tmux types the
/// answers into the active pane. Against a real tmux server of the test's own.
@Suite struct TmuxPassthroughTests {
    let scratch = ScratchDirectory("scrollwork-tmux-passthrough")

    @Test func onlyTheActivePaneOfTheActiveWindowMayAsk() throws {
        let tmux = try TmuxPane(columns: 80, rows: 24)
        let socket = tmux.socket
        // A second pane, made without taking the focus.
        try tmux.run(["split-window", "-d", "exec sleep 600"])
        let panes = try tmux.run(["list-panes", "-F", "#{pane_id} #{pane_active}"]).split(separator: "\n").map { $0.split(separator: " ") }
        let active = try #require(panes.first { $0.last == "1" }?.first).description
        let behind = try #require(panes.first { $0.last == "0" }?.first).description
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = "\(socket),0,0"
        environment["TMUX_PANE"] = active
        #expect(TmuxPassthrough.mayAsk(environment: environment))
        environment["TMUX_PANE"] = behind
        #expect(!TmuxPassthrough.mayAsk(environment: environment))
        // A pane of a window behind the one in front.
        try tmux.run(["new-window", "exec sleep 600"])
        environment["TMUX_PANE"] = active
        #expect(!TmuxPassthrough.mayAsk(environment: environment))
        // Outside tmux, or with a server that is gone: never.
        #expect(!TmuxPassthrough.mayAsk(environment: ["TMUX_PANE": active]))
        environment["TMUX"] = "\(scratch.path("no-server").path),0,0"
        #expect(!TmuxPassthrough.mayAsk(environment: environment))
    }
}
