import ImageFixtures

/// PNGs assembled here byte by byte, for image data libpng's encoder never writes: a chosen
/// filter on every row, IDAT chunks split anywhere, streams that end early or run on, bad
/// filter bytes. The image data are zlib streams of stored (uncompressed) blocks, so every
/// byte of the filtered rows is where a test puts it.
enum CraftedPNG {
    typealias Chunk = (type: String, data: [UInt8])

    /// Adam7: where each pass starts and how far apart its pixels are.
    static let adam7: [(x0: Int, y0: Int, dx: Int, dy: Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// The chunks of `png` after its signature.
    static func chunks(_ png: [UInt8]) -> [Chunk] {
        var chunks: [Chunk] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= png.count - offset - 12 else { break }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append((type, Array(png[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return chunks
    }

    /// A PNG of these chunks, each with its length and CRC.
    static func assemble(_ chunks: [Chunk]) -> [UInt8] {
        PNGChunks.signature + chunks.flatMap { PNGChunks.chunk($0.type, $0.data) }
    }

    /// `png` with its image data (every IDAT's, in order) cut into IDAT chunks of `size` bytes,
    /// the last one shorter.
    static func splittingImageData(_ png: [UInt8], every size: Int) -> [UInt8] {
        let chunks = chunks(png)
        let data = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        let pieces = stride(from: 0, to: data.count, by: size).map { Chunk("IDAT", Array(data[$0..<min($0 + size, data.count)])) }
        let first = chunks.firstIndex { $0.type == "IDAT" }!
        let last = chunks.lastIndex { $0.type == "IDAT" }!
        return assemble(Array(chunks[..<first]) + pieces + Array(chunks[(last + 1)...]))
    }

    /// A zlib stream of stored blocks holding `data`, with its Adler-32; with `final` false the
    /// last block does not say it is the last, and no checksum follows.
    static func storedZlib(_ data: [UInt8], blockSize: Int = 65535, final: Bool = true) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(blockSize, data.count - offset)
            let last = final && offset + length == data.count
            stream.append(last ? 1 : 0)
            stream += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            stream += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        if final {
            var a: UInt32 = 1
            var b: UInt32 = 0
            for byte in data {
                a = (a + UInt32(byte)) % 65521
                b = (b + a) % 65521
            }
            stream += bigEndian(b << 16 | a)
        }
        return stream
    }

    /// A PNG whose image data inflate to exactly `imageData` (filter bytes and all).
    static func make(
        width: Int, height: Int, colorType: PNGFixture.ColorType, bitDepth: Int, interlaced: Bool = false,
        imageData: [UInt8], palette: [UInt8] = [], transparency: [UInt8] = [], stream: (([UInt8]) -> [UInt8])? = nil
    ) -> [UInt8] {
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [UInt8(bitDepth), UInt8(colorType.rawValue), 0, 0, interlaced ? 1 : 0]
        var chunks: [Chunk] = [("IHDR", header)]
        if !palette.isEmpty { chunks.append(("PLTE", palette)) }
        if !transparency.isEmpty { chunks.append(("tRNS", transparency)) }
        chunks.append(("IDAT", (stream ?? { storedZlib($0) })(imageData)))
        chunks.append(("IEND", []))
        return assemble(chunks)
    }

    /// The image data of `samples` (as `PNGFixture.encode` takes them): each row, or each row
    /// of each Adam7 pass, packed and filtered with the next of `filters` (cycled).
    static func imageData(
        samples: [UInt16], width: Int, height: Int, colorType: PNGFixture.ColorType, bitDepth: Int, interlaced: Bool,
        filters: [UInt8]
    ) -> [UInt8] {
        let channels = colorType.channels
        let passes = interlaced ? adam7 : [(x0: 0, y0: 0, dx: 1, dy: 1)]
        var data: [UInt8] = []
        var row = 0
        for pass in passes {
            let columns = Array(stride(from: pass.x0, to: width, by: pass.dx))
            let lines = Array(stride(from: pass.y0, to: height, by: pass.dy))
            guard !columns.isEmpty, !lines.isEmpty else { continue }
            var passSamples: [UInt16] = []
            for y in lines {
                for x in columns { passSamples += samples[((y * width + x) * channels)..<((y * width + x + 1) * channels)] }
            }
            let packed = PNGFixture.packedRows(samples: passSamples, width: columns.count, height: lines.count, colorType: colorType, bitDepth: bitDepth)
            let rowBytes = PNGFixture.rowBytes(width: columns.count, colorType: colorType, bitDepth: bitDepth)
            let pixelBytes = max(1, channels * bitDepth / 8)
            var previous = [UInt8](repeating: 0, count: rowBytes)
            for line in 0..<lines.count {
                let current = Array(packed[(line * rowBytes)..<((line + 1) * rowBytes)])
                let filter = filters[row % filters.count]
                data.append(filter)
                data += Self.filter(current, previous: previous, type: filter, pixelBytes: pixelBytes)
                previous = current
                row += 1
            }
        }
        return data
    }

    /// One row filtered: each byte less its prediction from the byte a pixel to the left (a),
    /// the byte above (b) and the byte above that one (c).
    static func filter(_ row: [UInt8], previous: [UInt8], type: UInt8, pixelBytes: Int) -> [UInt8] {
        row.indices.map { index in
            let a = index >= pixelBytes ? Int(row[index - pixelBytes]) : 0
            let b = Int(previous[index])
            let c = index >= pixelBytes ? Int(previous[index - pixelBytes]) : 0
            let prediction: Int
            switch type {
            case 0: prediction = 0
            case 1: prediction = a
            case 2: prediction = b
            case 3: prediction = (a + b) / 2
            default:
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                prediction = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            }
            return UInt8(truncatingIfNeeded: Int(row[index]) - prediction)
        }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { PNGChunks.bigEndian(value) }
}
