/// Reduces an image to a smaller size as its rows stream in, by area averaging: each output
/// pixel is the mean of the source area it covers, with partly covered source pixels counted
/// by the fraction covered (a box filter), so fine detail averages out instead of aliasing.
///
/// Averaging weighs colour by alpha, so the colour of fully transparent pixels (often black
/// or garbage) does not bleed into their visible neighbours.
///
/// The arithmetic is exact: coverage is counted in integer units (a source pixel is
/// `targetWidth` units wide, an output pixel `sourceWidth`), sums are integers, and each output
/// value is the exact mean rounded half up. Rows are summed first, in the source's own layout
/// and channel count, elementwise over whole rows (loops the compiler vectorises); a source row
/// that lies wholly inside one output row is added without any multiplication. Only when an
/// output row is complete are its columns reduced, and only then are grey and palette pixels
/// expanded to RGBA.
///
/// Palette rows are the exception: their pixels are looked up one by one anyway, so a row is
/// first summed across into runs, the pixels lying wholly inside one output column making one
/// unweighted sum and each pixel straddling two output columns one of its own. The runs then
/// stand for source columns in everything after, so a row adds to about two sums per output
/// column rather than one per source pixel, and the lookups add up in registers.
///
/// Memory is the output plus about 24 bytes per source sample of one row (sums for the output
/// row being filled and the next; for a palette image, per run), whatever the source height.
/// When the target equals the source size the rows are copied, converted to RGBA.
struct AreaDownsampler {
    /// How one source row or column spreads over the one or two target rows or columns it
    /// overlaps, in units where a source pixel is `target` long and a target pixel `source`.
    /// `secondWeight` is zero when the source pixel lies wholly inside `first`.
    private struct Span: Equatable {
        var first: Int
        var second: Int
        var firstWeight: UInt64
        var secondWeight: UInt64
    }

    /// Premultiplied samples that can be summed before a 32-bit sum could overflow: a sample is
    /// at most 255 × 255, and 65,536 of them still fit.
    private static let samplesPerSum = 65_536
    /// The most palette pixels one run sums, so that the sums of many rows of runs still fit.
    private static let longestRun = 256

    let sourceWidth: Int
    let sourceHeight: Int
    let layout: PixelLayout
    private(set) var output: PixelBuffer
    /// Where each column of sums lands in the output: one per source column, or for `.indexed`
    /// one per run.
    private let columns: [Span]
    /// For `.indexed`, the source column just past each run, in order; empty otherwise.
    private let runEnds: [Int]
    private let rows: [Span]
    /// Sums per pixel: `layout.sumsPerPixel`.
    private let lanes: Int
    /// Palette entries premultiplied (red × alpha, green × alpha, blue × alpha, alpha), for
    /// `.indexed`; empty otherwise.
    private let premultipliedPalette: [SIMD4<UInt32>]
    /// Unweighted sums of the source rows lying wholly inside the current output row.
    private var interior: [UInt32]
    private var interiorRows = 0
    /// Rows summed into `interior` before it is folded into `current`, so it cannot overflow.
    private let interiorRowLimit: Int
    /// One source row's samples, premultiplied where the layout has alpha, before weighting.
    private var scratch: [UInt32]
    /// Weighted sums for the output row being filled, and for the one after it.
    private var current: [UInt64]
    private var next: [UInt64]
    /// How much of the output row being filled, and of the next, consumed rows have covered:
    /// an opaque layout's alpha, since it has no alpha sum.
    private var currentCoverage: UInt64 = 0
    private var nextCoverage: UInt64 = 0
    /// The current output row's sums per output column, while it is emitted.
    private var columnSums: [UInt64]
    private var currentRow = 0
    private(set) var rowsConsumed = 0

    /// A downsampler from `sourceWidth` × `sourceHeight` rows in `layout` to `targetWidth` ×
    /// `targetHeight` RGBA.
    ///
    /// - Precondition: The target is positive and no larger than the source on either side.
    init(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int, layout: PixelLayout = .rgba) {
        precondition(targetWidth > 0 && targetHeight > 0, "the target size must be positive")
        precondition(targetWidth <= sourceWidth && targetHeight <= sourceHeight, "area averaging only reduces")
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.layout = layout
        output = PixelBuffer(width: targetWidth, height: targetHeight)
        lanes = layout.sumsPerPixel
        let copies = targetWidth == sourceWidth && targetHeight == sourceHeight
        let sourceColumns = copies ? [] : Self.spans(source: sourceWidth, target: targetWidth)
        if case .indexed = layout, !copies {
            (columns, runEnds) = Self.runs(of: sourceColumns)
            interiorRowLimit = Self.samplesPerSum / Self.longestRun
        } else {
            (columns, runEnds) = (sourceColumns, [])
            interiorRowLimit = Self.samplesPerSum
        }
        rows = copies ? [] : Self.spans(source: sourceHeight, target: targetHeight)
        if case .indexed(let palette) = layout {
            premultipliedPalette = (0..<256).map { index in
                let alpha = UInt32(palette[4 * index + 3])
                return SIMD4(UInt32(palette[4 * index]) * alpha, UInt32(palette[4 * index + 1]) * alpha, UInt32(palette[4 * index + 2]) * alpha, alpha)
            }
        } else {
            premultipliedPalette = []
        }
        let samples = columns.count * lanes
        interior = [UInt32](repeating: 0, count: samples)
        scratch = interior
        current = [UInt64](repeating: 0, count: samples)
        next = current
        columnSums = [UInt64](repeating: 0, count: copies ? 0 : targetWidth * lanes)
    }

