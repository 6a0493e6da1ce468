#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Messages for the person at the terminal, kept out of standard output, which may be a pipe
/// carrying data.
enum StandardError {
    /// Writes `text` and a newline to standard error, unbuffered.
    static func print(_ text: String) {
        let line = Array((text + "\n").utf8)
        line.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
