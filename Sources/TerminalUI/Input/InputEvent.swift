/// Something the person at the terminal did, or the terminal reported.
public enum InputEvent: Hashable, Sendable {
    /// A key, with the modifiers held.
    case key(KeyPress)
    /// Text pasted while bracketed paste was on: delivered whole, never read as keys. It is
    /// the terminal's bytes as they came (invalid UTF-8 repaired); sanitise it before drawing.
    case paste(String)
    /// A mouse button, drag, movement or wheel step.
    case mouse(MouseEvent)
    /// The terminal window gained focus.
    case focusGained
    /// The terminal window lost focus.
    case focusLost
    /// The terminal has a new size, in cells.
    case resize(columns: Int, rows: Int)
    /// The screen must be drawn again from scratch: the program was suspended and resumed.
    case repaint
    /// The terminal's answer to a DECRQM query (`CSI ? mode $ p`): 1 set, 2 reset, 0 unknown.
    case modeReport(mode: Int, state: Int)
    /// The terminal's answer to XTWINOPS 16 (`CSI 16 t`): the size of a cell in pixels.
    case cellSizeReport(CellPixelSize)
    /// A kitty graphics protocol reply (`ESC _ G … ESC \`): its text after the `G`, such as
    /// `i=31;OK`.
    case kittyGraphicsReply(String)
    /// The terminal's answer to XTWINOPS 14 (`CSI 14 t`): its text area in pixels.
    case windowPixelSizeReport(width: Int, height: Int)
    /// The terminal's answer to XTVERSION (`CSI > 0 q`): its name and version, such as
    /// `XTerm(379)` or `kitty(0.26.5)`.
    case terminalVersion(String)
    /// The terminal's primary device attributes reply (`CSI ? 62 ; 4 ; 22 c`), which every
    /// terminal sends: its parameters (4 means sixel graphics). Asked for after other queries,
    /// it says that their answers, if any, have all arrived.
    case deviceAttributes([Int])
}
