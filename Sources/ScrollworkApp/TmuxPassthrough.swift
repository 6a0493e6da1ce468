import Foundation

/// Whether the terminal outside tmux may be asked questions through tmux's passthrough.
///
/// tmux hands the outer terminal's answers to the active pane of the window in front, as if
/// they were typed: asked from a pane in the background, they would be typed into another
/// program (a shell, an editor). So the outer terminal is asked only from the active pane of
/// the active window, as tmux itself says.
enum TmuxPassthrough {
    /// Whether this process's pane (`TMUX_PANE` in `environment`) is the active pane of its
    /// window and that window the active one: false outside tmux, and whenever tmux cannot
    /// say (no `tmux` command, a server that does not answer). `environment` is the one `tmux`
    /// runs in: the process's own, whose `TMUX` names the server.
    static func mayAsk(environment: [String: String]) -> Bool {
        guard environment["TMUX"] != nil, let pane = environment["TMUX_PANE"] else { return false }
        let tmux = Process()
        tmux.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tmux.arguments = ["tmux", "display-message", "-p", "-t", pane, "#{pane_active}#{window_active}"]
        let output = Pipe()
        tmux.standardOutput = output
        tmux.standardError = FileHandle.nullDevice
        tmux.standardInput = FileHandle.nullDevice
        tmux.environment = environment
        do {
            try tmux.run()
        } catch {
            return false
        }
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        tmux.waitUntilExit()
        return tmux.terminationStatus == 0 && answer.trimmingCharacters(in: .whitespacesAndNewlines) == "11"
    }
}
