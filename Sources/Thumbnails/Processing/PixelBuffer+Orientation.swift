extension PixelBuffer {
    /// This image turned upright for display, given how it is stored.
    ///
    /// Orientations 5 to 8 swap width and height. The result is tightly packed.
    /// - Complexity: O(`width` × `height`).
    public func oriented(_ orientation: ImageOrientation) -> PixelBuffer {
        if orientation == .up { return self }
        let targetWidth = orientation.swapsDimensions ? height : width
        let targetHeight = orientation.swapsDimensions ? width : height
        var result = PixelBuffer(width: targetWidth, height: targetHeight)
        let lastX = width - 1
        let lastY = height - 1
        bytes.withUnsafeBytes { source in
            result.bytes.withUnsafeMutableBytes { target in
                for y in 0..<targetHeight {
                    for x in 0..<targetWidth {
                        // The stored pixel that shows at display position (x, y).
                        let (sourceX, sourceY): (Int, Int) = switch orientation {
                        case .up: (x, y)
                        case .upMirrored: (lastX - x, y)
                        case .down: (lastX - x, lastY - y)
                        case .downMirrored: (x, lastY - y)
                        case .leftMirrored: (y, x)
                        case .right: (y, lastY - x)
                        case .rightMirrored: (lastX - y, lastY - x)
                        case .left: (lastX - y, x)
                        }
                        let pixel = source.loadUnaligned(fromByteOffset: sourceY * bytesPerRow + sourceX * 4, as: UInt32.self)
                        target.storeBytes(of: pixel, toByteOffset: (y * targetWidth + x) * 4, as: UInt32.self)
                    }
                }
            }
        }
        return result
    }
}
