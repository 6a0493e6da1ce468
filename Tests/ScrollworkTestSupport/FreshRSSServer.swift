import Foundation

/// A real FreshRSS server on 127.0.0.1, from `../shared/freshrss/serve.sh` beside the checkout:
/// a fresh install in a folder of its own, stopped and removed by ``stop()``.
public struct FreshRSSServer: Sendable {
    /// The Google Reader API's address.
    public let greaderURL: URL
    /// The Fever API's address and key: a third client.
    public let feverURL: URL
    public let feverKey: String
    public let user: String
    public let apiPassword: String
    public let directory: URL

    /// `serve.sh`, found from this file: `Tests/ScrollworkTestSupport/` is two folders below the
    /// package, and `shared/` sits beside the package's folder.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/freshrss/serve.sh")

    /// Whether a server can be started here: the script is there and PHP is installed.
    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: script.path) && (try? run("/bin/sh", ["-c", "command -v php"]).status) == 0
    }

    /// Why a server cannot be started here, for the message of a skipped test.
    public static var unavailableReason: String {
        FileManager.default.fileExists(atPath: script.path)
            ? "php is not installed (see the Needs line of \(script.path))"
            : "\(script.path) is missing"
    }

    /// Installs and starts a server on a free port. The script runs through bash: a copy of
    /// `shared/` may not keep its mode bits.
    public static func start() throws -> FreshRSSServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("freshrss-\(UUID().uuidString)")
        // A port free now (the PHP server binds it a moment later).
        let port = try ClosedPort().port
        let (status, output) = try run("/bin/bash", [script.path, "start", directory.path], environment: ["PORT": "\(port)"])
        guard status == 0 else { throw Failure(description: "serve.sh start exited \(status): \(output)") }
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let greader = values["GREADER_URL"].flatMap(URL.init(string:)), let fever = values["FEVER_URL"].flatMap(URL.init(string:)),
              let key = values["FEVER_KEY"], let user = values["FR_USER"], let password = values["FR_API_PASS"] else {
            throw Failure(description: "serve.sh printed no addresses: \(output)")
        }
        return FreshRSSServer(greaderURL: greader, feverURL: fever, feverKey: key, user: user, apiPassword: password, directory: directory)
    }

    /// Stops the server and removes its folder.
    public func stop() {
        _ = try? Self.run("/bin/bash", [Self.script.path, "stop", directory.path])
        try? FileManager.default.removeItem(at: directory)
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Runs a program to its end (``SpawnedProgram``): its status and its output.
    @discardableResult
    static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("freshrss-run-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let result = try SpawnedProgram.run(path, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                            outputPath: log.path)
        return (result.status, result.output)
    }
}
