import Foundation
import TerminalUI

/// Where every command's output goes. Text for people passes through the terminal sanitiser,
/// so nothing a feed, a server or a database says can act on the terminal; JSON is written
/// exactly, its control characters already escaped by ``JSONText``.
package enum Console {
    /// Writes text meant for people to standard output, control characters made visible.
    package static func print(_ text: String, terminator: String = "\n") {
        write(TerminalSanitizer.sanitized(text) + terminator, to: .standardOutput)
    }

    /// Writes text meant for people to standard output, as ``print(_:terminator:)`` does, with
    /// `ranges` of it in bold (a search's matches).
    package static func print(_ text: String, bold ranges: [Range<String.Index>]) {
        var out = ""
        var position = text.startIndex
        for range in ranges {
            out += TerminalSanitizer.sanitized(String(text[position..<range.lowerBound]))
            out += "\u{1B}[1m" + TerminalSanitizer.sanitized(String(text[range])) + "\u{1B}[22m"
            position = range.upperBound
        }
        write(out + TerminalSanitizer.sanitized(String(text[position...])) + "\n", to: .standardOutput)
    }

    /// Writes machine-readable output (JSON, OPML) to standard output as it is.
    package static func printExact(_ text: String, terminator: String = "\n") {
        write(text + terminator, to: .standardOutput)
    }

    /// Writes what TerminalUI built for the terminal (pictures, frames) to standard output as
    /// it is: its escape sequences are its own, and every string in its cells was sanitised on
    /// the way in.
    package static func printTerminalOutput(_ bytes: [UInt8]) {
        write(bytes, to: .standardOutput)
    }

    /// Writes a diagnostic line to standard error, where they belong so standard output stays
    /// parseable; it often quotes feed data or a server's reply, so it is sanitised too.
    package static func printError(_ message: String) {
        write(TerminalSanitizer.sanitized(message) + "\n", to: .standardError)
    }

    /// Shows `status` on standard error's line, replacing what the last status showed (with
    /// `nil`, clears it): progress on a terminal, sanitised as every diagnostic is.
    package static func showStatus(_ status: String?) {
        write(Array(("\r\u{1B}[K" + (status.map { TerminalSanitizer.sanitized($0) } ?? "")).utf8), to: .standardError)
    }

    private static func write(_ text: String, to handle: FileHandle) {
        write(Array(text.utf8), to: handle)
    }

    private static func write(_ bytes: [UInt8], to handle: FileHandle) {
        handle.write(Data(bytes))
    }
}

/// Writes a diagnostic line to standard error; see ``Console/printError(_:)``.
package func printError(_ message: String) {
    Console.printError(message)
}

/// A failure the user should read: printed on standard error, exit status 1.
package struct Failure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
