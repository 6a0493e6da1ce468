import ContentLoading
import ContentLoadingHTTP
import HTTPLoading
import ListViewport
import Feeds
import Foundation
import TerminalUI
import ThumbnailLoading
import Thumbnails

/// The reader's thumbnails: a slot per displayed row, bound when the row is displayed and
/// unbound when it leaves, prefetching what the viewport's ranges list, and each loaded image
/// turned into a half-block picture once.
///
/// Slots come from a reuse pool, as row views do, and a slot only ever receives the image of
/// the request it is bound to now, so a reused row never shows its previous post's picture.
@MainActor
final class ThumbnailShelf {
    typealias Loader = ContentLoader<ThumbnailRequest, PixelBuffer>

    let loader: Loader
    private let transfer: HTTPDataLoader
    private let pixelSize: Int
    private var slots: [EntryRow.ID: ContentSlot<ThumbnailRequest, PixelBuffer>] = [:]
    private var spare: [ContentSlot<ThumbnailRequest, PixelBuffer>] = []
    private var pictures: [EntryRow.ID: PictureState] = [:]
    private var plan = LoadPlan<EntryRow.ID>()
    /// The requests of the rows the plan loads (or stopped last), by row.
    private var planned: [EntryRow.ID: ThumbnailRequest] = [:]

    /// A shelf loading over HTTP (and `file:`), decoding to at most `pixelSize` pixels a side.
    init(pixelSize: Int = 48) {
        self.pixelSize = pixelSize
        transfer = HTTPDataLoader()
        let pipeline = ContentPipeline(
            loader: transfer, processor: ThumbnailProcessor(),
            memoryCache: MemoryCache(limits: .init(totalCost: 48 << 20, count: 2_000)),
            configuration: .init(cost: ThumbnailProcessor.cost))
        loader = Loader(pipeline: pipeline)
    }

    private func request(for row: EntryRow) -> ThumbnailRequest? {
        row.thumbnail.map { ThumbnailRequest(url: $0, maxPixelSize: pixelSize) }
    }

    /// Closes the HTTP client; call once, when the reader ends.
    func shutdown() async {
        try? await transfer.shutdown()
    }

    /// What the row's thumbnail box shows.
    func picture(for row: EntryRow) -> PictureState {
        guard row.thumbnailAddress != nil else { return .failed }
        return pictures[row.id] ?? .loading
    }

    /// The row entered the display range: bind a slot to its picture. It loads in the background
    /// tier unless ``load(_:items:)`` gives it a priority (a row on screen during a glide may
    /// flash by).
    func display(_ row: EntryRow) {
        guard let request = request(for: row) else { return }
        let slot = slots[row.id] ?? spare.popLast() ?? loader.makeSlot()
        slots[row.id] = slot
        let id = row.id
        slot.onChange = { [weak self] state in self?.update(id, state) }
        slot.bind(request, priority: .background)
        update(id, slot.state)
    }

    /// The row left the display range: its slot is unbound and goes back to the pool.
    func endDisplay(_ id: EntryRow.ID) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        slot.onChange = nil
        slot.unbind()
        spare.append(slot)
        pictures[id] = nil
    }

    /// Loads the pictures of the rows the viewport's ranges list (``ViewportRanges/rowsToLoad``)
    /// at their priorities, raising, lowering and stopping them as the ranges change: the
    /// policy `scrollwork bench scroll` measures. Call once per frame.
    func load(_ ranges: ViewportRanges, items: [EntryRow]) {
        let changes = plan.update(ranges) { items[$0].id }
        for (id, _) in changes.start {
            guard let row = plan.current[id].map({ items[$0.row] }) else { continue }
            planned[id] = request(for: row)
        }
        loader.apply(changes) { planned[$0] }
        for id in changes.stop { planned[id] = nil }
    }

    /// Hands loaded images to their slots; call once per frame. Returns how many arrived.
    @discardableResult
    func deliver() -> Int {
        loader.deliverPending()
    }

    private func update(_ id: EntryRow.ID, _ state: ContentSlot<ThumbnailRequest, PixelBuffer>.State) {
        switch state {
        case .empty, .loading: pictures[id] = .loading
        case .failed: pictures[id] = .failed
        case .loaded(_, let image):
            let box = PostListScreen.thumbnail
            pictures[id] = .loaded(HalfBlockPicture(image, fittingColumns: box.columns, rows: box.rows))
        }
    }
}
