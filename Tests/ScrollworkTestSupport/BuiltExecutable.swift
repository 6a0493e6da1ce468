import Foundation
import PseudoTerminal

/// Executables of this package that a test runs as a child process: `swift build` puts every
/// product in the directory that holds the test bundle.
public enum BuiltExecutable {
    /// Why an executable could not be found.
    public struct NotFound: Error, CustomStringConvertible {
        public let description: String
    }

    /// The executable `name`, next to the tests.
    public static func url(named name: String) throws -> URL {
        func beside(_ bundle: URL?) -> URL? {
            guard let candidate = bundle?.deletingLastPathComponent().appendingPathComponent(name),
                  FileManager.default.isExecutableFile(atPath: candidate.path) else { return nil }
            return candidate
        }
        // On Linux the tests are an executable beside the products. Only where they are a
        // bundle that another program loads (macOS's xctest) are the loaded bundles asked:
        // Foundation's list of them is a copy it never frees, which LeakSanitizer reports.
        if let found = beside(Bundle.main.executableURL) { return found }
        let bundles = Bundle.allBundles.map(\.bundleURL)
        if let found = bundles.lazy.compactMap(beside).first { return found }
        let directories = ([Bundle.main.executableURL] + bundles).compactMap { $0?.deletingLastPathComponent().path }
        throw NotFound(description: "\(name) not found next to the tests in \(directories)")
    }

    /// What a finished child wrote and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: [UInt8]
        public var standardError: [UInt8]

        /// Standard output as text, invalid UTF-8 repaired.
        public var output: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error as text, invalid UTF-8 repaired.
        public var error: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// Runs `name` with `arguments` and no standard input, and waits for it to exit; through
    /// `wrapper` if given, a command that runs another (`setpriv … --`, to run it as another
    /// user).
    ///
    /// Both pipes are drained while the child runs, so a chatty child cannot fill one and
    /// stall.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String]? = nil, through wrapper: [String] = []) throws -> Result {
        let child = Process()
        if wrapper.isEmpty {
            child.executableURL = try url(named: name)
            child.arguments = arguments
        } else {
            child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            child.arguments = wrapper + [try url(named: name).path] + arguments
        }
        if let environment { child.environment = SanitizerOptions.forwarded(into: environment) }
        child.standardInput = FileHandle.nullDevice
        let output = Pipe(), error = Pipe()
        child.standardOutput = output
        child.standardError = error
        try child.run()
        let errorBytes = ErrorCollector()
        let errorHandle = error.fileHandleForReading
        let errorReader = Thread {
            errorBytes.set(errorHandle.readDataToEndOfFile())
        }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        return Result(status: child.terminationStatus, standardOutput: [UInt8](outputData), standardError: errorBytes.wait())
    }

    /// The bytes a reader thread collects, handed over once it is done.
    private final class ErrorCollector: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        func set(_ data: Data) {
            self.data = data
            done.signal()
        }

        func wait() -> [UInt8] {
            done.wait()
            return [UInt8](data)
        }
    }
}
