import FeedsTestSupport
import Foundation
import ImageFixtures
import ScrollworkTestSupport
import TerminalUI
import Testing
import Thumbnails
@testable import ScrollworkApp

@Suite("scrollwork view")
struct ViewCommandTests {
    private let scratch = ScratchDirectory("scrollwork-view")
    private var directory: URL { scratch.url }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func photo() throws -> String {
        try write(JPEGFixture.encode(pixels: PhotoPattern.pixels(width: 300, height: 200), width: 300, height: 200), "photo.jpeg")
    }

    @Test func theProtocolIsTheTerminalsUnlessOneIsNamed() throws {
        #expect(try ViewCommand.parse(["a.png"]).pictureProtocol == .auto)
        #expect(try ViewCommand.parse(["--protocol", "kitty", "a.png"]).resolvedProtocol().0 == .kitty)
        #expect(try ViewCommand.parse(["--protocol", "blocks", "a.png"]).resolvedProtocol().0 == .blocks)
        #expect(try ViewCommand.parse(["--protocol", "Sextants", "a.png"]).resolvedProtocol().0 == .sextants)
        // The settings' `image_mode` names, but none, which would draw nothing.
        for refused in ["none", "png"] {
            do {
                _ = try ViewCommand.parse(["--protocol", refused, "a.png"])
                Issue.record("--protocol \(refused) was taken")
            } catch {
                #expect(ViewCommand.message(for: error).contains("--protocol takes auto, blocks, sextants, sixel, kitty or iterm, not \(refused)"),
                        "\(ViewCommand.message(for: error))")
            }
        }
    }

    @Test func printsEachImageAsRowsOfHalfBlocksInTheColoursAskedFor() throws {
        let path = try photo()
        let result = try BuiltExecutable.run("scrollwork", ["view", path, path, "--width", "20", "--colors", "256"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        // 300 × 200 at 20 columns, cells twice as tall as wide: 20 × 6.7 cells, twice.
        #expect(lines.count == 14)
        for line in lines {
            #expect(line.filter { $0 == "▀" }.count == 20)
            #expect(line.hasSuffix("\u{1B}[m"))
            #expect(!line.contains("38;2;"), "256 colours only")
        }
    }

    @Test func printsWhatTheDecoderAndThePictureMake() throws {
        let path = try photo()
        let result = try BuiltExecutable.run("scrollwork", ["view", path, "--width", "24", "--height", "5", "--colors", "truecolor"])
        let command = try #require(try ViewCommand.parseAsRoot([path]) as? ViewCommand)
        let picture = try command.picture(of: path, box: (24, 5), cellSize: .assumed, decoder: ThumbnailDecoder())
        #expect((picture.columns, picture.rows) == (15, 5))
        var buffer = CellBuffer(columns: picture.columns, rows: picture.rows)
        buffer.draw(picture, row: 0, column: 0)
        #expect(result.standardOutput == buffer.inlineText(colorMode: .truecolor))
    }

    @Test func namesAFileItCannotShowShowsTheOthersAndExitsWithOne() throws {
        let path = try photo()
        let notAnImage = try write(Array("GIF89a".utf8), "not-an-image.gif")
        let missing = directory.appendingPathComponent("missing.png").path
        let result = try BuiltExecutable.run("scrollwork", ["view", notAnImage, path, missing, "--width", "10"])
        #expect(result.status == 1)
        #expect(result.error.contains("cannot decode \(notAnImage)"))
        #expect(result.error.contains("cannot read \(missing)"))
        #expect(result.output.split(separator: "\n").count == 3)
    }

    @Test func fetchesImagesAtWebAddressesAndNamesTheOnesItCannotHave() async throws {
        let jpeg = JPEGFixture.encode(pixels: PhotoPattern.pixels(width: 300, height: 200), width: 300, height: 200)
        let server = try await LoopbackHTTPServer.start { request, _ in
            request.path == "/photo.jpeg" ? .respond(status: 200, body: jpeg) : .text(404, "no such image")
        }
        let path = try photo()
        let (found, gone) = (server.url("/photo.jpeg").absoluteString, server.url("/gone.png").absoluteString)
        let result = try BuiltExecutable.run("scrollwork", ["view", found, gone, "--width", "12"])
        try await server.stop()
        #expect(result.status == 1)
        #expect(result.error.contains("cannot load \(gone)"))
        let local = try BuiltExecutable.run("scrollwork", ["view", path, "--width", "12"])
        #expect(result.standardOutput == local.standardOutput)
        #expect(!local.standardOutput.isEmpty)
    }

    @Test func drawsSextantsWhenAsked() throws {
        let path = try photo()

        let result = try BuiltExecutable.run("scrollwork", ["view", path, "--protocol", "sextants", "--width", "12", "--height", "4", "--colors", "truecolor"])

        #expect(result.status == 0, "\(result.error)")
        let text = String(decoding: result.standardOutput, as: UTF8.self)
        #expect(text.unicodeScalars.contains { (0x1FB00...0x1FB3B).contains($0.value) }, "\(text)")
        #expect(!text.contains("▀") && text.split(separator: "\n").count == 4)
    }

    @Test func drawsSixelAtTheBoxsPixelSizeWhenAsked() throws {
        let path = try photo()

        let result = try BuiltExecutable.run("scrollwork", ["view", path, "--protocol", "sixel", "--width", "12", "--height", "4"])

        #expect(result.status == 0, "\(result.error)")
        let image = try #require(SixelDecoder.decode(result.standardOutput))
        // Not a terminal: cells of 10 × 20 pixels, so 120 × 80 at most, the photo's 3:2 kept.
        #expect(image.width == 120 && image.height == 80, "\(image)")
        #expect(image[60, 40].alpha == 255)
        #expect(result.standardOutput.last == 0x0A)
    }

    @Test func drawsAKittyImagePlacedByIdWhenAsked() throws {
        let path = try photo()

        let result = try BuiltExecutable.run("scrollwork", ["view", path, path, "--protocol", "kitty", "--width", "12", "--height", "4"])

        #expect(result.status == 0, "\(result.error)")
        var terminal = InMemoryTerminal(columns: 40, rows: 20)
        terminal.apply(result.standardOutput)
        #expect(terminal.unsupported.isEmpty, "\(terminal.unsupported)")
        let commands = terminal.graphicsCommands.filter { $0.hasPrefix("a=") }
        // Each picture sent once under an id of its own, 120 × 80 pixels (cells of 10 × 20
        // when not a terminal), and placed over 12 × 4 cells; the cursor ends below both. The
        // ids are drawn at random above the reader's 1 to 255, so that a run never replaces
        // the pictures of an earlier one still on the screen.
        #expect(commands.count == 4, "\(commands)")
        #expect(terminal.kittyImages.count == 2 && terminal.kittyPlacements.count == 2)
        let ids = terminal.kittyPlacements.keys.map(\.image)
        #expect(ids.allSatisfy { $0 > 255 })
        #expect(terminal.kittyImages.values.allSatisfy { $0.width == 120 && $0.height == 80 })
        #expect(commands[1].hasSuffix(",p=1,c=12,r=4,C=1,q=2") && commands[3].hasSuffix(",p=1,c=12,r=4,C=1,q=2"))
        #expect(terminal.cursorRow == 8)
    }

    @Test func drawsInShadesWithoutColour() throws {
        let path = try photo()
        let result = try BuiltExecutable.run("scrollwork", ["view", path, "--width", "10"], environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        #expect(!result.output.contains("\u{1B}"))
        #expect(!result.output.contains("▀"))
        #expect(result.output.split(separator: "\n").allSatisfy { $0.count == 10 && $0.allSatisfy { " ░▒▓█".contains($0) } })
    }

    @Test func fitsTheTerminalOrEightyColumns() {
        #expect(ViewCommand.box(width: nil, height: nil, terminal: nil) == (80, Int(Int32.max)))
        #expect(ViewCommand.box(width: nil, height: nil, terminal: TerminalSize(columns: 120, rows: 40)) == (120, 39))
        #expect(ViewCommand.box(width: 40, height: nil, terminal: TerminalSize(columns: 120, rows: 40)) == (40, Int(Int32.max)))
        #expect(ViewCommand.box(width: nil, height: 10, terminal: TerminalSize(columns: 120, rows: 40)) == (120, 10))
    }

    @Test func rejectsSizesThatAreNotPositive() {
        #expect(throws: (any Error).self) { try ViewCommand.parseAsRoot(["a.png", "--width", "0"]) }
        #expect(throws: (any Error).self) { try ViewCommand.parseAsRoot(["a.png", "--colors", "8"]) }
    }
}
