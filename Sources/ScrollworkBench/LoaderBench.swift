import ArgumentParser
import ContentLoading
import Foundation

/// `scrollwork bench loader`: main-actor time per request with ContentLoading slots, against
/// the way most apps load row content.
struct LoaderBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loader",
        abstract: "Time the main actor's share of loading row content: Scrollwork slots vs. an OperationQueue.",
        discussion: """
            Both sides load the same rows from the same in-memory source and do the same \
            processing off the main thread; only the main thread's time is counted. \
            Baseline: one BlockOperation per row on an OperationQueue of width 4, its result \
            hopped to the main queue, the cache an NSCache. Scrollwork: a slot per row bound \
            on the main actor, values handed over in one batch per tick of a 60 Hz frame loop. Cases: \
            "request" (bind, then receive the value) and "memory-hit" (the value is cached). \
            Figures are medians over several rounds, in microseconds per request.
            """
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "Rows per round.")
    var rows = 2_000

    @Option(help: "Rounds per case; the median is reported.")
    var rounds = 15

    @MainActor
    func run() async throws {
        var report = BenchReport(columns: ["case", "rows", "scrollwork_us", "baseline_us", "ratio"])
        for benchCase in ["request", "memory-hit"] {
            var ours: [Double] = []
            var theirs: [Double] = []
            for _ in 0..<rounds {
                let cached = benchCase == "memory-hit"
                ours.append(await Self.scrollworkRound(rows: rows, cached: cached))
                theirs.append(await Self.baselineRound(rows: rows, cached: cached))
            }
            let (scrollwork, baseline) = (Stopwatch.median(ours), Stopwatch.median(theirs))
            report.append([
                .text(benchCase), .number(Double(rows)), .number(scrollwork), .number(baseline),
                .number(baseline / scrollwork),
            ])
        }
        report.print(json: options.json)
    }

    /// Main-actor microseconds per row: binding every slot, then delivering every value.
    @MainActor
    private static func scrollworkRound(rows: Int, cached: Bool) async -> Double {
        let cache = MemoryCache<BenchRowRequest, [UInt8]>(limits: .init(totalCost: rows * 2, count: rows * 2))
        if cached {
            for row in 0..<rows { cache.insert(BenchRowSource.value(for: row), for: BenchRowRequest(row: row), cost: 1) }
        }
        let pipeline = ContentPipeline(
            loader: BenchRowSource(), processor: BenchRowProcessor(), memoryCache: cache,
            configuration: .init(maxConcurrentLoads: 6, maxConcurrentProcessing: 2))
        let front = ContentLoader(pipeline: pipeline)
        let slots = (0..<rows).map { _ in front.makeSlot() }
        let clock = ContinuousClock()
        var mainTime = clock.measure {
            for (row, slot) in slots.enumerated() { slot.bind(BenchRowRequest(row: row)) }
        }
        if !cached {
            // A 60 Hz frame loop: each tick hands over what arrived since the last one.
            var delivered = 0
            var nextTick = clock.now
            while delivered < rows {
                nextTick = nextTick.advanced(by: .milliseconds(16))
                try? await clock.sleep(until: nextTick)
                mainTime += clock.measure { delivered += front.deliverPending() }
            }
        }
        precondition(slots.enumerated().allSatisfy { $1.state.value == BenchRowSource.value(for: $0) }, "a slot shows the wrong value")
        return mainTime.milliseconds * 1_000 / Double(rows)
    }

    /// Main-thread microseconds per row the way most apps do it.
    @MainActor
    private static func baselineRound(rows: Int, cached: Bool) async -> Double {
        let table = BaselineTable(rows: rows)
        if cached {
            for row in 0..<rows {
                table.cache.setObject(NSData(bytes: BenchRowSource.value(for: row), length: 4), forKey: NSNumber(value: row))
            }
        }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        return await withCheckedContinuation { continuation in
            table.finish = { continuation.resume(returning: $0.milliseconds * 1_000 / Double(rows)) }
            table.mainTime += table.clock.measure {
                for row in 0..<rows {
                    if let hit = table.cache.object(forKey: NSNumber(value: row)) {
                        table.values[row] = [UInt8](hit as Data)
                        continue
                    }
                    let operation = BlockOperation {
                        let value = BenchRowProcessor.transform(BenchRowSource.value(for: row))
                        DispatchQueue.main.async {
                            MainActor.assumeIsolated { table.receive(value, row: row) }
                        }
                    }
                    table.operations[row] = operation
                    queue.addOperation(operation)
                }
            }
            if cached { table.finish?(table.mainTime) }
        }
    }
}

/// The baseline's table view: each row's value, its operation (kept, as apps keep them, to
/// cancel on end of display), the image cache, and the main thread's time spent on them.
@MainActor
private final class BaselineTable {
    let clock = ContinuousClock()
    let cache = NSCache<NSNumber, NSData>()
    var values: [[UInt8]?]
    var operations: [Operation?]
    var mainTime: Duration = .zero
    var finished = 0
    var finish: ((Duration) -> Void)?

    init(rows: Int) {
        values = Array(repeating: nil, count: rows)
        operations = Array(repeating: nil, count: rows)
    }

    /// The main-queue hop of one finished operation.
    func receive(_ value: [UInt8], row: Int) {
        mainTime += clock.measure {
            guard operations[row]?.isCancelled == false else { return }
            cache.setObject(NSData(bytes: value, length: value.count), forKey: NSNumber(value: row))
            values[row] = value
            operations[row] = nil
        }
        finished += 1
        if finished == values.count { finish?(mainTime) }
    }
}

/// A row's content request in the loader benchmark.
struct BenchRowRequest: ContentRequest {
    let row: Int
    var dataKey: Int { row }
}

/// Rows' data from memory, at once: the benchmark measures scheduling, not I/O.
struct BenchRowSource: DataLoading {
    static func value(for row: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(truncatingIfNeeded: row).littleEndian, Array.init) }

    func loadData(for row: Int) async throws -> [UInt8] { Self.value(for: row) }
}

/// The same small transformation on both sides: none, but through a function the optimizer
/// cannot see through.
struct BenchRowProcessor: ContentProcessing {
    @inline(never)
    static func transform(_ data: [UInt8]) -> [UInt8] { data }

    func process(_ data: [UInt8], for request: BenchRowRequest, isCancelled: () -> Bool) throws -> [UInt8] {
        Self.transform(data)
    }
}
