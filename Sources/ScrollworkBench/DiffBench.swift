import ArgumentParser
import CAllocationCount
import Foundation
import ScrollworkReader
import ListDiff
import SeededRandom

/// `scrollwork bench diff`: ListDiff against the standard library's
/// `difference(from:).inferringMoves()` on the same data, in the same run.
struct DiffBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Time ListDiff against the standard library's difference(from:).inferringMoves().",
        discussion: """
            Workloads (identities are random UUIDs, the same every run): 5k = 5,000 items, 1,000 \
            deleted, 1,000 inserted, 200 moved; 100k = 100,000 items, 10,000 deleted, 10,000 \
            inserted, 2,000 moved; 100k-updates = 100k plus 10,000 items with new content; \
            sections = 100 sections of 1,000 items, 2,000 items moved across sections, 1,000 \
            deleted, 1,000 inserted; 1m = 100k scaled by ten, to show time and memory grow \
            linearly; posts-500 = a feed's refresh, 500 posts, 50 new on top, the 50 oldest \
            gone, 10 edited. The standard library has no sections and takes minutes on 1m, so \
            those rows compare nothing. Times are medians; ns_per_item is the diff's time per \
            item of both lists; allocations counts the heap allocations (arrays, tables) one \
            diff allocates; peak memory is the most resident memory one diff added. Every result \
            is checked: its stages must turn the old list into the new.
            """
    )

    @OptionGroup var options: BenchOptions

    @Option(name: .customLong("workload"), help: "Run only these workloads (repeat the option); default: all.")
    var only: [String] = []

    @Flag(help: "Time ListDiff only, not the standard library (which takes minutes on 100k).")
    var skipStandardLibrary = false

    func validate() throws {
        let unknown = Set(only).subtracting(DiffWorkload.all.map(\.name))
        guard unknown.isEmpty else {
            throw ValidationError("unknown workload \(unknown.sorted().joined(separator: ", ")); "
                + "choose from \(DiffWorkload.all.map(\.name).joined(separator: ", "))")
        }
    }

    func run() throws {
        var report = BenchReport(columns: [
            "workload", "items", "scrollwork_ms", "ns_per_item", "allocations", "stdlib_ms", "ratio", "scrollwork_peak_mb",
            "stdlib_peak_mb", "stages",
        ])
        for workload in DiffWorkload.all where only.isEmpty || only.contains(workload.name) {
            let data = workload.make()
            let (changes, peak) = PeakMemory.measure { StagedChanges(from: data.old, to: data.new) }
            guard (try? changes.apply(to: data.old)) == data.new else {
                printError("scrollwork bench diff: \(workload.name): the stages do not turn the old list into the new one")
                throw ExitCode.failure
            }
            let scrollwork = Stopwatch.medianMilliseconds(runs: workload.runs) {
                StagedChanges(from: data.old, to: data.new)
            }
            // The heap allocations of one diff (arrays, tables, objects), counted apart from
            // the timed runs so that the count's hook costs them nothing.
            scrollwork_allocations_count_begin()
            let counted = StagedChanges(from: data.old, to: data.new)
            let allocations = scrollwork_allocations_count_end()
            withExtendedLifetime(counted) {}
            // Per item of both lists: what the diff costs for each element it reads.
            let itemsRead = data.old.reduce(0) { $0 + $1.items.count } + data.new.reduce(0) { $0 + $1.items.count }
            var stdlib: Double?
            var stdlibPeak: Int?
            if workload.comparesWithStandardLibrary, !skipStandardLibrary {
                let (old, new) = (data.old[0].items, data.new[0].items)
                stdlibPeak = PeakMemory.measure { new.difference(from: old).inferringMoves() }.peakBytes
                stdlib = Stopwatch.medianMilliseconds(runs: workload.standardLibraryRuns, warmUp: false) {
                    new.difference(from: old).inferringMoves()
                }
            }
            report.append([
                .text(workload.name), .number(Double(data.itemCount)), .number(scrollwork),
                .number(scrollwork * 1e6 / Double(max(1, itemsRead))), .number(Double(allocations)), BenchValue(stdlib),
                BenchValue(stdlib.map { $0 / scrollwork }), BenchValue(peak.map(megabytes)),
                BenchValue(stdlibPeak.map(megabytes)), .number(Double(changes.count)),
            ])
        }
        report.print(json: options.json)
    }

    private func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
}

/// A UUID's equality is the equality of its sixteen bytes: ListDiff may hash it from them.
extension UUID: BitwiseIdentity {}

/// An item of the benchmark lists: a UUID identity and an integer of content.
struct BenchItem: Identifiable, Hashable, Sendable {
    let id: UUID
    var content: Int
}

/// A section of the benchmark lists, identified by its index in the old list.
struct BenchSection: Identifiable, Hashable, Sendable {
    let id: Int
}

/// A diff benchmark workload: how to build its old and new lists, and how often to time it.
struct DiffWorkload: Sendable {
    typealias Sections = [ListSection<BenchSection, BenchItem>]

