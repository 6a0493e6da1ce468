/// What a terminal says it supports, from its answers to queries.
public struct TerminalCapabilities: Hashable, Sendable {
    /// Whether it knows DEC mode 2026, synchronized output.
    public var synchronizedOutput: Bool
    /// The size of its cells in pixels, if it reported it.
    public var cellPixelSize: CellPixelSize?
    /// Whether it answered the kitty graphics protocol's query with OK.
    public var kittyGraphics: Bool

    /// Capabilities; by default none known.
    public init(synchronizedOutput: Bool = false, cellPixelSize: CellPixelSize? = nil, kittyGraphics: Bool = false) {
        self.synchronizedOutput = synchronizedOutput
        self.cellPixelSize = cellPixelSize
        self.kittyGraphics = kittyGraphics
    }

    /// The queries to send, in order: DECRQM for mode 2026, XTWINOPS 16 for the cell size, the
    /// kitty graphics query, and last the primary device attributes, which every terminal
    /// answers, so that its reply marks the end of the answers (a terminal ignores queries it
    /// does not know).
    public static let query: [UInt8] = Array("\u{1B}[?2026$p\u{1B}[16t".utf8) + KittyGraphics.query + Array("\u{1B}[c".utf8)

    /// The capabilities `replies` report: a mode report for 2026 that is set, reset or
    /// permanently set (1, 2, 3) means supported; 0 or 4, or no report, means not. Kitty
    /// graphics are supported when the reply to the query's id 31 is OK.
    public init(replies: [InputEvent]) {
        self.init()
        for reply in replies {
            switch reply {
            case .modeReport(mode: 2026, let state): synchronizedOutput = (1...3).contains(state)
            case .cellSizeReport(let size): cellPixelSize = size
            case .kittyGraphicsReply(let text): kittyGraphics = kittyGraphics || text.hasPrefix("i=31;OK")
            default: break
            }
        }
    }
}
