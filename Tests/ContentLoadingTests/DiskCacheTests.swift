@testable import ContentLoading
import Foundation
import ScrollworkTestSupport
import StableHashing
import Testing

@Suite struct DiskCacheTests {
    private let scratch = ScratchDirectory("scrollwork-disk-cache")
    private var directory: URL { scratch.path("cache") }

    /// A clock that ticks one second per reading, so eviction order never depends on timing.
    private final class TickingClock: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds: TimeInterval = 1_000_000
        func now() -> Date {
            lock.lock()
            defer { lock.unlock() }
            seconds += 1
            return Date(timeIntervalSince1970: seconds)
        }
    }

    private func open(limit: Int = 1 << 20) -> DiskCache<String> {
        let clock = TickingClock()
        return DiskCache(directory: directory, configuration: .init(sizeLimit: limit, trimRatio: 0.7), now: { clock.now() })
    }

    private func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    private func entryPath(_ key: String) -> String {
        directory.appendingPathComponent(StableHash.hex128(Array(key.utf8))).path
    }

    @Test func storesAndReadsBackData() throws {
        let cache = open()
        cache.store(Array("hello".utf8), for: "https://example.com/a.png")
        #expect(cache.data(for: "https://example.com/a.png") == Array("hello".utf8))
        #expect(cache.data(for: "https://example.com/b.png") == nil)
        cache.store([], for: "empty")
        #expect(cache.data(for: "empty") == [])
        cache.removeData(for: "empty")
        #expect(cache.data(for: "empty") == nil)
    }

    @Test func fileNamesNeverComeFromTheKey() throws {
        let cache = open()
        cache.store([1, 2, 3], for: "../../etc/passwd")
        let names = files()
        #expect(names.count == 1)
        #expect(names.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(cache.data(for: "../../etc/passwd") == [1, 2, 3])
    }

    @Test func neverServesATruncatedOrCorruptedEntry() throws {
        let cache = open()
        let payload = [UInt8](repeating: 7, count: 1_000)
        cache.store(payload, for: "truncated")
        cache.store(payload, for: "corrupted")
        let truncated = try Data(contentsOf: URL(fileURLWithPath: entryPath("truncated")))
        try truncated.prefix(truncated.count - 10).write(to: URL(fileURLWithPath: entryPath("truncated")))
        var corrupted = try Data(contentsOf: URL(fileURLWithPath: entryPath("corrupted")))
        corrupted[corrupted.count - 1] ^= 0xFF
        try corrupted.write(to: URL(fileURLWithPath: entryPath("corrupted")))

        #expect(cache.data(for: "truncated") == nil)
        #expect(cache.data(for: "corrupted") == nil)
        #expect(files().isEmpty, "damaged entries are deleted")
    }

    @Test func leftoverTemporaryFilesAreDeletedAtFirstUseAndNeverServed() throws {
        do {
            let cache = open()
            cache.store([9], for: "kept")
        }
        // A process killed mid-write leaves its temporary file behind.
        try Data([1, 2, 3]).write(to: directory.appendingPathComponent("tmp-\(UUID().uuidString)"))
        #expect(files().count == 2)
        let cache = open()
        // Opening reads nothing: an app opens its cache on the main thread as it starts.
        #expect(files().count == 2)
        #expect(cache.data(for: "kept") == [9])
        #expect(files().count == 1)
        #expect(cache.size == EntryFormat.headerSize + 4 + 1, "the leftover is not counted")
    }

    @Test func evictsTheLeastRecentlyUsedEntriesPastTheLimit() throws {
        let entrySize = EntryFormat.headerSize + 1 + 100
        let cache = open(limit: entrySize * 3)
        for key in ["a", "b", "c"] { cache.store([UInt8](repeating: 1, count: 100), for: key) }
        #expect(cache.data(for: "a") != nil)
        cache.store([UInt8](repeating: 2, count: 100), for: "d")
        // Over the limit: swept down to 70% of it, oldest first (b, then c); a was read recently.
        #expect(cache.size <= Int(Double(entrySize * 3) * 0.7))
        #expect(cache.data(for: "b") == nil)
        #expect(cache.data(for: "c") == nil)
        #expect(cache.data(for: "d") != nil)
        #expect(cache.data(for: "a") != nil)
    }

    @Test func sweepsAnOversizedDirectoryWhenItOpens() throws {
        do {
            let cache = open()
            for index in 0..<10 { cache.store([UInt8](repeating: 0, count: 1_000), for: "k\(index)") }
            #expect(cache.size > 10_000)
        }
        let small = open(limit: 5_000)
        #expect(files().count == 10, "opening reads nothing")
        #expect(small.size <= 3_500)
        #expect(small.data(for: "k9") != nil, "the newest entries stay")
    }

    @Test func openingTouchesNothingOnDiskAndTheFirstWriteCreatesTheDirectory() throws {
        let nested = directory.appendingPathComponent("a/b")
        let cache = DiskCache<String>(directory: nested)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(cache.data(for: "missing") == nil)
        #expect(cache.size == 0)
        #expect(!FileManager.default.fileExists(atPath: directory.path), "reading creates nothing")
        cache.store([5], for: "first")
        #expect(cache.data(for: "first") == [5])
    }

    @Test func recoversWhenItsDirectoryDisappears() throws {
        let cache = open()
        cache.store([1], for: "before")
        try FileManager.default.removeItem(at: directory)
        #expect(cache.data(for: "before") == nil)
        cache.store([2], for: "after")
        #expect(cache.data(for: "after") == [2])
        #expect(cache.size == EntryFormat.headerSize + 5 + 1)
    }

    @Test func aStableHashIsStable() {
        // Fixed values: file names must not change between runs or releases.
        #expect(StableHash.fnv1a64(Array("a".utf8)) == 0xAF63_DC4C_8601_EC8C)
        #expect(StableHash.hex128(Array("key".utf8)).count == 32)
        #expect(StableHash.hex128(Array("key".utf8)) == StableHash.hex128(Array("key".utf8)))
        #expect(StableHash.hex128(Array("key".utf8)) != StableHash.hex128(Array("kez".utf8)))
    }
}
