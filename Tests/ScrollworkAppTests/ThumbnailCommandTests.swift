import ArgumentParser
import Foundation
import ImageFixtures
import Testing
import Thumbnails
@testable import ScrollworkApp

@Suite("scrollwork thumbnail")
struct ThumbnailCommandTests {
    /// A fresh directory with a 300x200 JPEG in it, removed by `cleanUp`.
    struct Scratch {
        let directory: URL
        let jpeg: [UInt8]

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollwork-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            jpeg = JPEGFixture.encode(pixels: PhotoPattern.pixels(width: 300, height: 200), width: 300, height: 200)
            try Data(jpeg).write(to: url("photo.jpeg"))
        }

        func path(_ name: String) -> String { url(name).path }
        func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
        func read(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(name))) }
        func cleanUp() { try? FileManager.default.removeItem(at: directory) }
    }

    static func command(_ arguments: [String]) throws -> ThumbnailCommand {
        try #require(try ThumbnailCommand.parseAsRoot(arguments) as? ThumbnailCommand)
    }

    static func header(width: Int, height: Int) -> [UInt8] {
        Array("P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
    }

    @Test func writesTheThumbnailAsPAM() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }

        try Self.command([scratch.path("photo.jpeg"), "--size", "60", "--out", scratch.path("thumb.pam")]).run()

        let written = try scratch.read("thumb.pam")
        let expected = try ThumbnailDecoder().decode(scratch.jpeg, maxPixelSize: 60)
        #expect(expected.width == 60 && expected.height == 40)
        #expect(written == Self.header(width: 60, height: 40) + expected.bytes)
    }

    @Test(arguments: [[], ["--size", "0"]])
    func keepsTheFullSizeWithoutASize(sizeArguments: [String]) throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }

        try Self.command([scratch.path("photo.jpeg"), "--out", scratch.path("full.pam")] + sizeArguments).run()

        let written = try scratch.read("full.pam")
        #expect(written.starts(with: Self.header(width: 300, height: 200)))
        #expect(written.count == Self.header(width: 300, height: 200).count + 300 * 200 * 4)
    }

    @Test func namesTheFileWhenItCannotBeDecoded() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        try Data("GIF89a, not really".utf8).write(to: scratch.url("image.png"))
        let command = try Self.command([scratch.path("image.png"), "--out", scratch.path("out.pam")])

        #expect(throws: ExitCode(1)) { try command.run() }
        #expect {
            try command.makeThumbnail(decoder: ThumbnailDecoder())
        } throws: { error in
            String(describing: error) == "cannot decode \(scratch.path("image.png")): unsupported format: GIF"
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.pam")))
    }

    @Test func namesTheFileWhenItCannotBeRead() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let command = try Self.command([scratch.path("missing.jpeg"), "--out", scratch.path("out.pam")])

        #expect(throws: ExitCode(1)) { try command.run() }
        #expect {
            try command.makeThumbnail(decoder: ThumbnailDecoder())
        } throws: { error in
            String(describing: error) == "cannot read \(scratch.path("missing.jpeg")): No such file or directory"
        }
    }

    @Test func rejectsANegativeSize() {
        #expect(throws: (any Error).self) {
            try ThumbnailCommand.parseAsRoot(["photo.jpeg", "--size=-1", "--out", "out.pam"])
        }
    }
}
