import Foundation
import ScrollworkTestSupport
import Testing

/// The benchmarks are an executable of their own, `scrollwork-bench`, so the shipped reader
/// carries none of them; `scrollwork bench …` runs the one built beside it.
@Suite struct BenchLauncherTests {
    let scratch = ScratchDirectory("scrollwork-bench-launcher")

    @Test func benchRunsTheBenchmarksExecutableWithEveryArgument() throws {
        let result = try BuiltExecutable.run("scrollwork", ["bench", "diff", "--help"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Time ListDiff against the standard library"), "\(result.output)")
        #expect(result.output.contains("USAGE: scrollwork-bench diff"), "\(result.output)")
    }

    @Test func badUsageOfABenchmarkExitsWithStatusTwo() throws {
        let result = try BuiltExecutable.run("scrollwork", ["bench", "no-such-benchmark"])
        #expect(result.status == 2, "\(result.output) \(result.error)")
        #expect(result.error.contains("no-such-benchmark"), "\(result.error)")
    }

    @Test func aReaderWithoutTheBenchmarksBesideItSaysHowToBuildThem() throws {
        let alone = scratch.url.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        let copy = alone.appendingPathComponent("scrollwork")
        // Copied through a descriptor closed on exec: a child that another test starts while the
        // copy is being written must not inherit it, or running the copy fails with "text file busy".
        let bytes = try Data(contentsOf: try BuiltExecutable.url(named: "scrollwork"), options: .alwaysMapped)
        let descriptor = open(copy.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        try #require(descriptor >= 0)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        try #require(written == bytes.count)

        let child = Process()
        child.executableURL = copy
        child.arguments = ["bench", "diff"]
        let error = Pipe()
        child.standardError = error
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()

        #expect(child.terminationStatus == 1, "\(message)")
        #expect(message.contains("scrollwork-bench, which is not beside this one (\(alone.path))"), "\(message)")
        #expect(message.contains("swift build -c release --product scrollwork-bench"), "\(message)")
    }

    #if os(Linux)
    /// No code of the benchmarks, the simulation or their peers' harnesses is linked into the
    /// reader (DESIGN.md: the app links what the reader and the commands need).
    @Test func theReaderLinksNoBenchmarkCode() throws {
        let nm = Process()
        nm.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        nm.arguments = ["nm", "--defined-only", try BuiltExecutable.url(named: "scrollwork").path]
        let output = Pipe()
        nm.standardOutput = output
        nm.standardError = FileHandle.nullDevice
        try nm.run()
        let symbols = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nm.waitUntilExit()
        try #require(nm.terminationStatus == 0, "nm (Debian binutils) could not read scrollwork")

        // Swift's mangled names start with the module's name and its length.
        func linked(_ module: String) -> Bool { symbols.contains("$s\(module.utf8.count)\(module)") }
        #expect(linked("ScrollworkReader"), "the reader itself is there")
        for module in ["ScrollworkBench", "ScrollSimulation"] {
            #expect(!linked(module), "\(module) is linked into scrollwork")
        }
    }
    #endif
}
