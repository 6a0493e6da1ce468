import Foundation
import ImageFixtures
import ScrollworkTestSupport
import Testing

/// The README's first command must build and run on a fresh machine of this project's kind,
/// which has only the machine image's libraries: anything else (ISA-L) is opened at run time
/// where it exists, never linked.
@Suite struct FreshMachineTests {
    let scratch = ScratchDirectory("scrollwork-fresh-machine")

    /// The shared libraries outside the Swift toolchain that `scrollwork` may need: each comes
    /// from a Debian package of the machine image (libpng16-16, libjpeg62-turbo, libxml2,
    /// libsqlite3-0, zlib1g, libc6, libstdc++6, libgcc-s1).
    static let imageLibraries: Set<String> = [
        "libpng16.so.16", "libjpeg.so.62", "libxml2.so.2", "libsqlite3.so.0", "libz.so.1",
        "libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libutil.so.1",
        "libstdc++.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
    ]

    /// Libraries the Swift toolchain ships next to its compiler.
    static func isSwiftRuntime(_ name: String) -> Bool {
        ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "lib_Testing", "libXCTest", "libTesting"]
            .contains { name.hasPrefix($0) }
    }

    #if os(Linux)
    /// What `tool` (readelf or nm, Debian binutils) prints with `option` on the built `scrollwork`.
    static func binutils(_ tool: String, _ option: String) throws -> String {
        let executable = try BuiltExecutable.url(named: "scrollwork")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool, option, executable.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(tool) (Debian binutils) could not read \(executable.path)")
        return text
    }

    @Test func theExecutableNeedsOnlyTheMachineImagesLibraries() throws {
        let text = try Self.binutils("readelf", "--dynamic")

        // Lines like: 0x0000000000000001 (NEEDED)  Shared library: [libpng16.so.16]
        let needed = text.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line -> String? in
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        #expect(needed.contains("libpng16.so.16"), "\(needed)")
        #expect(!needed.contains { $0.hasPrefix("libisal") }, "ISA-L is linked: \(needed)")
        #expect(!needed.contains { $0.hasPrefix("libxml2") }, "libxml2 is linked, so every launch loads it and ICU: \(needed)")
        // Built under a sanitizer (Scripts/sanitize.sh), its runtime needs glibc's resolver too.
        let sanitizerRuntime: Set<String> = ProcessInfo.processInfo.environment["SCROLLWORK_SANITIZE"] == nil ? [] : ["libresolv.so.2"]
        let foreign = needed.filter { !Self.imageLibraries.contains($0) && !Self.isSwiftRuntime($0) && !sanitizerRuntime.contains($0) }
        #expect(foreign.isEmpty, "needs libraries the machine image lacks: \(foreign)")
    }

    /// The functions the commands and the reader run are laid out together at the start of the
    /// code, in the order of `Scripts/symbols.order` (Package.swift gives it to lld): the
    /// first fifty of its names the executable defines come first, in that order. Without the
    /// order their places are the object files', and a refresh held 12.9 MB of code resident
    /// instead of 6.7 (README, `bench feed`). Most of the list must still name functions of
    /// the executable: lld skips the others without a word, and the memory comes back. A
    /// sanitizer's build is linked without the list.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SCROLLWORK_SANITIZE"] == nil, "a sanitizer's build is linked without the list"))
    func theFunctionsThatRunLieTogetherInTheOrderOfTheList() throws {
        let list = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/symbols.order")
        let listed = try String(contentsOf: list, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        let text = try Self.binutils("nm", "--defined-only")

        // Lines like: 00000000008eb440 t swift_getAssociatedTypeWitness
        var addresses: [String: UInt64] = [:]
        var functions: [UInt64] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 3, "tTwW".contains(fields[1]), let address = UInt64(fields[0], radix: 16) else { continue }
            addresses[String(fields[2])] = address
            functions.append(address)
        }
        let defined = listed.filter { addresses[$0] != nil }.count
        #expect(defined * 10 >= listed.count * 8, "the executable defines \(defined) of the list's \(listed.count) functions: run Scripts/order-symbols.sh")
        let first = listed.compactMap { addresses[$0] }.prefix(50)
        try #require(first.count == 50, "the executable defines \(first.count) of the list's \(listed.count) functions")
        let outOfOrder = zip(first, first.dropFirst()).filter { $0.0 >= $0.1 }.count
        #expect(outOfOrder == 0, "\(outOfOrder) of the list's first 50 functions lie before the one listed before them")
        // Before all but a few of the executable's functions.
        let before = functions.filter { $0 < first.last! }.count
        #expect(before < functions.count / 100, "\(before) of \(functions.count) functions lie before the list's fiftieth")
    }

    /// libxml2 (and the ICU and liblzma it brings) is loaded when something is first parsed,
    /// not at launch: glibc's loader names every library it loads (`LD_DEBUG=libs`).
    @Test func libxml2IsLoadedOnlyByAParseThatNeedsIt() throws {
        let feed = scratch.path("feed.xml")
        try Data("<rss version=\"2.0\"><channel><title>T</title><item><title>One</title></item></channel></rss>".utf8).write(to: feed)
        // A doctype is libxml2's to read.
        let declared = scratch.path("declared.xml")
        try Data("<!DOCTYPE rss><rss version=\"2.0\"><channel><title>T</title><item><title>Two</title></item></channel></rss>".utf8).write(to: declared)
        var environment = ProcessInfo.processInfo.environment
        environment["LD_DEBUG"] = "libs"
        environment["HOME"] = scratch.path("home").path
        environment["XDG_CONFIG_HOME"] = scratch.path("config").path

        let listing = try BuiltExecutable.run("scrollwork", ["list", "--data-dir", scratch.path("data").path], environment: environment)
        let parsing = try BuiltExecutable.run("scrollwork", ["parse", feed.path], environment: environment)
        let handingOff = try BuiltExecutable.run("scrollwork", ["parse", declared.path], environment: environment)

        #expect(listing.error.contains("libsqlite3"), "the loader's report is missing: \(listing.error.suffix(2_000))")
        #expect(!listing.error.contains("libxml2"), "a launch that parses nothing loaded libxml2")
        // The scanner reads a well-formed UTF-8 feed without it.
        #expect(parsing.status == 0, "\(parsing.error.suffix(2_000))")
        #expect(parsing.output.contains("One"))
        #expect(!parsing.error.contains("libxml2"), "a feed the scanner reads loaded libxml2")
        #expect(handingOff.status == 0, "\(handingOff.error.suffix(2_000))")
        #expect(handingOff.output.contains("Two"))
        #expect(handingOff.error.contains("libxml2.so.2"), "the parse did not load libxml2 as the loader reports it")
    }
    #endif

    @Test func aThumbnailIsTheSameWithISALHidden() throws {
        let png = scratch.path("photo.png")
        try Data(PNGFixture.encode(rgb: PhotoPattern.pixels(width: 400, height: 300), width: 400, height: 300)).write(to: png)
        var environment = ProcessInfo.processInfo.environment
        environment["SCROLLWORK_INFLATE"] = "zlib"

        let hidden = try BuiltExecutable.run("scrollwork", ["thumbnail", png.path, "--size", "64", "--out", scratch.path("zlib.pam").path], environment: environment)
        let found = try BuiltExecutable.run("scrollwork", ["thumbnail", png.path, "--size", "64", "--out", scratch.path("fastest.pam").path])

        #expect(hidden.status == 0, "\(hidden.error)")
        #expect(found.status == 0, "\(found.error)")
        #expect(try Data(contentsOf: scratch.path("zlib.pam")) == Data(contentsOf: scratch.path("fastest.pam")))
    }
}
