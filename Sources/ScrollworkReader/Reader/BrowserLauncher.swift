import Foundation
import HTTPLoading

/// Opens a link the way the person's system does: `$BROWSER` if set (a list separated by `:`,
/// the first that starts wins; `%s` in it stands for the link, else the link is the last
/// argument), else `xdg-open` (`open` on macOS).
///
/// The link comes from a feed, which is hostile input: only `http` and `https` links open, and
/// the link is passed as one argument to the program, never through a shell.
struct BrowserLauncher: Sendable {
    /// A command that could not open the link.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `arguments[0]` (looked up on `PATH`) with the rest, waiting for it to exit; returns
    /// its exit status, or `nil` when it could not start.
    typealias Run = @Sendable (_ arguments: [String]) -> Int32?

    var environment: [String: String]
    var run: Run

    init(environment: [String: String] = ProcessInfo.processInfo.environment, run: @escaping Run = BrowserLauncher.spawn) {
        self.environment = environment
        self.run = run
    }

    /// The commands to try for `link`, in order.
    func commands(for link: URL) -> [[String]] {
        var commands: [[String]] = []
        if let browsers = environment["BROWSER"] {
            for browser in browsers.split(separator: ":") {
                var words = browser.split(separator: " ").map(String.init)
                guard !words.isEmpty else { continue }
                if words.contains(where: { $0.contains("%s") }) {
                    words = words.map { $0.replacingOccurrences(of: "%s", with: link.absoluteString) }
                } else {
                    words.append(link.absoluteString)
                }
                commands.append(words)
            }
        }
        #if os(macOS)
        commands.append(["open", link.absoluteString])
        #else
        commands.append(["xdg-open", link.absoluteString])
        #endif
        return commands
    }

    /// Why `link` will not be opened, if it will not: anything but an http or https link
    /// (``RequestTarget``'s rule). Asked before the terminal is given back, so that a refused
    /// link never leaves the reader's screen even for a moment.
    static func refusal(_ link: URL) -> Failure? {
        RequestTarget.isFetchable(link) ? nil : Failure(description: "not opening \(link.absoluteString): only http and https links open")
    }

    /// Opens `link`, trying each command until one starts and exits with status 0.
    func open(_ link: URL) -> Result<Void, Failure> {
        if let refusal = Self.refusal(link) { return .failure(refusal) }
        var tried: [String] = []
        for command in commands(for: link) {
            tried.append(command[0])
            if run(command) == 0 { return .success(()) }
        }
        return .failure(Failure(description: "could not open the link with \(tried.joined(separator: " or ")); set $BROWSER"))
    }

    /// Starts the program with the terminal inherited and waits for it.
    @Sendable static func spawn(_ arguments: [String]) -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        do {
            try process.run()
        } catch {
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
