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
    /// How one source row or column spreads over the one or two target rows or columns it overlaps.
    private struct Span {
        var first: Int
        var firstWeight: Float
        var secondWeight: Float
    }

    let sourceWidth: Int
    let sourceHeight: Int
    private(set) var output: PixelBuffer
    private let columns: [Span]
    private let rows: [Span]
    /// The current source row, reduced horizontally: premultiplied red, green, blue, and alpha.
    private var reducedRow: [Float]
    /// Sums for the target row being filled, and for the one after it.
    private var current: [Float]
    private var next: [Float]
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
        let accumulators = copies ? 0 : targetWidth * 4
        reducedRow = [Float](repeating: 0, count: accumulators)
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
            let boundary = Double(first + 1)
            guard end > boundary, first + 1 < target else {
                return Span(first: first, firstWeight: Float(end - start), secondWeight: 0)
            }
            return Span(first: first, firstWeight: Float(boundary - start), secondWeight: Float(end - boundary))
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

    private static func reduceHorizontally(_ source: UnsafePointer<UInt8>, columns: UnsafeBufferPointer<Span>, into reduced: UnsafeMutableBufferPointer<Float>) {
        reduced.update(repeating: 0)
        for (column, span) in columns.enumerated() {
            let pixel = source + column * 4
            let alpha = Float(pixel[3])
            let red = Float(pixel[0]) * alpha
            let green = Float(pixel[1]) * alpha
            let blue = Float(pixel[2]) * alpha
            let first = span.first * 4
            let weight = span.firstWeight
            reduced[first] += red * weight
            reduced[first + 1] += green * weight
            reduced[first + 2] += blue * weight
            reduced[first + 3] += alpha * weight
            let second = span.secondWeight
            if second > 0 {
                reduced[first + 4] += red * second
                reduced[first + 5] += green * second
                reduced[first + 6] += blue * second
                reduced[first + 7] += alpha * second
            }
        }
    }

    private static func add(_ row: [Float], weight: Float, to sums: inout [Float]) {
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
                for pixel in 0..<output.width {
                    let sum = pixel * 4
                    let alpha = sums[sum + 3]
                    let target = start + pixel * 4
                    guard alpha > 0 else {
                        bytes[target] = 0
                        bytes[target + 1] = 0
                        bytes[target + 2] = 0
                        bytes[target + 3] = 0
                        continue
                    }
                    bytes[target] = Self.byte(sums[sum] / alpha)
                    bytes[target + 1] = Self.byte(sums[sum + 1] / alpha)
                    bytes[target + 2] = Self.byte(sums[sum + 2] / alpha)
                    bytes[target + 3] = Self.byte(alpha)
                }
            }
        }
        swap(&current, &next)
        next.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        currentRow += 1
    }

    private static func byte(_ value: Float) -> UInt8 {
        UInt8(min(255, max(0, value + 0.5)))
    }
}
