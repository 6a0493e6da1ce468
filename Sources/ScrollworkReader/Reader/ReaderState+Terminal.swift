import TerminalUI

/// A question to the terminal about what it draws (``ReaderState/askCapabilities(throughTmux:insideTmux:resolve:)``),
/// open until the last device attributes awaited arrive.
struct CapabilityQuestion {
    /// The answers so far.
    var answers: CapabilityAnswers
    /// When tmux's own answers ended, through tmux; the outer terminal's may follow.
    var tmuxAnswered: Duration?
    /// What the answers make of the pictures, and what to say of it.
    var resolve: (TerminalCapabilities) -> (mode: PictureMode, notice: String?)
}

/// What the terminal says of itself: its answers to the capability query, and the kernel's
/// cell size as the font changes.
extension ReaderState {
    /// Asks the terminal what it draws, without waiting: its answers come in with the input,
    /// and once its device attributes (asked last) arrive, `resolve` turns them into the
    /// pictures to draw, which replace the ones the reader started with. A terminal that never
    /// answers keeps them.
    ///
    /// When `throughTmux`, the terminal outside tmux is asked too, through tmux's passthrough:
    /// tmux's own answers decide first, and the outer terminal's, which come only when tmux's
    /// `allow-passthrough` is on, decide again. Inside tmux (`insideTmux`) without asking
    /// through it, tmux's own answers decide.
    mutating func askCapabilities(throughTmux: Bool, insideTmux: Bool,
                                  resolve: @escaping (TerminalCapabilities) -> (mode: PictureMode, notice: String?)) -> [ReaderEffect] {
        question = CapabilityQuestion(answers: CapabilityAnswers(throughTmux: throughTmux), resolve: resolve)
        return [.writeTerminal(TerminalCapabilities.query(throughTmux: throughTmux, insideTmux: insideTmux))]
    }

    /// How many device attributes are still to come in answer to the capability query, at
    /// `now`: 0 when no question is open. The outer terminal's, through tmux, are counted for a
    /// second after tmux's own: they come within a round trip or never.
    func awaitedAnswers(now: Duration) -> Int {
        guard let question else { return 0 }
        guard let tmuxAnswered = question.tmuxAnswered else { return question.answers.awaited }
        return now - tmuxAnswered < .seconds(1) ? question.answers.awaited : 0
    }

    /// Takes `input` if it answers the open question, with what the last answer decides of
    /// the pictures; `nil` when it answers nothing (a key, a resize).
    mutating func answer(_ input: InputEvent, list: ReaderList, now: Duration) -> [ReaderEffect]? {
        guard var asked = question, let ended = asked.answers.take(input) else { return nil }
        guard ended else {
            question = asked
            return []
        }
        // tmux's own answers came first; the terminal outside may answer next.
        if asked.answers.awaited > 0 { asked.tmuxAnswered = now }
        question = asked.answers.awaited > 0 ? asked : nil
        var capabilities = asked.answers.capabilities(cells: (layout.columns, layout.rows))
        if capabilities.cellPixelSize == nil { capabilities.cellPixelSize = kernelCellPixels }
        let (mode, notice) = asked.resolve(capabilities)
        return take(.pictures(mode, notice: notice), list: list, now: now)
    }

    /// A new font size comes as a resize: where the kernel's cell size changed, pictures
    /// drawn in pixels switch to it first, so the resize draws them once, at their new size.
    mutating func followKernel(_ cell: CellPixelSize, list: ReaderList, now: Duration) -> [ReaderEffect] {
        guard cell != kernelCellPixels else { return [] }
        kernelCellPixels = cell
        guard let drawn = options.pictures.cellPixels, drawn != cell else { return [] }
        return take(.pictures(options.pictures.with(cellPixels: cell), notice: nil), list: list, now: now)
    }
}
