import ContentLoading
import ContentLoadingHTTP
import Foundation
import HTTPLoading
import ListDiff
import ListViewport
import LoopbackHTTP
import ScrollSimulation
import ViewportLoading

/// `scrollwork bench scroll --real`: the simulation checked against reality. One trace runs in
/// real time through the real ``ContentLoader`` and ``ContentPipeline`` (HTTP over loopback,
/// decodes on the pipeline's threads), with the server delaying each reply as the
/// simulation's ``LatencyModel`` does for the same load of the same row, and its figures are
/// printed beside the simulated ones.
@MainActor
enum RealScrollCheck {
    static func run(seed: UInt64, json: Bool) async throws {
        let trace = ScrollTrace.realCheck
        let configuration = ScrollSimulation.Configuration(seed: seed)
        let simulated = await ScrollSimulation.run(trace, strategy: .scrollwork, configuration: configuration)
        let real = try await runReal(trace, configuration: configuration)
        if json {
            var report = BenchReport(columns: [
                "blank_ratio_simulated", "blank_ratio_real", "visible_complete_ms_p95_simulated", "visible_complete_ms_p95_real",
            ])
            report.append([
                .number(simulated.blankRatio), .number(real.blankRatio),
                BenchValue(simulated.visibleCompleteP95), BenchValue(real.visibleCompleteP95),
            ])
            report.print(json: true)
        } else {
            print("\(trace.name) (\(trace.rowCount) rows), scrollwork, simulated and in real time over loopback HTTP")
            var report = BenchReport(columns: ["figure", "simulated", "real"])
            report.append([.text("blank_ratio"), .number(simulated.blankRatio), .number(real.blankRatio)])
            report.append([.text("blank_ratio_all"), .number(simulated.blankRatioAll), .number(real.blankRatioAll)])
            report.append([.text("visible_complete_ms_p95"), BenchValue(simulated.visibleCompleteP95), BenchValue(real.visibleCompleteP95)])
            report.append([.text("loads"), .number(Double(simulated.loads)), .number(Double(real.loads))])
            report.print(json: false)
        }
    }

    /// Plays `trace` in real time and measures it as the simulation does.
    static func runReal(_ trace: ScrollTrace, configuration: ScrollSimulation.Configuration) async throws -> ScrollMetrics {
        let latency = configuration.latency
        let server = try await LoopbackHTTPServer.start { request, hit in
            guard let item = Int(request.path.dropFirst("/row/".count)) else { return .text(404, "no such row") }
            let body = [UInt8](repeating: 0, count: latency.size(item: item))
            return .delayed(latency.latency(item: item, attempt: hit), .respond(status: 200, body: body))
        }
        let transfer = HTTPDataLoader()
        let pipeline = ContentPipeline(
            loader: transfer, processor: TimedDecode(latency: latency),
            memoryCache: MemoryCache(limits: .init(totalCost: configuration.cacheCount, count: configuration.cacheCount)),
            configuration: .init(maxConcurrentLoads: configuration.maxConcurrentLoads,
                                 maxConcurrentProcessing: configuration.maxConcurrentProcessing, order: .lifo,
                                 hedging: configuration.hedging))
        let loader = ContentLoader(pipeline: pipeline)
        let host = RealScrollHost(loader: loader) { RowRequest(item: $0, url: server.url("/row/\($0)")) }
        let viewport = ListViewport<SimulatedRow>(host: host)
        host.viewport = viewport
        viewport.rangeConfiguration = configuration.ranges
        viewport.setViewportHeight(trace.viewportHeight)
        viewport.submit((0..<trace.rowCount).map(SimulatedRow.init))
        await viewport.settled()

        var recorder = ScrollMetricsRecorder(viewportHeight: trace.viewportHeight)
        var inputs = trace.inputs[...]
        let clock = ContinuousClock()
        let start = clock.now
        // Loads of the warm-up are not counted, as in the simulation.
        var atWarmUp: ContentMetrics?
        var tick = 0
        while true {
            try await clock.sleep(until: start + configuration.frame * tick)
            tick += 1
            let time = clock.now - start
            if atWarmUp == nil && time >= configuration.warmUp { atWarmUp = pipeline.metrics }
            loader.deliverPending()
            if tick == 2 { viewport.scroll(toRow: trace.startRow, animated: false, at: time) }
            while let input = inputs.first, configuration.warmUp + input.at <= time {
                inputs.removeFirst()
                guard case .fling(let velocity) = input.action else { preconditionFailure("the real check replays flings only") }
                viewport.fling(velocity: velocity, at: time)
            }
            viewport.tick(at: time)
            let phase = viewport.scroll.phase
            if time >= configuration.warmUp {
                recorder.record(at: time, rows: host.lastVisible, isAtRest: phase != .decelerating && phase != .animating,
                                isGliding: phase == .decelerating)
            }
            if time >= configuration.warmUp,
               recorder.endsAfterRest(at: time, settled: inputs.isEmpty && !viewport.scroll.isMoving,
                                      rest: configuration.rest, frame: configuration.frame) { break }
        }
        host.unbindAll()
        await loader.settled()
        try await transfer.shutdown()
        try await server.stop()

        return recorder.metrics(wastedRatio: 0, stale: 0, loads: pipeline.metrics.loadsStarted - (atWarmUp?.loadsStarted ?? 0),
                                bytes: pipeline.metrics.bytesLoaded - (atWarmUp?.bytesLoaded ?? 0))
    }
}

