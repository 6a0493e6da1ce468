// The child of the terminal session tests (`Tests/TerminalUITests/TerminalSessionTests.swift`):
// it starts a session on its terminal, says `ready`, and reports what it receives, until a key
// tells it how to end: `q` returns, `e` throws, `x` calls exit() inside the session. The test
// signals it and reads the terminal's modes in between. With `--query` it first asks the
// terminal (the test) for its capabilities and says what it heard.
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Thrown: Error {}

guard let session = TerminalSession() else {
    print("not a terminal")
    exit(3)
}

func say(_ text: String) {
    session.write(Array((text + "\r\n").utf8))
}

do {
    try session.run {
        if CommandLine.arguments.contains("--query") {
            let capabilities = session.queryCapabilities(timeout: .seconds(30))
            let cell = capabilities.cellPixelSize.map { "\($0.width)x\($0.height)" } ?? "unknown"
            say("sync \(capabilities.synchronizedOutput) cell \(cell) kitty \(capabilities.kittyGraphics)")
        }
        say("ready")
        while true {
            for event in session.readEvents(timeout: nil) {
                switch event {
                case .repaint: say("repaint")
                case .resize(let columns, let rows): say("resize \(columns)x\(rows)")
                case .key(KeyPress(.character("q"))): return
                case .key(KeyPress(.character("e"))): throw Thrown()
                case .key(KeyPress(.character("x"))): exit(4)
                case .key(KeyPress(.character("z"), .control)): session.suspend()
                case .key(let press): say("key \(press)")
                default: break
                }
            }
        }
    }
    print("bye")
} catch {
    print("thrown")
    exit(1)
}
