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
    /// What the terminal outside tmux answered through tmux's passthrough
    /// (``query(throughTmux:)``); nil when nothing came through: not asked, or tmux's
    /// `allow-passthrough` is off.
    public var outer: OuterTerminal?
    /// Whether the terminal outside tmux was asked at all (``query(throughTmux:insideTmux:)``
    /// with `throughTmux`): no ``outer`` then means tmux passed nothing.
    public var askedOutside = false

    /// What the terminal outside tmux says of itself, through tmux's passthrough.
    public struct OuterTerminal: Hashable, Sendable {
        /// Whether it answered the kitty graphics query with OK.
        public var kittyGraphics: Bool
        /// Its name and version, from XTVERSION, if it answered.
        public var terminalVersion: String?
        /// The size of its cells in pixels, if it answered.
        public var cellPixelSize: CellPixelSize?

        public init(kittyGraphics: Bool = false, terminalVersion: String? = nil, cellPixelSize: CellPixelSize? = nil) {
            self.kittyGraphics = kittyGraphics
            self.terminalVersion = terminalVersion
            self.cellPixelSize = cellPixelSize
        }
    }

    /// Whether a terminal of `version` (its XTVERSION answer) draws kitty's Unicode
    /// placeholders: kitty 0.28 and later, and Ghostty.
    public static func hasUnicodePlaceholders(version: String?) -> Bool {
        guard let version else { return false }
        if version.lowercased().hasPrefix("ghostty") { return true }
        guard version.hasPrefix("kitty("), version.hasSuffix(")") else { return false }
        let numbers = version.dropFirst(6).dropLast().split(separator: ".").map { Int($0) ?? 0 }
        guard let major = numbers.first else { return false }
        return major > 0 || (numbers.count > 1 && numbers[1] >= 28)
    }

    /// Capabilities; by default none known.
    public init(synchronizedOutput: Bool = false, cellPixelSize: CellPixelSize? = nil, kittyGraphics: Bool = false,
                sixel: Bool = false, terminalVersion: String? = nil, answered: Bool = false, outer: OuterTerminal? = nil) {
        self.synchronizedOutput = synchronizedOutput
        self.cellPixelSize = cellPixelSize
        self.kittyGraphics = kittyGraphics
        self.sixel = sixel
        self.terminalVersion = terminalVersion
        self.answered = answered
        self.outer = outer
    }

    /// The queries to send, in order: DECRQM for mode 2026, XTWINOPS 16 for the cell size and
    /// 14 for the text area's, the kitty graphics query, XTVERSION, and last the primary device
    /// attributes, which every terminal answers, so that its reply marks the end of the
    /// answers (a terminal ignores queries it does not know).
    public static let query: [UInt8] = leadingQuestions + KittyGraphics.query + closingQuestions

    /// The questions before the kitty graphics query: DECRQM 2026, XTWINOPS 16 and 14.
    private static let leadingQuestions = Array("\u{1B}[?2026$p\u{1B}[16t\u{1B}[14t".utf8)
    /// The questions after it: XTVERSION, and last the primary device attributes.
    private static let closingQuestions = Array("\u{1B}[>0q\u{1B}[c".utf8)

    /// ``query``, and when `throughTmux`, the questions for the terminal outside tmux passed
    /// through it: the kitty graphics query, XTVERSION, the cell size, and last its device
    /// attributes. tmux answers its own at once; the outer terminal's answers come after them,
    /// and only when tmux's `allow-passthrough` is on. Inside tmux (`insideTmux`, which
    /// `throughTmux` implies) the kitty query goes only through the passthrough, if at all:
    /// tmux takes a bare one (an APC) for the pane's title.
    public static func query(throughTmux: Bool, insideTmux: Bool = false) -> [UInt8] {
        guard throughTmux || insideTmux else { return query }
        let own = leadingQuestions + closingQuestions
        guard throughTmux else { return own }
        return own + [KittyGraphics.query, Array("\u{1B}[>0q".utf8), Array("\u{1B}[16t".utf8), Array("\u{1B}[c".utf8)]
            .flatMap { KittyGraphics.tmuxPassthrough($0) }
    }

    /// How many device attributes answer ``query(throughTmux:)``: one per terminal asked.
    public static func answerCount(throughTmux: Bool) -> Int {
        throughTmux ? 2 : 1
    }

    /// The capabilities `replies` report: a mode report for 2026 that is set, reset or
    /// permanently set (1, 2, 3) means supported; 0 or 4, or no report, means not. Kitty
    /// graphics are supported when the reply to the query's id 31 is OK; sixel when the device
    /// attributes hold 4. Without a cell size report, the text area's size in pixels over
    /// `cells` (its size in cells) gives it.
    ///
    /// When `throughTmux`, the answers after tmux's own device attributes are the outer
    /// terminal's (``outer``).
    public init(replies: [InputEvent], cells: (columns: Int, rows: Int)? = nil, throughTmux: Bool = false) {
        self.init()
        askedOutside = throughTmux
        var area: (width: Int, height: Int)?
        for reply in replies {
            if throughTmux && answered {
                var outer = self.outer ?? OuterTerminal()
                switch reply {
                case .kittyGraphicsReply(let text): outer.kittyGraphics = outer.kittyGraphics || text.hasPrefix("i=31;OK")
                case .terminalVersion(let version): outer.terminalVersion = version
                case .cellSizeReport(let size): outer.cellPixelSize = size
                default: break
                }
                self.outer = outer
                continue
            }
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
