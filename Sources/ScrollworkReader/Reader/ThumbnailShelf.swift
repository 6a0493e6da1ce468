import ContentLoading
import ContentLoadingHTTP
import HTTPLoading
import ListViewport
import Feeds
import Foundation
import TerminalUI
import ThumbnailLoading
import Thumbnails
import ViewportLoading

/// The reader's thumbnails: a ``RowBinder``'s slot per displayed row, bound when the row is
/// displayed and unbound when it leaves, prefetching what the viewport's ranges list, and each
/// loaded image turned once into a half-block picture or, where the terminal draws pixels
/// (``cellPixels``), into pixels the size of its box, to be drawn over the cells.
///
/// Slots come from the binder's pool, as row views do, and a slot only ever receives the image
/// of the request it is bound to now, so a reused row never shows its previous post's picture.
@MainActor
package final class ThumbnailShelf {
    package typealias Loader = ContentLoader<ThumbnailRequest, PixelBuffer>

    package let loader: Loader
    /// The HTTP client the shelf made, closed by ``shutdown()``; `nil` when it was given a loader.
    private let transfer: HTTPDataLoader?
    private var pixelSize: Int
    /// The size of a cell in pixels when pictures are drawn at pixel resolution over the cells;
    /// nil for half blocks.
    package private(set) var cellPixels: CellPixelSize?
    /// The glyphs of pictures drawn in cells.
    package private(set) var glyphs = HalfBlockPicture.Glyphs.halfBlocks
    /// The open article's pictures, as last shown.
    private var figuresShown: [ArticleScreen.Figure] = []
    /// The pixels of the pictures drawn over the cells, by row and by article picture.
    private var overlays: [EntryRow.ID: Overlay] = [:]
    private var figureOverlays: [URL: Overlay] = [:]
    private var rows: RowBinder<EntryRow.ID, Loader>
    private var pictures: [EntryRow.ID: PictureState] = [:]
    /// The open article's pictures: a slot from the rows' pool and a state per image.
    private var figureSlots: [URL: ContentSlot<ThumbnailRequest, PixelBuffer>] = [:]
    private var figurePictures: [URL: PictureState] = [:]

    /// A shelf decoding to at most `pixelSize` pixels a side, loading over HTTP (only `http` and
    /// `https` pictures load; see ``isRemote(_:)``), and
    /// keeping the loaded files in `diskCache` when given.
    package convenience init(diskCache: (any DataCaching<URL>)? = nil) {
        let transfer = HTTPDataLoader()
        self.init(loader: transfer, diskCache: diskCache, transfer: transfer)
    }

    /// A shelf loading with `loader`: a test's.
    package convenience init(loader: some DataLoading<URL>) {
        self.init(loader: loader, diskCache: nil, transfer: nil)
    }

    /// Pictures start in half blocks; the reader sets the cell size it draws pixels in
    /// (``setCellPixels(_:glyphs:displayed:)``).
    private init(loader: some DataLoading<URL>, diskCache: (any DataCaching<URL>)?, transfer: HTTPDataLoader?) {
        pixelSize = Self.pixelSize(nil)
        self.transfer = transfer
        let pipeline = ContentPipeline(
            loader: loader, processor: ThumbnailProcessor(),
            memoryCache: MemoryCache(limits: .init(totalCost: 48 << 20, count: 2_000)),
            diskCache: diskCache,
            // A picture on screen still loading after four loads in five have ended is asked
            // for again (`bench scroll` measures it).
            configuration: .init(cost: ThumbnailProcessor.cost, hedging: LoadHedging()))
        self.loader = Loader(pipeline: pipeline)
        rows = RowBinder(loader: self.loader)
    }

    /// The size a thumbnail is decoded at: half blocks area-average twice the box's pixels;
    /// pixels are decoded at the box's size.
    private static func pixelSize(_ cellPixels: CellPixelSize?) -> Int {
        let box = PostListScreen.thumbnail
        return cellPixels.map { max(box.columns * $0.width, box.rows * $0.height) } ?? 48
    }

    /// Pictures are drawn at pixel resolution in cells of `cellPixels` from now on (nil: in
    /// cells, with `glyphs`): the pictures of `displayed` rows and of the open article load
    /// again at the size that needs.
    func setCellPixels(_ cellPixels: CellPixelSize?, glyphs: HalfBlockPicture.Glyphs = .halfBlocks, displayed: [EntryRow]) {
        guard cellPixels != self.cellPixels || glyphs != self.glyphs else { return }
        self.cellPixels = cellPixels
        self.glyphs = glyphs
        pixelSize = Self.pixelSize(cellPixels)
        pictures = [:]
        overlays = [:]
        for row in displayed where rows.slot(for: row.id) != nil { display(row) }
        if !figuresShown.isEmpty { showFigures(figuresShown) }
    }

    private func request(for row: EntryRow) -> ThumbnailRequest? {
        row.thumbnail.flatMap { Self.isRemote($0) ? ThumbnailRequest(url: $0, maxPixelSize: pixelSize) : nil }
    }

    /// Whether a picture's address may be loaded: only `http` and `https`. Addresses come from
    /// feeds, which are hostile input: a `file:` picture would read a local file (a private key,
    /// `/dev/tty`) and keep a copy in the image cache.
    nonisolated static func isRemote(_ url: URL) -> Bool {
        let scheme = url.scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }

    /// Closes the HTTP client; call once, when the reader ends.
    func shutdown() async {
        try? await transfer?.shutdown()
    }

    /// What the row's thumbnail box shows.
    func picture(for row: EntryRow) -> PictureState {
        guard let address = row.thumbnail, Self.isRemote(address) else { return .failed }
        return pictures[row.id] ?? .loading
    }

    /// The row entered the display range: bind a slot to its picture. It loads in the background
    /// tier unless ``load(_:items:)`` gives it a priority (a row on screen during a glide may
    /// flash by).
    func display(_ row: EntryRow) {
        guard let request = request(for: row) else { return }
        let slot = rows.display(row.id, request: request)
        let id = row.id
        slot.onChange = { [weak self] state in self?.update(id, state) }
        update(id, slot.state)
    }

    /// The row left the display range: its slot is unbound and goes back to the pool.
    func endDisplay(_ id: EntryRow.ID) {
        guard let slot = rows.slot(for: id) else { return }
        slot.onChange = nil
        rows.endDisplay(id)
        pictures[id] = nil
        overlays[id] = nil
    }

    /// Loads the pictures of the rows the viewport's ranges list (``ViewportRanges/rowsToLoad``)
    /// at their priorities, raising, lowering and stopping them as the ranges change: the
    /// policy `scrollwork bench scroll` measures. Call once per frame.
    /// Days' headings have no picture.
    func load(_ ranges: ViewportRanges, items: [PostListRow]) {
        rows.load(ranges, id: { items[$0].id }, request: { items[$0].post.flatMap(request(for:)) })
    }

    /// Hands loaded images to their slots; call once per frame. Returns how many arrived.
    @discardableResult
    func deliver() -> Int {
        loader.deliverPending()
    }

    /// Starts loading the pictures of an open article, at visible priority, in place of the
    /// last article's.
    func showFigures(_ figures: [ArticleScreen.Figure]) {
        hideFigures()
        figuresShown = figures
        for figure in figures where figureSlots[figure.url] == nil {
            guard Self.isRemote(figure.url) else {
                figurePictures[figure.url] = .failed
                continue
            }
            let slot = rows.dequeueSlot()
            figureSlots[figure.url] = slot
            slot.onChange = { [weak self] state in self?.updateFigure(figure, state) }
            // Half blocks: twice the box's pixels, which the picture area-averages down. Pixels:
            // the box's own.
            let size = cellPixels.map { max(figure.columns * $0.width, figure.rows * $0.height) } ?? 2 * max(figure.columns, 2 * figure.rows)
            slot.bind(ThumbnailRequest(url: figure.url, maxPixelSize: size), priority: .visible)
            updateFigure(figure, slot.state)
        }
    }

    /// The article closed: its pictures stop loading, their slots go back to the pool.
    func hideFigures() {
        for slot in figureSlots.values {
            slot.onChange = nil
            rows.recycle(slot)
        }
        figureSlots = [:]
        figurePictures = [:]
        figureOverlays = [:]
        figuresShown = []
    }

    /// What an article picture's box shows.
    func figure(_ url: URL) -> PictureState {
        figurePictures[url] ?? .loading
    }

    private func updateFigure(_ figure: ArticleScreen.Figure, _ state: ContentSlot<ThumbnailRequest, PixelBuffer>.State) {
        switch state {
        case .empty, .loading:
            figurePictures[figure.url] = .loading
            figureOverlays[figure.url] = nil
        case .failed:
            figurePictures[figure.url] = .failed
            figureOverlays[figure.url] = nil
        case .loaded(let request, let image):
            if let cellPixels {
                figureOverlays[figure.url] = Overlay(request: request, box: (figure.columns, figure.rows), image, cellPixels: cellPixels)
                figurePictures[figure.url] = .overlaid
            } else {
                figurePictures[figure.url] = .loaded(HalfBlockPicture(image, fittingColumns: figure.columns, rows: figure.rows, glyphs: glyphs))
            }
        }
    }

    /// How the pictures on display are doing, for the status line.
    struct Figures: Equatable, CustomStringConvertible {
        /// Pictures drawn.
        var shown = 0
        /// Pictures asked for and not arrived yet.
        var loading = 0
        /// Pictures that could not be loaded.
        var failed = 0

        var description: String {
            "images: \(shown) shown · \(loading) loading" + (failed > 0 ? " · \(failed) failed" : "")
        }
    }

    /// The pictures of the rows on display, or of the open article while one is open, counted
    /// from the states the slots have now: true from the first frame, which binds them, and
    /// changed only by ``deliver()``, which a frame calls before it draws.
    /// - Complexity: O(the pictures on display).
    var figures: Figures {
        figureSlots.isEmpty ? Self.count(pictures.values) : Self.count(figurePictures.values)
    }

    private static func count(_ states: some Sequence<PictureState>) -> Figures {
        var figures = Figures()
        for state in states {
            switch state {
            case .loading: figures.loading += 1
            case .failed: figures.failed += 1
            case .loaded, .overlaid: figures.shown += 1
            }
        }
        return figures
    }

    private func update(_ id: EntryRow.ID, _ state: ContentSlot<ThumbnailRequest, PixelBuffer>.State) {
        switch state {
        case .empty, .loading:
            pictures[id] = .loading
            overlays[id] = nil
        case .failed:
            pictures[id] = .failed
            overlays[id] = nil
        case .loaded(let request, let image):
            let box = PostListScreen.thumbnail
            if let cellPixels {
                overlays[id] = Overlay(request: request, box: box, image, cellPixels: cellPixels)
                pictures[id] = .overlaid
            } else {
                pictures[id] = .loaded(HalfBlockPicture(image, fittingColumns: box.columns, rows: box.rows, glyphs: glyphs))
            }
        }
    }

    /// The pixels drawn over a row's thumbnail box, once its picture is loaded, when pictures
    /// are pixels.
    func overlay(for id: EntryRow.ID) -> Overlay? {
        overlays[id]
    }

    /// The pixels drawn over an article picture's box, likewise.
    func figureOverlay(_ url: URL) -> Overlay? {
        figureOverlays[url]
    }

    /// A picture drawn over the cells: its request, which names it, and its pixels, fitted to
    /// its box.
    struct Overlay {
        var request: ThumbnailRequest
        var pixels: PixelBuffer

        /// `image` scaled down, keeping its shape, to fit a box of `box` cells of `cellPixels`.
        init(request: ThumbnailRequest, box: (columns: Int, rows: Int), _ image: PixelBuffer, cellPixels: CellPixelSize) {
            self.request = request
            let (width, height) = (box.columns * cellPixels.width, box.rows * cellPixels.height)
            let scale = min(1, Double(width) / Double(max(1, image.width)), Double(height) / Double(max(1, image.height)))
            pixels = scale < 1
                ? image.downsampled(toFit: max(1, Int((Double(max(image.width, image.height)) * scale).rounded(.down))))
                : image
        }
    }
}
