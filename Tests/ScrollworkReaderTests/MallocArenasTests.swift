import Foundation
import ScrollworkTestSupport
import Testing

@testable import ScrollworkReader

/// The reader's threads share at most ``MallocArenas/limit`` arenas of glibc's allocator, not
/// one each.
@Suite struct MallocArenasTests {
    #if os(Linux)
    @Test func trimmingFindsGlibcsTrim() {
        #expect(MallocArenas.trim())
    }

    @Test(.timeLimit(.minutes(2 * HangGuard.scale)))
    func theDemoWithItsThreadsBusyKeepsToTheArenaLimit() throws {
        let scratch = ScratchDirectory("scrollwork-arenas")
        let child = try PseudoTerminalChild(
            executable: "scrollwork", arguments: [], columns: 100, rows: 30,
            environment: ["XDG_DATA_HOME": scratch.url.path, "XDG_CONFIG_HOME": scratch.url.path, "TMPDIR": scratch.url.path])
        defer {
            child.type("q")
            _ = try? child.waitForStatusChange()
        }
        // The demo's server, its fetch, the store and the pictures' loaders have all run once
        // the list shows its thumbnails.
        try child.read(until: "▀")
        let maps = try String(contentsOfFile: "/proc/\(child.pid)/maps", encoding: .utf8)
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/task").count
        #expect(threads > MallocArenas.limit, "too few threads to tell: \(threads)")
        // Every arena but the main one is a heap of 64 MB, aligned to its size: the part in use
        // (rw-p) and the rest reserved (---p).
        #expect(Self.arenaHeaps(in: maps) <= MallocArenas.limit - 1, "\(maps)")
    }
    #endif

    @Test func theCountOfHeapsReadsTheMaps() {
        let maps = """
            7f01bc000000-7f01bc021000 rw-p 00000000 00:00 0
            7f01bc021000-7f01c0000000 ---p 00000000 00:00 0
            7f01ceffe000-7f01cefff000 ---p 00000000 00:00 0
            7f01cefff000-7f01cf7ff000 rw-p 00000000 00:00 0
            7f01d0000000-7f01d003c000 rw-p 00000000 00:00 0
            7f01d003c000-7f01d4000000 ---p 00000000 00:00 0
            7f01e9a2f000-7f01e9d89000 rw-p 00000000 00:00 0
            """
        #expect(Self.arenaHeaps(in: maps) == 2)
    }

    /// The heaps of glibc's arenas in a process's maps: an anonymous mapping aligned to 64 MB,
    /// read-write, followed at once by a reserved one that ends 64 MB after its start.
    static func arenaHeaps(in maps: String) -> Int {
        let heapSize: UInt64 = 64 << 20
        let regions = maps.split(separator: "\n").compactMap { line -> (start: UInt64, end: UInt64, permissions: Substring)? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 5, fields.count == 5 || fields[5].hasPrefix("[anon") else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt64(bounds[0], radix: 16), let end = UInt64(bounds[1], radix: 16) else { return nil }
            return (start, end, fields[1])
        }
        return zip(regions, regions.dropFirst()).filter { used, reserved in
            used.start % heapSize == 0 && used.permissions == "rw-p" && reserved.permissions == "---p"
                && reserved.start == used.end && reserved.end == used.start + heapSize
        }.count
    }
}
