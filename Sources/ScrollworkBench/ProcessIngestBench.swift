import CommandLineMain
import Feeds
import Foundation

/// The programs the whole-process cases launch: the `scrollwork` built beside this
/// executable, and the peers installed.
enum BenchExecutables {
    /// The `scrollwork` in this executable's directory, which the whole-process cases launch
    /// (`swift build` puts every product of the package there); a clear error when it was not
    /// built.
    static var scrollwork: String {
        get throws { try sibling("scrollwork", "this case runs the reader, scrollwork") }
    }

    /// `scrollwork-measure` in this executable's directory, through which every measured
    /// program is started (``MeasuredChild``); a clear error when it was not built.
    static var measure: String {
        get throws { try sibling("scrollwork-measure", "this case measures programs through scrollwork-measure") }
    }

    /// The product `name` built beside this executable, or an error that says what `needing`
    /// it and how to build it.
    private static func sibling(_ name: String, _ needing: String) throws -> String {
        let path = SiblingExecutable.url(named: name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure(description: "\(needing), which is not built beside scrollwork-bench (\(path)): build it with `swift build -c release --product \(name)`")
        }
        return path
    }

    /// Where newsboat is installed, if it is.
    static func newsboat() -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/newsboat" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What went wrong with a launched program.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `path` to its end, its output kept and its error thrown away: what it wrote, how
    /// long that took, and its own peak resident memory.
    static func run(_ path: String, _ arguments: [String], environment: [String: String]) throws -> MeasuredChild {
        let child = try MeasuredChild.run(path, arguments, environment: environment, keepingOutput: true)
        guard child.status == 0 else {
            // A wait status: the exit code in the second byte, or the signal in the low bits.
            let ending = child.status & 0x7F == 0 ? "exited with status \(child.status >> 8 & 0xFF)" : "was killed by signal \(child.status & 0x7F)"
            throw Failure(description: "\(URL(fileURLWithPath: path).lastPathComponent) \(arguments.joined(separator: " ")) \(ending)")
        }
        return child
    }
}

/// `bench feed`'s `ingest-process-N` cases: a feed file ingested by whole processes, as a
/// person runs them, against newsboat on the same file in the same run.
///
/// Each round starts from nothing. Ours: `scrollwork add FILE` then `scrollwork refresh` (the
/// fresh ingest: two processes, as a person adds a feed and reads it), then `scrollwork
/// refresh` again (the unchanged re-ingest). newsboat: `newsboat -x reload` on an empty cache,
/// then again. The two alternate round by round; the figures are medians. Each side's peak
/// memory is the largest any of its processes reached in a round (`add` or `refresh`; newsboat's
/// reload), the median over rounds.
enum ProcessIngestBench {
    static let sizes = [500, 10_000]

    static func caseName(_ entries: Int) -> String { "ingest-process-\(entries)" }

    static let columns = [
        "case", "rounds", "fresh_ms", "again_ms", "newsboat_fresh_ms", "newsboat_again_ms", "fresh_ratio", "again_ratio",
        "peak_mb", "newsboat_peak_mb",
    ]

    /// The row of `caseName(entries)`: `rounds` rounds on a generated RSS feed of `entries`
    /// posts. The ratios are newsboat's median over ours (above 1, Scrollwork is faster); they
    /// and newsboat's figures are missing where newsboat is not installed.
    static func measure(entries: Int, rounds: Int, scrollwork: String? = nil,
                        newsboat: String? = BenchExecutables.newsboat()) throws -> [BenchValue] {
        let scrollwork = try scrollwork ?? BenchExecutables.scrollwork
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-bench-ingest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let feed = directory.appendingPathComponent("feed.xml")
        try Data(FeedFixture.make(.rss, entries: entries)).write(to: feed)

        var fresh: [Double] = [], again: [Double] = [], peerFresh: [Double] = [], peerAgain: [Double] = []
        var peak: [Double] = [], peerPeak: [Double] = []
        for round in 0..<rounds {
            let home = directory.appendingPathComponent("round-\(round)")
            let data = home.appendingPathComponent("data").path
            // A home and settings of their own, so nothing of the user's is read or touched.
            let environment = [
                "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            ]
            try FileManager.default.createDirectory(at: home.appendingPathComponent(".newsboat"), withIntermediateDirectories: true)
            let added = try BenchExecutables.run(scrollwork, ["add", feed.path, "--data-dir", data], environment: environment)
            let stored = try BenchExecutables.run(scrollwork, ["refresh", "--data-dir", data], environment: environment)
            let unchanged = try BenchExecutables.run(scrollwork, ["refresh", "--data-dir", data], environment: environment)
            guard stored.output.contains("\(entries) new"), unchanged.output.contains("\(entries) unchanged") else {
                throw BenchExecutables.Failure(description: "scrollwork refresh stored \(stored.output.debugDescription), then \(unchanged.output.debugDescription)")
            }
            fresh.append(added.milliseconds + stored.milliseconds)
            again.append(unchanged.milliseconds)
            peak.append(Double([added, stored, unchanged].map(\.peakBytes).max() ?? 0) / 1_048_576)
            if let newsboat {
                try Data("file://\(feed.path)\n".utf8).write(to: home.appendingPathComponent(".newsboat/urls"))
                let first = try BenchExecutables.run(newsboat, ["-x", "reload"], environment: environment)
                let second = try BenchExecutables.run(newsboat, ["-x", "reload"], environment: environment)
                peerFresh.append(first.milliseconds)
                peerAgain.append(second.milliseconds)
                peerPeak.append(Double(max(first.peakBytes, second.peakBytes)) / 1_048_576)
            }
        }
        let ours = (Stopwatch.median(fresh), Stopwatch.median(again))
        let peer = newsboat == nil ? nil : (Stopwatch.median(peerFresh), Stopwatch.median(peerAgain))
        return [
            .text(caseName(entries)), .number(Double(rounds)), .number(ours.0), .number(ours.1),
            BenchValue(peer?.0), BenchValue(peer?.1), BenchValue(peer.map { $0.0 / ours.0 }), BenchValue(peer.map { $0.1 / ours.1 }),
            .number(Stopwatch.median(peak)), BenchValue(newsboat == nil ? nil : Stopwatch.median(peerPeak)),
        ]
    }
}