/// A row's picture over HTTP.
private struct RowRequest: ContentRequest {
    let item: Int
    let url: URL
    var dataKey: URL { url }

    static func == (lhs: RowRequest, rhs: RowRequest) -> Bool { lhs.item == rhs.item }
    func hash(into hasher: inout Hasher) { hasher.combine(item) }
}

/// Decoding as the simulation times it: the thread is busy for the model's decode time.
private struct TimedDecode: ContentProcessing {
    let latency: LatencyModel

    func process(_ data: [UInt8], for request: RowRequest, isCancelled: () -> Bool) throws -> RowContent {
        Thread.sleep(forTimeInterval: LatencyModel.milliseconds(latency.decodeTime(bytes: data.count)) / 1000)
        return RowContent(item: request.item, load: -1)
    }
}

/// The reader's way of loading, over a real ``ContentLoader``: its ``RowBinder``, a slot per
/// displayed row bound in the background tier and the ranges prefetched, as the simulation's
/// Scrollwork strategy does in virtual time.
@MainActor
private final class RealScrollHost: ListViewportHost {
    typealias Item = SimulatedRow

    private let request: (Int) -> RowRequest
    private var rows: RowBinder<Int, ContentLoader<RowRequest, RowContent>>
    weak var viewport: ListViewport<SimulatedRow>?
    private(set) var lastVisible: [ScrollMetricsRecorder.VisibleRow] = []

    init(loader: ContentLoader<RowRequest, RowContent>, request: @escaping (Int) -> RowRequest) {
        rows = RowBinder(loader: loader)
        self.request = request
    }

    func estimatedHeight(of item: SimulatedRow) -> Double { ScrollTrace.realCheck.rowHeight }
    func didApply(_ update: UpdateCoalescer<SoleSection, SimulatedRow>.Update) {}

    func willDisplay(_ item: SimulatedRow, at row: Int) {
        rows.display(item.id, request: request(item.id))
    }

    func didEndDisplaying(_ id: Int) {
        rows.endDisplay(id)
    }

    func render(_ frame: ListViewport<SimulatedRow>.Frame) {
        if let viewport {
            let items = viewport.items
            rows.load(viewport.ranges, id: { items[$0].id }, request: { request(items[$0].id) })
        }
        lastVisible = frame.rows.filter { !$0.isLeaving }.map {
            ScrollMetricsRecorder.VisibleRow(item: $0.item.id, top: $0.top, isFilled: rows.slot(for: $0.item.id)?.state.value?.item == $0.item.id)
        }
    }

    /// Unbinds every slot and stops every prefetch: the run is over.
    func unbindAll() {
        rows.unbindAll()
    }
}
