/// What a terminal says it supports, from its answers to queries.
public struct TerminalCapabilities: Hashable, Sendable {
    /// Whether it knows DEC mode 2026, synchronized output.
    public var synchronizedOutput: Bool
    /// The size of its cells in pixels, if it reported it (or its text area's, from which the
    /// cell size follows).
    public var cellPixelSize: CellPixelSize?
    /// Whether it answered the kitty graphics protocol's query with OK.
    public var kittyGraphics: Bool
    /// Whether its primary device attributes include 4, sixel graphics.
    public var sixel: Bool
    /// Its name and version, from XTVERSION (`XTerm(379)`, `kitty(0.26.5)`), if it answered.
    public var terminalVersion: String?
    /// Whether it answered at all: the primary device attributes, which every terminal sends,
    /// arrived before the time ran out.
    public var answered: Bool

    /// Capabilities; by default none known.
    public init(synchronizedOutput: Bool = false, cellPixelSize: CellPixelSize? = nil, kittyGraphics: Bool = false,
                sixel: Bool = false, terminalVersion: String? = nil, answered: Bool = false) {
        self.synchronizedOutput = synchronizedOutput
        self.cellPixelSize = cellPixelSize
        self.kittyGraphics = kittyGraphics
        self.sixel = sixel
        self.terminalVersion = terminalVersion
        self.answered = answered
    }

    /// The queries to send, in order: DECRQM for mode 2026, XTWINOPS 16 for the cell size and
    /// 14 for the text area's, the kitty graphics query, XTVERSION, and last the primary device
    /// attributes, which every terminal answers, so that its reply marks the end of the
    /// answers (a terminal ignores queries it does not know).
    public static let query: [UInt8] = Array("\u{1B}[?2026$p\u{1B}[16t\u{1B}[14t".utf8) + KittyGraphics.query + Array("\u{1B}[>0q\u{1B}[c".utf8)

    /// The capabilities `replies` report: a mode report for 2026 that is set, reset or
    /// permanently set (1, 2, 3) means supported; 0 or 4, or no report, means not. Kitty
    /// graphics are supported when the reply to the query's id 31 is OK; sixel when the device
    /// attributes hold 4. Without a cell size report, the text area's size in pixels over
    /// `cells` (its size in cells) gives it.
    public init(replies: [InputEvent], cells: (columns: Int, rows: Int)? = nil) {
        self.init()
        var area: (width: Int, height: Int)?
        for reply in replies {
            switch reply {
            case .modeReport(mode: 2026, let state): synchronizedOutput = (1...3).contains(state)
            case .cellSizeReport(let size): cellPixelSize = size
            case .windowPixelSizeReport(let width, let height): area = (width, height)
            case .kittyGraphicsReply(let text): kittyGraphics = kittyGraphics || text.hasPrefix("i=31;OK")
            case .terminalVersion(let version): terminalVersion = version
            case .deviceAttributes(let parameters):
                answered = true
                sixel = parameters.dropFirst().contains(4)
            default: break
            }
        }
        if cellPixelSize == nil, let area, let cells, cells.columns > 0, cells.rows > 0,
           area.width >= cells.columns, area.height >= cells.rows {
            cellPixelSize = CellPixelSize(width: area.width / cells.columns, height: area.height / cells.rows)
        }
    }
}
