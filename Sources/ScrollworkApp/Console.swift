import Foundation

/// Writes a line to standard error, where diagnostics belong, so standard output stays parseable.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