    let name: String
    let sections: Int
    let itemsPerSection: Int
    let deleted: Int
    let inserted: Int
    let moved: Int
    let updated: Int
    let runs: Int
    let standardLibraryRuns: Int
    let comparesWithStandardLibrary: Bool
    /// Where the changes fall.
    var shape = Shape.scattered

    /// Where a workload's changes fall.
    enum Shape {
        /// Deletes, moves and edits anywhere; inserts and moved items at random places.
        case scattered
        /// A feed's refresh: the inserts on top, the deletes the oldest items at the bottom,
        /// edits anywhere among the rest, no moves.
        case newestFirst
    }

    static let all: [DiffWorkload] = [
        .init(name: "5k", sections: 1, itemsPerSection: 5_000, deleted: 1_000, inserted: 1_000, moved: 200,
              updated: 0, runs: 31, standardLibraryRuns: 5, comparesWithStandardLibrary: true),
        .init(name: "100k", sections: 1, itemsPerSection: 100_000, deleted: 10_000, inserted: 10_000, moved: 2_000,
              updated: 0, runs: 11, standardLibraryRuns: 3, comparesWithStandardLibrary: true),
        .init(name: "100k-updates", sections: 1, itemsPerSection: 100_000, deleted: 10_000, inserted: 10_000,
              moved: 2_000, updated: 10_000, runs: 11, standardLibraryRuns: 3, comparesWithStandardLibrary: true),
        .init(name: "sections", sections: 100, itemsPerSection: 1_000, deleted: 1_000, inserted: 1_000, moved: 2_000,
              updated: 0, runs: 11, standardLibraryRuns: 0, comparesWithStandardLibrary: false),
        .init(name: "1m", sections: 1, itemsPerSection: 1_000_000, deleted: 100_000, inserted: 100_000, moved: 20_000,
              updated: 0, runs: 5, standardLibraryRuns: 0, comparesWithStandardLibrary: false),
        .init(name: "posts-500", sections: 1, itemsPerSection: 500, deleted: 50, inserted: 50, moved: 0,
              updated: 10, runs: 501, standardLibraryRuns: 101, comparesWithStandardLibrary: true, shape: .newestFirst),
    ]

    /// Builds the old and new lists; the same every time for a workload.
    ///
    /// Every item of the new list gets a place, (section, position): kept items keep theirs;
    /// inserted and moved items get random ones. One sort by place then yields the new list,
    /// in O(n log n) rather than the O(n²) of inserting into arrays one by one.
    func make() -> (old: Sections, new: Sections, itemCount: Int) {
        var random = SeededGenerator(seed: UInt64(truncatingIfNeeded: name.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
        func item() -> BenchItem {
            let (a, b) = (random.next(), random.next())
            return BenchItem(id: UUID(uuid: withUnsafeBytes(of: (a, b)) { $0.load(as: uuid_t.self) }), content: 0)
        }
        func randomPlace() -> (section: Int, position: Double) {
            (Int.random(in: 0..<sections, using: &random), Double.random(in: 0..<Double(itemsPerSection), using: &random))
        }
        let old = (0..<sections).map { _ in (0..<itemsPerSection).map { _ in item() } }
        let total = sections * itemsPerSection
        let wrap = { (lists: [[BenchItem]]) in
            lists.enumerated().map { ListSection(model: BenchSection(id: $0), items: $1) }
        }
        if shape == .newestFirst {
            var kept = Array(old[0].dropLast(deleted))
            var edited = Set<Int>()
            while edited.count < min(updated, kept.count) { edited.insert(Int.random(in: kept.indices, using: &random)) }
            for index in edited { kept[index].content += 1 }
            return (wrap(old), wrap([(0..<inserted).map { _ in item() } + kept]), total)
        }
        func distinctFlatIndices(_ count: Int, avoiding taken: Set<Int> = []) -> Set<Int> {
            var picked = Set<Int>()
            while picked.count < count {
                let index = Int.random(in: 0..<total, using: &random)
                if !taken.contains(index) { picked.insert(index) }
            }
            return picked
        }
        // Moved and changed items overlap now and then, as in real refreshes: those need a
        // second stage.
        let removed = distinctFlatIndices(deleted)
        let relocated = distinctFlatIndices(moved, avoiding: removed)
        let changed = distinctFlatIndices(updated, avoiding: removed)

        var placed: [(section: Int, position: Double, item: BenchItem)] = []
        placed.reserveCapacity(total + inserted)
        for section in 0..<sections {
            for position in 0..<itemsPerSection {
                let flat = section * itemsPerSection + position
                guard !removed.contains(flat) else { continue }
                var element = old[section][position]
                if changed.contains(flat) { element.content += 1 }
                if relocated.contains(flat) {
                    let place = randomPlace()
                    placed.append((place.section, place.position, element))
                } else {
                    placed.append((section, Double(position), element))
                }
            }
        }
        for _ in 0..<inserted {
            let place = randomPlace()
            placed.append((place.section, place.position, item()))
        }
        placed.sort { ($0.section, $0.position) < ($1.section, $1.position) }
        var new = [[BenchItem]](repeating: [], count: sections)
        for entry in placed { new[entry.section].append(entry.item) }
        return (wrap(old), wrap(new), total)
    }
}
