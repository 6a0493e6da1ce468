/// The answers to ``TerminalCapabilities/query(throughTmux:insideTmux:)``, taken from the input
/// as they come, apart from keys: what both a caller that waits for them
/// (``TerminalSession/queryCapabilities(throughTmux:insideTmux:timeout:)``) and one that reads
/// them with its other input (the reader) gather.
public struct CapabilityAnswers: Sendable {
    /// Whether the terminal outside tmux was asked too.
    public let throughTmux: Bool
    /// The answers so far, in order.
    public private(set) var replies: [InputEvent] = []
    /// How many terminals' answers are still to come: each ends with its device attributes.
    public private(set) var awaited: Int

    /// None yet, to a query sent `throughTmux` or not.
    public init(throughTmux: Bool) {
        self.throughTmux = throughTmux
        awaited = TerminalCapabilities.answerCount(throughTmux: throughTmux)
    }

    /// Takes `event` if it answers the query: nil when it does not (a key, a resize), true
    /// when it ends a terminal's answers (its device attributes), false otherwise.
    public mutating func take(_ event: InputEvent) -> Bool? {
        switch event {
        case .modeReport, .cellSizeReport, .windowPixelSizeReport, .kittyGraphicsReply, .terminalVersion:
            replies.append(event)
            return false
        case .deviceAttributes:
            replies.append(event)
            awaited = max(0, awaited - 1)
            return true
        default:
            return nil
        }
    }

    /// What the answers so far say, in a terminal of `cells`.
    public func capabilities(cells: (columns: Int, rows: Int)?) -> TerminalCapabilities {
        TerminalCapabilities(replies: replies, cells: cells, throughTmux: throughTmux)
    }
}
