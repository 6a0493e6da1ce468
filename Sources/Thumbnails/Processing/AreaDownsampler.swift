/// Reduces an image to a smaller size as its rows stream in, by area averaging: each output
/// pixel is the mean of the source area it covers, with partly covered source pixels counted
/// by the fraction covered (a box filter), so fine detail averages out instead of aliasing.
///
/// Averaging weighs colour by alpha, so the colour of fully transparent pixels (often black
/// or garbage) does not bleed into their visible neighbours.
///
/// Memory is the output plus three rows of `targetWidth` accumulators, whatever the source
/// size. When the target equals the source size the rows are copied unchanged.
struct AreaDownsampler {
    /// How one source row or column spreads over the one or two target rows or columns it
    /// overlaps. `second` is always a valid index, with weight zero when there is no overlap,
    /// so the inner loop has no branch.
    private struct Span {
        var first: Int
        var second: Int
        var firstWeight: Float
        var secondWeight: Float
    }

    let sourceWidth: Int
    let sourceHeight: Int
    private(set) var output: PixelBuffer
    private let columns: [Span]
    private let rows: [Span]
    /// The current source row, reduced horizontally: premultiplied red, green, blue, and alpha.
    private var reducedRow: [SIMD4<Float>]
    /// Sums for the target row being filled, and for the one after it.
    private var current: [SIMD4<Float>]
    private var next: [SIMD4<Float>]
    private var currentRow = 0
    private(set) var rowsConsumed = 0

    /// A downsampler from `sourceWidth` × `sourceHeight` to `targetWidth` × `targetHeight`.
    ///
    /// - Precondition: The target is positive and no larger than the source on either side.
    init(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int) {
        precondition(targetWidth > 0 && targetHeight > 0, "the target size must be positive")
        precondition(targetWidth <= sourceWidth && targetHeight <= sourceHeight, "area averaging only reduces")
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        output = PixelBuffer(width: targetWidth, height: targetHeight)
        let copies = targetWidth == sourceWidth && targetHeight == sourceHeight
        columns = copies ? [] : Self.spans(source: sourceWidth, target: targetWidth)
        rows = copies ? [] : Self.spans(source: sourceHeight, target: targetHeight)
        reducedRow = [SIMD4<Float>](repeating: .zero, count: copies ? 0 : targetWidth)
        current = reducedRow
        next = reducedRow
    }

    /// Where each source pixel lands in target coordinates, which are `target / source` as
    /// wide: at most two target pixels, since the target is never larger than the source.
    private static func spans(source: Int, target: Int) -> [Span] {
        let scale = Double(target) / Double(source)
        return (0..<source).map { index in
            let start = Double(index) * scale
            let end = Double(index + 1) * scale
            let first = min(Int(start), target - 1)
            let second = min(first + 1, target - 1)
            let boundary = Double(first + 1)
            guard end > boundary, second > first else {
                return Span(first: first, second: second, firstWeight: Float(end - start), secondWeight: 0)
            }
            return Span(first: first, second: second, firstWeight: Float(boundary - start), secondWeight: Float(end - boundary))
        }
    }

    /// Adds `count` source rows of RGBA8 pixels, `stride` bytes apart, starting at `pixels`.
    ///
    /// - Precondition: No more rows than the source has in total.
    /// - Complexity: O(`count` × `sourceWidth`).
    mutating func consume(_ pixels: UnsafePointer<UInt8>, stride: Int, count: Int) {
        precondition(rowsConsumed + count <= sourceHeight, "more rows than the source has")
        for row in 0..<count {
            let source = pixels + row * stride
            if columns.isEmpty {
                copy(source)
            } else {
                reduce(source)
            }
            rowsConsumed += 1
        }
    }

    /// The finished image; source rows never consumed (a partial image) count as transparent.
    ///
    /// - Complexity: O(rows never consumed × `sourceWidth`).
    mutating func finish() -> PixelBuffer {
        let transparent = [UInt8](repeating: 0, count: sourceWidth * 4)
        transparent.withUnsafeBufferPointer { row in
            while rowsConsumed < sourceHeight {
                consume(row.baseAddress!, stride: 0, count: 1)
            }
        }
        return output
    }

    private mutating func copy(_ source: UnsafePointer<UInt8>) {
        let rowBytes = sourceWidth * 4
        let start = rowsConsumed * output.bytesPerRow
        output.bytes.withUnsafeMutableBufferPointer { bytes in
            (bytes.baseAddress! + start).update(from: source, count: rowBytes)
        }
    }

    private mutating func reduce(_ source: UnsafePointer<UInt8>) {
        let span = rows[rowsConsumed]
        while currentRow < span.first { emitCurrentRow() }
        reducedRow.withUnsafeMutableBufferPointer { reduced in
            columns.withUnsafeBufferPointer { columns in
                Self.reduceHorizontally(source, columns: columns, into: reduced)
            }
        }
        Self.add(reducedRow, weight: span.firstWeight, to: &current)
        if span.secondWeight > 0 { Self.add(reducedRow, weight: span.secondWeight, to: &next) }
        if rowsConsumed == sourceHeight - 1 {
            while currentRow < output.height { emitCurrentRow() }
        }
    }

    private static func reduceHorizontally(_ source: UnsafePointer<UInt8>, columns: UnsafeBufferPointer<Span>, into reduced: UnsafeMutableBufferPointer<SIMD4<Float>>) {
        reduced.update(repeating: .zero)
        let bytes = UnsafeRawPointer(source)
        for column in 0..<columns.count {
            let span = columns[column]
            let pixel = SIMD4<Float>(bytes.loadUnaligned(fromByteOffset: column * 4, as: SIMD4<UInt8>.self))
            let alpha = pixel[3]
            let premultiplied = pixel * SIMD4(alpha, alpha, alpha, 1)
            reduced[span.first] += premultiplied * span.firstWeight
            reduced[span.second] += premultiplied * span.secondWeight
        }
    }

    private static func add(_ row: [SIMD4<Float>], weight: Float, to sums: inout [SIMD4<Float>]) {
        row.withUnsafeBufferPointer { row in
            sums.withUnsafeMutableBufferPointer { sums in
                for index in 0..<row.count { sums[index] += row[index] * weight }
            }
        }
    }

    /// Writes the current target row out, un-premultiplied, and moves on to the next.
    private mutating func emitCurrentRow() {
        let start = currentRow * output.bytesPerRow
        current.withUnsafeBufferPointer { sums in
            output.bytes.withUnsafeMutableBufferPointer { bytes in
                for pixel in 0..<sums.count {
                    let sum = sums[pixel]
                    let alpha = sum[3]
                    let target = start + pixel * 4
                    // Nothing visible: transparent black rather than a division by zero.
                    let colour = alpha > 0 ? sum / SIMD4(alpha, alpha, alpha, 1) : .zero
                    bytes[target] = Self.byte(colour[0])
                    bytes[target + 1] = Self.byte(colour[1])
                    bytes[target + 2] = Self.byte(colour[2])
                    bytes[target + 3] = Self.byte(colour[3])
                }
            }
        }
        swap(&current, &next)
        next.withUnsafeMutableBufferPointer { $0.update(repeating: .zero) }
        currentRow += 1
    }

    private static func byte(_ value: Float) -> UInt8 {
        UInt8(min(255, max(0, value + 0.5)))
    }
}
