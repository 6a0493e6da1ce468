import ImageFixtures
import Testing
import Thumbnails

@Suite("EXIF orientation")
struct OrientationTests {
    static let red = RGBA(red: 230, green: 20, blue: 20)
    static let green = RGBA(red: 20, green: 230, blue: 20)
    static let blue = RGBA(red: 20, green: 20, blue: 230)
    static let white = RGBA(red: 240, green: 240, blue: 240)

    /// A 32x16 JPEG stored as four 16x8 quadrants: red, green on top; blue, white below.
    static let quadrants: [UInt8] = {
        var rgb: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<32 {
                let pixel = y < 8 ? (x < 16 ? red : green) : (x < 16 ? blue : white)
                rgb += [pixel.red, pixel.green, pixel.blue]
            }
        }
        return JPEGFixture.encode(pixels: rgb, width: 32, height: 16, quality: 95)
    }()

    /// What each orientation shows, quadrants listed top-left, top-right, bottom-left,
    /// bottom-right, as the EXIF specification defines them for stored `[A B; C D]`.
    static let expectations: [(ImageOrientation, [RGBA])] = [
        (.up, [red, green, blue, white]),
        (.upMirrored, [green, red, white, blue]),
        (.down, [white, blue, green, red]),
        (.downMirrored, [blue, white, red, green]),
        (.leftMirrored, [red, blue, green, white]),
        (.right, [blue, red, white, green]),
        (.rightMirrored, [white, green, blue, red]),
        (.left, [green, white, red, blue]),
    ]

    static func quadrantCentres(_ image: PixelBuffer) -> [RGBA] {
        let (halfWidth, halfHeight) = (image.width / 2, image.height / 2)
        return [(0, 0), (1, 0), (0, 1), (1, 1)].map { column, row in
            image[column * halfWidth + halfWidth / 2, row * halfHeight + halfHeight / 2]
        }
    }

    static func close(_ left: RGBA, _ right: RGBA) -> Bool {
        abs(Int(left.red) - Int(right.red)) <= 12 && abs(Int(left.green) - Int(right.green)) <= 12 && abs(Int(left.blue) - Int(right.blue)) <= 12
    }

    @Test(arguments: expectations.indices, [true, false])
    func appliesEveryOrientation(index: Int, bigEndian: Bool) throws {
        let (orientation, expected) = Self.expectations[index]
        let jpeg = JPEGFixture.insertingExifOrientation(orientation.rawValue, into: Self.quadrants, bigEndian: bigEndian)

        let image = try ThumbnailDecoder().decode(jpeg, maxPixelSize: nil)

        #expect(image.width == (orientation.swapsDimensions ? 16 : 32))
        #expect(image.height == (orientation.swapsDimensions ? 32 : 16))
        let centres = Self.quadrantCentres(image)
        for (found, wanted) in zip(centres, expected) {
            #expect(Self.close(found, wanted), "\(orientation): found \(centres)")
        }
    }

    @Test func appliesOrientationAfterDownsampling() throws {
        let jpeg = JPEGFixture.insertingExifOrientation(ImageOrientation.right.rawValue, into: Self.quadrants)

        let image = try ThumbnailDecoder().decode(jpeg, maxPixelSize: 8)

        #expect(image.width == 4 && image.height == 8)
        #expect(Self.close(image[1, 1], Self.blue) && Self.close(image[2, 6], Self.green))
    }

    @Test(arguments: [UInt16(0), 9, 0xFFFF])
    func ignoresOrientationValuesOutsideTheSpecification(value: UInt16) throws {
        let jpeg = JPEGFixture.insertingExifOrientation(value, into: Self.quadrants)

        let image = try ThumbnailDecoder().decode(jpeg, maxPixelSize: nil)

        #expect(image.width == 32 && Self.close(Self.quadrantCentres(image)[0], Self.red))
    }

    /// The quadrants as a PNG: exact colours.
    static let quadrantsPNG: [UInt8] = {
        var rgba: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<32 {
                let pixel = y < 8 ? (x < 16 ? red : green) : (x < 16 ? blue : white)
                rgba += [pixel.red, pixel.green, pixel.blue, 255]
            }
        }
        return PNGFixture.encode(rgba: rgba, width: 32, height: 16)
    }()

    @Test(arguments: expectations.indices, [false, true])
    func appliesAPNGsExifOrientationBeforeOrAfterItsImageData(index: Int, afterImageData: Bool) throws {
        let (orientation, expected) = Self.expectations[index]
        let png = PNGChunks.insertingExifOrientation(orientation.rawValue, into: Self.quadrantsPNG, bigEndian: index % 2 == 0, afterImageData: afterImageData)

        let image = try ThumbnailDecoder().decode(png, maxPixelSize: nil)

        #expect(image.width == (orientation.swapsDimensions ? 16 : 32))
        #expect(Self.quadrantCentres(image) == expected, "\(orientation)")
    }

    @Test func aDamagedEXIfChunkIsIgnored() throws {
        var png = PNGChunks.insertingExifOrientation(6, into: Self.quadrantsPNG)
        // The IFD offset points past the chunk.
        png[33 + 8 + 4] = 0x7F
        png = CRC32.repairingChunks(png)

        let image = try ThumbnailDecoder().decode(png, maxPixelSize: nil)

        #expect(image.width == 32 && Self.quadrantCentres(image)[0] == Self.red)
    }
}
