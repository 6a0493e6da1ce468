import ContentLoading
import ListDiff
import ListViewport
import SeededRandom
import ViewportLoading

/// A host that reuses row views from a ``ReusePool`` (two kinds), binds each row's picture
/// with the reader's ``RowBinder``, and loads pictures with random delays of up to 40 frames;
/// at every frame it checks that no drawn row shows a picture of another item, or of an
/// older version of its own (a reloaded row).
@MainActor
final class ReusingHost: ListViewportHost {
    typealias Item = Post

    final class RowView {
        let kind: Int
        /// The version of the item the view is configured for.
        var item: Post?

        init(kind: Int) { self.kind = kind }
    }

    private(set) var pool = ReusePool<Int, RowView>()
    private var views: [Int: RowView] = [:]
    private var pictures: RowBinder<Int, DelayedPictures>
    private(set) var problems: [String] = []
    var delivered: Int { pictures.loader.delivered }
    var dropped: Int { pictures.loader.dropped }

    /// A host drawing its load delays from `seed` (the fuzz's).
    init(seed: UInt64) {
        pictures = RowBinder(loader: DelayedPictures(seed: seed ^ 0x5EED))
    }

    func estimatedHeight(of item: Post) -> Double { 2 }
    func didApply(_ update: UpdateCoalescer<SoleSection, Post>.Update) {}

    func willDisplay(_ item: Post, at row: Int) {
        let kind = item.id % 2
        let view = pool.dequeue(kind) { RowView(kind: kind) }
        if views.updateValue(view, forKey: item.id) != nil { problems.append("\(item.id) displayed twice") }
        configure(view, for: item)
    }

    func didEndDisplaying(_ id: Int) {
        guard let view = views.removeValue(forKey: id) else { return problems.append("\(id) ended without a view") }
        pictures.endDisplay(id)
        view.item = nil
        pool.enqueue(view, kind: view.kind)
    }

    func render(_ frame: ListViewport<Post>.Frame) {
        // Values that arrived go to their slot if it is still bound to them.
        pictures.loader.tick()
        for row in frame.rows where !row.isLeaving {
            guard let view = views[row.item.id] else { continue }
            // A reloaded row is configured again, as a cell is.
            if view.item != row.item { configure(view, for: row.item) }
            if let shows = pictures.slot(for: row.item.id)?.shows, shows != Picture(row.item) {
                problems.append("row \(row.item.id) shows \(shows)")
            }
        }
    }

    private func configure(_ view: RowView, for item: Post) {
        view.item = item
        pictures.display(item.id, request: Picture(item), priority: .visible)
    }
}

/// A row's picture: its item's identity and title, so a reloaded row wants a new one.
struct Picture: ContentRequest {
    let id: Int
    let title: String
    var dataKey: Int { id }

    init(_ post: Post) {
        id = post.id
        title = post.title
    }
}

/// Pictures that load through a ``LoaderFront`` in frames: each request arrives after a random
/// delay of up to 40 frames, even if its slot was unbound or rebound meanwhile (as a value
/// already in the mailbox does), so the front must drop it.
@MainActor
final class DelayedPictures: RowContentLoader {
    final class Slot: RowContentSlot, Hashable {
        private unowned let loader: DelayedPictures
        /// The picture the slot shows.
        fileprivate(set) var shows: Picture?

        init(loader: DelayedPictures) { self.loader = loader }

        func bind(_ request: Picture, priority: LoadPriority) { loader.bind(self, to: request, priority: priority) }
        func unbind() { loader.unbind(self) }

        nonisolated static func == (lhs: Slot, rhs: Slot) -> Bool { lhs === rhs }
        nonisolated func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    private var front = LoaderFront<Picture, Picture, Slot>(memoryCache: nil)
    private var loads: [(consumer: ContentConsumerID, due: Int)] = []
    private var slotConsumers: Set<ContentConsumerID> = []
    private var random: SeededGenerator
    private var frame = 0
    private(set) var delivered = 0
    /// Values for slots that arrived after their binding ended.
    private(set) var dropped = 0

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    func makeSlot() -> Slot { Slot(loader: self) }

    func apply(_ changes: PrefetchChanges<Picture>) {
        front.apply(changes)
        send()
    }

    /// The frame tick: what is due arrives.
    func tick() {
        frame += 1
        let now = frame
        for load in loads where load.due <= now {
            if let (slot, picture) = front.accept(from: load.consumer) {
                slot.shows = picture
                delivered += 1
            } else if slotConsumers.contains(load.consumer) {
                dropped += 1
            }
        }
        loads.removeAll { $0.due <= now }
    }

    fileprivate func bind(_ slot: Slot, to request: Picture, priority: LoadPriority) {
        if case .renewed = front.bind(slot, to: request, priority: priority) { return }
        slot.shows = nil
        let asked = send()
        slotConsumers.formUnion(asked)
    }

    fileprivate func unbind(_ slot: Slot) {
        front.unbind(slot)
        slot.shows = nil
        send()
    }

    /// Starts a load for every request the front asks for; cancels are not heard.
    @discardableResult
    private func send() -> [ContentConsumerID] {
        var asked: [ContentConsumerID] = []
        for case let .request(_, _, consumer) in front.takeCommands() {
            loads.append((consumer, frame + Int.random(in: 0...40, using: &random)))
            asked.append(consumer)
        }
        return asked
    }
}
