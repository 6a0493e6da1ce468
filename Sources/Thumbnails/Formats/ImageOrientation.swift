/// How a stored image must be turned to display upright: the eight values of the EXIF
/// `Orientation` tag (0x0112), named as `CGImagePropertyOrientation` names them.
public enum ImageOrientation: UInt16, CaseIterable, Hashable, Sendable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored across the top-left to bottom-right diagonal.
    case leftMirrored = 5
    /// 6: needs a 90° clockwise turn to display.
    case right = 6
    /// 7: mirrored across the top-right to bottom-left diagonal.
    case rightMirrored = 7
    /// 8: needs a 90° counter-clockwise turn to display.
    case left = 8

    /// Whether displaying the image swaps its width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }
}
