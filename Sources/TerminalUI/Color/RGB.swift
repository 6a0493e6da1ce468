/// An opaque 8-bit sRGB colour.
public struct RGB: Hashable, Sendable {
    /// Red, 0 to 255.
    public var red: UInt8
    /// Green, 0 to 255.
    public var green: UInt8
    /// Blue, 0 to 255.
    public var blue: UInt8

    /// Creates a colour from its sRGB components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}