    /// Where each source pixel lands in target coordinates: at most two target pixels, since
    /// the target is never larger than the source.
    private static func spans(source: Int, target: Int) -> [Span] {
        (0..<source).map { index in
            let start = index * target
            let end = start + target
            let first = start / source
            let boundary = (first + 1) * source
            guard end > boundary else {
                return Span(first: first, second: first, firstWeight: UInt64(target), secondWeight: 0)
            }
            return Span(first: first, second: first + 1, firstWeight: UInt64(boundary - start), secondWeight: UInt64(end - boundary))
        }
    }

    /// Groups source columns into runs of equal spans, each run at most `longestRun` long: the
    /// columns wholly inside one output column, or one column straddling two.
    private static func runs(of columns: [Span]) -> (spans: [Span], ends: [Int]) {
        var spans: [Span] = []
        var ends: [Int] = []
        var length = 0
        for (index, column) in columns.enumerated() {
            if column.secondWeight == 0, column == spans.last, length < longestRun {
                ends[ends.count - 1] = index + 1
                length += 1
            } else {
                spans.append(column)
                ends.append(index + 1)
                length = 1
            }
        }
        return (spans, ends)
    }

    /// Adds `count` source rows in `layout`, `stride` bytes apart, starting at `pixels`.
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
    /// - Complexity: O(rows never consumed + the output).
    mutating func finish() -> PixelBuffer {
        while rowsConsumed < sourceHeight {
            if !columns.isEmpty { reduce(nil) }
            rowsConsumed += 1
        }
        return output
    }

    private mutating func copy(_ source: UnsafePointer<UInt8>) {
        let start = rowsConsumed * output.bytesPerRow
        let layout = layout
        output.bytes.withUnsafeMutableBufferPointer { bytes in
            for x in 0..<sourceWidth {
                (bytes[start + 4 * x], bytes[start + 4 * x + 1], bytes[start + 4 * x + 2], bytes[start + 4 * x + 3]) = layout.rgba(source, x)
            }
        }
    }

    /// Adds one source row, or accounts for a missing one (`nil`), which adds nothing.
    private mutating func reduce(_ source: UnsafePointer<UInt8>?) {
        let span = rows[rowsConsumed]
        while currentRow < span.first { emitCurrentRow() }
        if let source {
            if span.secondWeight == 0 {
                Self.addSamples(source, layout: layout, width: sourceWidth, palette: premultipliedPalette, runEnds: runEnds, to: &interior)
                interiorRows += 1
                if interiorRows == interiorRowLimit { foldInterior() }
            } else {
                scratch.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
                Self.addSamples(source, layout: layout, width: sourceWidth, palette: premultipliedPalette, runEnds: runEnds, to: &scratch)
                Self.add(scratch, weight: span.firstWeight, to: &current)
                Self.add(scratch, weight: span.secondWeight, to: &next)
            }
            currentCoverage += span.firstWeight
            nextCoverage += span.secondWeight
        }
        if rowsConsumed == sourceHeight - 1 {
            while currentRow < output.height { emitCurrentRow() }
        }
    }

    /// Adds one row's samples to `sums`, premultiplied by alpha where the layout has alpha, and
    /// palette pixels summed in runs. Static, so that the caller's sums are modified in place
    /// rather than copied from a borrowed `self`.
    private static func addSamples(
        _ source: UnsafePointer<UInt8>, layout: PixelLayout, width: Int, palette: [SIMD4<UInt32>], runEnds: [Int], to sums: inout [UInt32]
    ) {
        let lanes = layout.sumsPerPixel
        sums.withUnsafeMutableBufferPointer { sums in
            let sums = sums.baseAddress!
            switch layout {
            case .rgb, .gray:
                for index in 0..<(width * lanes) { sums[index] &+= UInt32(source[index]) }
            case .rgba:
                for x in 0..<width {
                    let alpha = UInt16(source[4 * x + 3])
                    sums[4 * x] &+= UInt32(UInt16(source[4 * x]) &* alpha)
                    sums[4 * x + 1] &+= UInt32(UInt16(source[4 * x + 1]) &* alpha)
                    sums[4 * x + 2] &+= UInt32(UInt16(source[4 * x + 2]) &* alpha)
                    sums[4 * x + 3] &+= UInt32(alpha)
                }
            case .indexed:
                palette.withUnsafeBufferPointer { palette in
                    runEnds.withUnsafeBufferPointer { runEnds in
                        let vectors = UnsafeMutableRawPointer(sums)
                        var x = 0
                        for run in 0..<runEnds.count {
                            var sum = vectors.loadUnaligned(fromByteOffset: 16 * run, as: SIMD4<UInt32>.self)
                            let end = runEnds[run]
                            while x < end {
                                sum &+= palette[Int(source[x])]
                                x += 1
                            }
                            vectors.storeBytes(of: sum, toByteOffset: 16 * run, as: SIMD4<UInt32>.self)
                        }
                    }
                }
            }
        }
    }

