import Thumbnails

/// Resizes an image by area averaging in linear light: each output pixel is the mean of the
/// light its area of the source sends, weighted by alpha, with partly covered source pixels
/// counted by the fraction covered. Works both ways, so a small image is enlarged with hard
/// edges instead of blurred.
///
/// Averaging encoded sRGB values instead would darken every edge between light and dark (the
/// mean of black and white would be sRGB 128, which sends a fifth of the light, not half).
enum LinearAreaResampler {
    /// One source pixel's share of a target pixel along one axis.
    private struct Contribution {
        var source: Int
        var weight: Float
    }

    /// `image` resized to `width` × `height`: straight linear-light red, green, blue, and alpha
    /// (0 to 1), row by row.
    ///
    /// - Complexity: O(source pixels × target width / source width + target pixels × source
    ///   height / target height), about one pass over the source.
    static func resample(_ image: PixelBuffer, width: Int, height: Int) -> [SIMD4<Float>] {
        let columns = contributions(source: image.width, target: width)
        let rows = contributions(source: image.height, target: height)
        let linear = SRGB.linearTable
        // Each source row reduced to the target width: premultiplied linear colour and alpha.
        var reduced = [SIMD4<Float>](repeating: .zero, count: image.height * width)
        image.bytes.withUnsafeBufferPointer { bytes in
            for y in 0..<image.height {
                let row = y * image.bytesPerRow
                for x in 0..<width {
                    var sum = SIMD4<Float>.zero
                    for contribution in columns[x] {
                        let offset = row + contribution.source * 4
                        let alpha = Float(bytes[offset + 3]) / 255
                        let pixel = SIMD4<Float>(linear[Int(bytes[offset])], linear[Int(bytes[offset + 1])], linear[Int(bytes[offset + 2])], 1) * alpha
                        sum += pixel * contribution.weight
                    }
                    reduced[y * width + x] = sum
                }
            }
        }
        var output = [SIMD4<Float>](repeating: .zero, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var sum = SIMD4<Float>.zero
                for contribution in rows[y] { sum += reduced[contribution.source * width + x] * contribution.weight }
                let alpha = sum.w
                output[y * width + x] = alpha > 0 ? SIMD4(sum.x / alpha, sum.y / alpha, sum.z / alpha, alpha) : .zero
            }
        }
        return output
    }

    /// For each target index, the source indices its interval covers and by how much,
    /// normalised to sum to 1.
    private static func contributions(source: Int, target: Int) -> [[Contribution]] {
        let scale = Double(source) / Double(target)
        return (0..<target).map { index in
            let start = Double(index) * scale
            let end = Double(index + 1) * scale
            var list: [Contribution] = []
            var pixel = Int(start)
            while Double(pixel) < end && pixel < source {
                let overlap = min(end, Double(pixel + 1)) - max(start, Double(pixel))
                if overlap > 1e-9 { list.append(Contribution(source: pixel, weight: Float(overlap / scale))) }
                pixel += 1
            }
            return list
        }
    }
}
