import ContentLoading
import ListDiff
import ListViewport
import SeededRandom

/// A host that reuses row views from a ``ReusePool`` (two kinds), binds each view's picture
/// through a ``LoaderFront``, and loads pictures with random delays of up to 40 frames;
/// at every frame it checks that no drawn row shows a picture of another item, or of an
/// older version of its own (a reloaded row).
@MainActor
final class ReusingHost: ListViewportHost {
    typealias Item = Post

    struct Picture: ContentRequest {
        let id: Int
        let title: String
        var dataKey: Int { id }
    }

    final class RowView {
        let kind: Int
        var shows: Picture?

        init(kind: Int) { self.kind = kind }
    }

    private(set) var pool = ReusePool<Int, RowView>()
    private var front = LoaderFront<Picture, Picture, ObjectIdentifier>(memoryCache: nil)
    private var views: [Int: RowView] = [:]
    private var loads: [(consumer: ContentConsumerID, picture: Picture, view: RowView, due: Int)] = []
    private var random: SeededGenerator
    private var frame = 0
    private(set) var problems: [String] = []
    private(set) var delivered = 0
    private(set) var dropped = 0

    /// A host drawing its load delays from `seed` (the fuzz's).
    init(seed: UInt64) {
        random = SeededGenerator(seed: seed ^ 0x5EED)
    }

    func estimatedHeight(of item: Post) -> Double { 2 }
    func didApply(_ update: UpdateCoalescer<SoleSection, Post>.Update) {}

    func willDisplay(_ item: Post, at row: Int) {
        let kind = item.id % 2
        let view = pool.dequeue(kind) { RowView(kind: kind) }
        if views.updateValue(view, forKey: item.id) != nil { problems.append("\(item.id) displayed twice") }
        bind(view, to: item)
    }

    func didEndDisplaying(_ id: Int) {
        guard let view = views.removeValue(forKey: id) else { return problems.append("\(id) ended without a view") }
        front.unbind(ObjectIdentifier(view))
        view.shows = nil
        pool.enqueue(view, kind: view.kind)
    }

    func rangesDidChange(_ changes: RangeTracker<Int>.Changes) {}

    func render(_ frame: ListViewport<Post>.Frame) {
        self.frame += 1
        // Values that arrived go to their view if it is still bound to them.
        let now = self.frame
        for load in loads where load.due <= now {
            if front.accept(from: load.consumer) != nil {
                load.view.shows = load.picture
                delivered += 1
            } else {
                dropped += 1
            }
        }
        loads.removeAll { $0.due <= now }
        for row in frame.rows where !row.isLeaving {
            guard let view = views[row.item.id] else { continue }
            // A reloaded row is configured again, as a cell is.
            if front.request(of: ObjectIdentifier(view))?.title ?? view.shows?.title != row.item.title { bind(view, to: row.item) }
            if let shows = view.shows, shows != Picture(id: row.item.id, title: row.item.title) {
                problems.append("row \(row.item.id) shows \(shows)")
            }
        }
    }

    private func bind(_ view: RowView, to item: Post) {
        view.shows = nil
        let picture = Picture(id: item.id, title: item.title)
        _ = front.bind(ObjectIdentifier(view), to: picture, priority: .visible)
        // Cancels are not heard: a load arrives even after its view was unbound or rebound.
        for case let .request(_, _, consumer) in front.takeCommands() {
            loads.append((consumer, picture, view, frame + Int.random(in: 0...40, using: &random)))
        }
    }
}