    private static func add(_ samples: [UInt32], weight: UInt64, to sums: inout [UInt64]) {
        guard weight > 0 else { return }
        samples.withUnsafeBufferPointer { samples in
            sums.withUnsafeMutableBufferPointer { sums in
                for index in 0..<samples.count { sums[index] &+= weight &* UInt64(samples[index]) }
            }
        }
    }

    /// Moves the unweighted sums into the weighted ones: every interior row weighs a whole
    /// source row, `output.height` units.
    private mutating func foldInterior() {
        Self.add(interior, weight: UInt64(output.height), to: &current)
        interior.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        interiorRows = 0
    }

    /// Reduces the current output row's columns, writes it out un-premultiplied and rounded
    /// half up, and moves on to the next.
    private mutating func emitCurrentRow() {
        if interiorRows > 0 { foldInterior() }
        current.withUnsafeBufferPointer { sums in
            columns.withUnsafeBufferPointer { columns in
                columnSums.withUnsafeMutableBufferPointer { columnSums in
                    switch lanes {
                    case 4: Self.reduceColumns(sums, columns: columns, lanes: 4, into: columnSums)
                    case 3: Self.reduceColumns(sums, columns: columns, lanes: 3, into: columnSums)
                    default: Self.reduceColumns(sums, columns: columns, lanes: 1, into: columnSums)
                    }
                }
            }
        }
        writeRow()
        swap(&current, &next)
        next.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        currentCoverage = nextCoverage
        nextCoverage = 0
        currentRow += 1
    }

    /// Weighs the sums of each source column into the output columns it overlaps. The columns
    /// come in order, so each output column is summed in registers and stored once, with the
    /// share of a straddling source column carried into the next; a column wholly inside one
    /// output column is added unweighted and the total multiplied once.
    @inline(__always)
    private static func reduceColumns(
        _ sums: UnsafeBufferPointer<UInt64>, columns: UnsafeBufferPointer<Span>, lanes: Int, into columnSums: UnsafeMutableBufferPointer<UInt64>
    ) {
        let fullWeight = columns[0].firstWeight + columns[0].secondWeight
        var column = 0
        var whole = SIMD4<UInt64>.zero
        var sum = SIMD4<UInt64>.zero
        var carried = SIMD4<UInt64>.zero
        func store() {
            let total = sum &+ whole &* fullWeight
            for lane in 0..<lanes { columnSums[column * lanes + lane] = total[lane] }
        }
        for x in 0..<columns.count {
            let span = columns[x]
            if span.first != column {
                store()
                column = span.first
                whole = .zero
                sum = carried
                carried = .zero
            }
            var samples = SIMD4<UInt64>.zero
            for lane in 0..<lanes { samples[lane] = sums[x * lanes + lane] }
            if span.secondWeight == 0 {
                whole &+= samples
            } else {
                sum &+= samples &* span.firstWeight
                carried &+= samples &* span.secondWeight
            }
        }
        store()
    }

    /// Writes `columnSums` as output row `currentRow`. The weights of one output pixel add up
    /// to `sourceWidth × sourceHeight` units, so that is the divisor of a mean.
    private mutating func writeRow() {
        let start = currentRow * output.bytesPerRow
        let area = UInt64(sourceWidth) * UInt64(sourceHeight)
        let lanes = lanes
        let premultiplied = lanes == 4
        // An opaque layout's alpha is the covered share of the row, its colour the mean over it.
        let covered = UInt64(sourceWidth) * currentCoverage
        let opaqueAlpha = Self.rounded(255 * currentCoverage, over: UInt64(sourceHeight))
        columnSums.withUnsafeBufferPointer { sums in
            output.bytes.withUnsafeMutableBufferPointer { bytes in
                for x in 0..<output.width {
                    let target = start + 4 * x
                    if premultiplied {
                        let alpha = sums[4 * x + 3]
                        bytes[target + 3] = Self.rounded(alpha, over: area)
                        // Nothing visible: transparent black rather than a division by zero.
                        guard alpha > 0 else { continue }
                        for channel in 0..<3 { bytes[target + channel] = Self.rounded(sums[4 * x + channel], over: alpha) }
                    } else {
                        guard covered > 0 else { continue }
                        for channel in 0..<3 { bytes[target + channel] = Self.rounded(sums[x * lanes + min(channel, lanes - 1)], over: covered) }
                        bytes[target + 3] = opaqueAlpha
                    }
                }
            }
        }
    }

    /// `value / divisor` rounded half up, at most 255.
    private static func rounded(_ value: UInt64, over divisor: UInt64) -> UInt8 {
        UInt8(min(255, (2 * value + divisor) / (2 * divisor)))
    }
}
