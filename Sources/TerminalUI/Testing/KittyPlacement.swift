/// A kitty placement's name: its image and placement ids.
public struct KittyPlacementID: Hashable, Sendable {
    public var image: Int
    public var placement: Int

    public init(image: Int, placement: Int) {
        self.image = image
        self.placement = placement
    }
}

/// Where a kitty placement is shown and what part of its image: what ``InMemoryTerminal``
/// keeps of each `a=p`.
public struct KittyPlacement: Hashable, Sendable {
    /// The cell the cursor was on.
    public var row: Int
    public var column: Int
    /// The first row of the image shown, and how many (nil: to the end).
    public var sourceY: Int
    public var sourceHeight: Int?
    /// The shift inside the cell, in pixels.
    public var offsetX: Int
    public var offsetY: Int
    /// The cells it is scaled to, when given.
    public var columns: Int?
    public var rows: Int?
}
