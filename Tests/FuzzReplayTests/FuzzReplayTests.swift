import FeedsFuzzing
import Foundation
import FuzzSupport
import ReaderFuzzing
import SyncFuzzing
import TerminalFuzzing
import Testing
import ThumbnailsFuzzing

/// Every fuzz target's check over every input kept in its corpus (`Fuzz/Corpus/TARGET`): the
/// seeds made from the tests' inputs and what the fuzzer found that reached new code. Run in
/// the normal build, without sanitizers, so that a change that breaks an invariant on any kept
/// input fails here, in CI, before anyone fuzzes again. The crashes the fuzzer found are tests
/// of their own, beside the code they broke.
@Suite struct FuzzReplayTests {
    static let targets: [FuzzTarget] = FeedsFuzzTargets.all + TerminalFuzzTargets.all + ThumbnailsFuzzTargets.all
        + SyncFuzzTargets.all + ReaderFuzzTargets.all

    static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    @Test(arguments: targets.map(\.name))
    func corpusReplays(_ name: String) throws {
        let target = try #require(Self.targets.first { $0.name == name })
        let folder = Self.fuzzFolder.appendingPathComponent("Corpus").appendingPathComponent(name)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!files.isEmpty, "\(name) has no corpus in \(folder.path)")
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
            do {
                try target.check(bytes)
            } catch {
                Issue.record("\(name), input \(file): \(error.description)")
            }
        }
    }

    /// Every target has its libFuzzer executable (`Fuzz/Targets/NAME`) and every executable a
    /// target, so that the script and CI fuzz what the suite replays.
    @Test func everyTargetHasItsExecutable() throws {
        let executables = try FileManager.default.contentsOfDirectory(atPath: Self.fuzzFolder.appendingPathComponent("Targets").path)
        #expect(Set(executables) == Set(Self.targets.map(\.name)))
        #expect(Set(Self.targets.map(\.name)).count == Self.targets.count)
    }

    /// The pieces an input is cut into cover it, in order, each of 1 to 64 bytes, the same every
    /// time.
    @Test func piecesCoverTheInput() {
        for count in [0, 1, 7, 64, 1000] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let pieces = FuzzPieces.split(bytes)
            #expect(pieces.flatMap { $0 } == bytes)
            #expect(pieces.allSatisfy { (1...64).contains($0.count) })
            #expect(FuzzPieces.split(bytes).map(\.startIndex) == pieces.map(\.startIndex))
        }
    }

    /// A broken invariant is a finding: text with ESC in a title.
    @Test func terminalHazardsAreFound() {
        #expect(FuzzInvariants.terminalHazard(in: "a\u{1B}]0;x", singleLine: true) != nil)
        #expect(FuzzInvariants.terminalHazard(in: "a\u{9B}b", singleLine: false) != nil)
        #expect(FuzzInvariants.terminalHazard(in: "a\u{202E}b", singleLine: true) != nil)
        #expect(FuzzInvariants.terminalHazard(in: "a\u{202E}b\tc\n", singleLine: false) == nil)
    }
}
