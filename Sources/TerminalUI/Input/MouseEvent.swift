/// A mouse event in SGR mouse reporting, at a zero-based cell.
public struct MouseEvent: Hashable, Sendable {
    /// What the mouse did.
    public enum Action: Hashable, Sendable {
        /// A button went down.
        case press(MouseButton)
        /// A button went up.
        case release(MouseButton)
        /// Moved with `button` held.
        case drag(MouseButton)
        /// Moved with no button held (reported only in any-motion mode).
        case move
        /// One step of the wheel.
        case scroll(ScrollDirection)
    }

    /// What the mouse did.
    public var action: Action
    /// The cell's column, from 0.
    public var column: Int
    /// The cell's row, from 0.
    public var row: Int
    /// Shift, Alt, Control held.
    public var modifiers: KeyModifiers

    /// A mouse event.
    public init(_ action: Action, column: Int, row: Int, modifiers: KeyModifiers = []) {
        self.action = action
        self.column = column
        self.row = row
        self.modifiers = modifiers
    }
}

/// A mouse button: left, middle, right, or another by its SGR number (8 and up).
public enum MouseButton: Hashable, Sendable {
    /// A usual button.
    case left, middle, right
    /// An extra button by its SGR number, 8 to 11.
    case other(Int)
}

/// The direction of a wheel step.
public enum ScrollDirection: Hashable, Sendable {
    /// The wheel's direction; left and right come from tilting wheels and touchpads.
    case up, down, left, right
}
