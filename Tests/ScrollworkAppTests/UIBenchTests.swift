import Foundation
import ScrollworkTestSupport
import Testing

/// `scrollwork bench ui` runs its script against the real reader to the end and reports what
/// the issue asks for. Its figures are read in release builds; here only that they are there
/// and plausible.
@Suite struct UIBenchTests {
    @Test(.timeLimit(.minutes(5)))
    func theScriptRunsToTheEndAndReportsEveryFigure() throws {
        let result = try BuiltExecutable.run("scrollwork", ["bench", "ui", "--json"])
        #expect(result.status == 0, "\(result.error)")
        // One JSON object a line: the script's case, then the first screen's, in-process and as
        // a whole process, then the whole process's memory (and newsboat's, where it is
        // installed).
        let lines = result.output.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(lines.count == 4 || lines.count == 6, "\(result.output)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        for key in ["frame_ms_p50", "frame_ms_p99", "frame_ms_max", "frames_over_budget", "bytes_per_frame_p50", "rss_mb"] {
            #expect(object[key] is Double, "\(key) in \(result.output)")
        }
        let frames = object["frames"] as? Double ?? 0
        // The fling down and back alone lasts four seconds of 60 Hz frames.
        #expect(frames > 120, "\(result.output)")
        #expect((object["refresh_changes"] as? Double ?? 0) >= 100, "the refresh brings about a hundred changes: \(result.output)")
        let p50 = object["frame_ms_p50"] as? Double ?? 0
        let p99 = object["frame_ms_p99"] as? Double ?? 0
        let max = object["frame_ms_max"] as? Double ?? 0
        #expect(0 < p50 && p50 <= p99 && p99 <= max)
        let rows = try lines.dropFirst().map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let screens = rows.filter { $0["first_screen_ms_p50"] != nil }
        let memory = rows.filter { $0["rss_mb_after_moves"] != nil }
        #expect(screens.map { $0["case"] as? String } .prefix(2) == ["first-screen-500", "first-screen-500-process"], "\(result.output)")
        for row in screens {
            #expect(row["launches"] as? Double == 20)
            let (median, p90) = (row["first_screen_ms_p50"] as? Double ?? 0, row["first_screen_ms_p90"] as? Double ?? 0)
            #expect(0 < median && median <= p90, "\(row)")
        }
        #expect(memory.first?["case"] as? String == "rss-500-moves-process", "\(result.output)")
        // The figures come from `/proc`, which only Linux has.
        #if os(Linux)
        for row in memory {
            // A whole reader holds more than a few megabytes, and far less than a gigabyte.
            for key in ["rss_mb_first_screen", "rss_mb_after_moves"] {
                let megabytes = row[key] as? Double ?? 0
                #expect(5 < megabytes && megabytes < 1000, "\(key) in \(row)")
            }
        }
        #endif
        // Against newsboat in the same run, where it is installed.
        let peer = screens.count == 3
        #expect((screens[1]["newsboat_p50_over_ours"] is Double) == peer, "\(result.output)")
        #if os(Linux)
        #expect(memory.count == (peer ? 2 : 1), "\(result.output)")
        #expect((memory.first?["ours_over_newsboat"] is Double) == peer, "\(result.output)")
        #endif
    }
}
