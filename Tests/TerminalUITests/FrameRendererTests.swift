import SeededRandom
import Testing
import TerminalUI

@Suite struct FrameRendererTests {
    private func frame(_ lines: [String], columns: Int = 10, style: CellStyle = .plain) -> CellBuffer {
        var buffer = CellBuffer(columns: columns, rows: lines.count)
        for (row, line) in lines.enumerated() { buffer.write(line, row: row, column: 0, style: style) }
        return buffer
    }

    private func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).split(separator: "\u{1B}", omittingEmptySubsequences: false).joined(separator: "^[")
    }

    @Test func anUnchangedFrameWritesNothing() {
        var renderer = FrameRenderer()
        let first = frame(["hello", "world"])
        #expect(!renderer.render(first).isEmpty)
        #expect(renderer.render(first).isEmpty)
    }

    @Test func oneChangedCellIsOneMoveAndOneCharacter() {
        var renderer = FrameRenderer()
        _ = renderer.render(frame(["hello", "world"]))
        #expect(text(renderer.render(frame(["hello", "wOrld"]))) == "^[[4DO")
    }

    @Test func theFirstFrameClearsAndDrawsOnlyWhatIsNotBlank() {
        var renderer = FrameRenderer()
        #expect(text(renderer.render(frame(["ab", "", "  c"]))) == "^[[m^[[H^[[2Jab^[[2Bc")
    }

    @Test func changesSGROnlyWhereTheStyleChanges() {
        var renderer = FrameRenderer()
        var buffer = CellBuffer(columns: 10, rows: 1)
        buffer.write("red", row: 0, column: 0, style: CellStyle(foreground: .ansi(1)))
        buffer.write("bold", row: 0, column: 3, style: CellStyle(foreground: .ansi(1), attributes: .bold))
        buffer.write("x", row: 0, column: 7)
        #expect(text(renderer.render(buffer)) == "^[[m^[[H^[[2J^[[31mred^[[1mbold^[[mx")
    }

    @Test func writesColoursAsTheModeAllows() {
        var buffer = CellBuffer(columns: 2, rows: 1)
        buffer.write("x", row: 0, column: 0, style: CellStyle(foreground: .rgb(255, 0, 0), background: .rgb(0, 0, 255)))
        var truecolor = FrameRenderer(options: .init(colorMode: .truecolor))
        #expect(text(truecolor.render(buffer)).hasSuffix("^[[38;2;255;0;0;48;2;0;0;255mx"))
        var palette = FrameRenderer(options: .init(colorMode: .palette256))
        #expect(text(palette.render(buffer)).hasSuffix("^[[38;5;196;48;5;21mx"))
        var sixteen = FrameRenderer(options: .init(colorMode: .palette16))
        #expect(text(sixteen.render(buffer)).hasSuffix("^[[91;44mx"))
        var none = FrameRenderer(options: .init(colorMode: .none))
        #expect(text(none.render(buffer)).hasSuffix("^[[2Jx"))
    }

    @Test func aShiftedFrameScrollsARegionAndDrawsOnlyTheRowThatCameIn() {
        let lines = (0..<12).map { "row \($0)" }
        let header = "header"
        var renderer = FrameRenderer()
        _ = renderer.render(frame([header] + lines[0..<8] + ["footer"]))
        let bytes = renderer.render(frame([header] + lines[1..<9] + ["footer"]))
        #expect(text(bytes) == "^[[2;9r^[[S^[[r^[[8Brow 8")
        let back = renderer.render(frame([header] + lines[0..<8] + ["footer"]))
        #expect(text(back) == "^[[2;9r^[[T^[[r^[[Brow 0")
    }

    @Test func wrapsFramesInSynchronizedOutputWhenSupported() {
        var renderer = FrameRenderer(options: .init(synchronizedOutput: true))
        let bytes = text(renderer.render(frame(["a"])))
        #expect(bytes.hasPrefix("^[[?2026h") && bytes.hasSuffix("^[[?2026l"))
        #expect(renderer.render(frame(["a"])).isEmpty)
    }

    @Test func rewritesAShortGapRatherThanMovingOverIt() {
        var renderer = FrameRenderer()
        _ = renderer.render(frame(["abcdef"]))
        #expect(text(renderer.render(frame(["XbcdYf"]))) == "\rXbcdY")
        _ = renderer.render(frame(["abcdefghijklmn"], columns: 15))
        #expect(text(renderer.render(frame(["XbcdefghijklmY"], columns: 15))) == "\rX^[[12CY")
    }

    @Test func invalidatingRepaintsEverything() {
        var renderer = FrameRenderer()
        let buffer = frame(["a"])
        _ = renderer.render(buffer)
        renderer.invalidate()
        #expect(text(renderer.render(buffer)) == "^[[m^[[H^[[2Ja")
    }

    @Test func hostileTextReachesTheTerminalOnlyAsVisibleCharacters() {
        let hostile = "Hello \u{1B}]0;PWNED\u{7} \u{1B}[2J\u{9B}31m\u{1B}P+q\u{1B}\\ world"
        var buffer = CellBuffer(columns: 60, rows: 2)
        buffer.write(hostile, row: 0, column: 0)
        buffer.write(TextLayout.truncated(hostile, toWidth: 20), row: 1, column: 0)
        var renderer = FrameRenderer()
        var terminal = InMemoryTerminal(columns: 60, rows: 2)
        terminal.apply(renderer.render(buffer))
        #expect(terminal.unsupported.isEmpty)
        #expect(terminal.screen == buffer)
        let shown = terminal.screen.text(ofRow: 0)
        #expect(shown.hasPrefix("Hello ^[]0;PWNED^G ^[[2J\u{FFFD}31m^[P+q^[\\ world"))
    }

    /// The reported case, on a terminal that measures code point by code point as tmux 3.3a
    /// does: an excerpt of CJK and emoji sequences, then another post's article.
    @Test func clustersTerminalsMeasureDifferentlyLeaveNothingStaleAndStayOnTheirRow() {
        var renderer = FrameRenderer()
        var terminal = InMemoryTerminal(columns: 24, rows: 4, widths: .codePoints)
        // A row with something at its right end is not erased to the end: only what changed
        // is written, so whatever a terminal moved elsewhere would stay there.
        var excerpt = frame(["中文👨‍👩‍👧‍👦和🏳️‍🌈还有👍🏽中文字", "next row", "👍🏽👍🏽中x", "❤️ and 1️⃣ at the edge 👍🏽"], columns: 24)
        excerpt.write("|", row: 2, column: 23)
        terminal.apply(renderer.render(excerpt))
        #expect(firstUnsettledDifference(of: terminal.screen, from: excerpt) == nil)
        #expect(terminal.screen.text(ofRow: 1) == excerpt.text(ofRow: 1))
        var article = frame(["中文 is not stale here", "Another post's article", "hello", "中中中中中中中中中中中中"], columns: 24)
        article.write("|", row: 2, column: 23)
        terminal.apply(renderer.render(article))
        #expect(terminal.screen == article)
        #expect(terminal.unsupported.isEmpty)
    }

    @Test func anUnsettledClusterIsErasedUnderAndWhatFollowsItIsPlacedAbsolutely() {
        var renderer = FrameRenderer()
        _ = renderer.render(frame(["abcdefgh"]))
        #expect(text(renderer.render(frame(["ab❤️efgh"]))) == "^[[6D^[[2X❤️")
        // At the edge a wider reading could wrap: autowrap is off while it is written, and the
        // column it could cover is drawn again.
        #expect(text(renderer.render(frame(["ab❤️efg👍🏽"]))) == "^[[;8H^[[2X^[[?7l👍🏽^[[?7h^[[;10H ")
    }

    @Test func scrollingWritesATenthOfTheBytesOfARepaint() {
        var renderer = FrameRenderer()
        let lines = (0..<60).map { index in String(repeating: "\(index % 10)", count: 70) }
        _ = renderer.render(frame(Array(lines[0..<40]), columns: 80))
        let scrolled = frame(Array(lines[1..<41]), columns: 80)
        let bytes = renderer.render(scrolled)
        #expect(bytes.count * 10 <= FrameRenderer.repaintingEveryCell(scrolled, colorMode: .truecolor).count)
    }
}

/// The first cell of `frame` that `screen` does not show as every terminal would, if any: each
/// cluster that terminals measure alike must be in its columns, in its style, though a terminal
/// that measures code points may hold it in cells of its own (a flag as two letters); clusters
/// measured differently are left out.
private func firstUnsettledDifference(of screen: CellBuffer, from frame: CellBuffer) -> Int? {
    frame.cells.indices.first { index in
        let cell = frame.cells[index]
        guard cell.width != 0, let grapheme = cell.grapheme else { return false }
        let span = Int(cell.width)
        guard DisplayWidth.columnsTerminalsMayUse(grapheme) == span...span else { return false }
        let shown = screen.cells[index..<(index + span)]
        return shown.compactMap(\.grapheme).map(String.init).joined() != String(grapheme) || shown.contains { $0.style != cell.style }
    }
}

/// Random frame sequences through the in-memory terminal: after every frame the screen must
/// be exactly the frame drawn, or, on a terminal that measures code points, every settled cell
/// of it.
@Suite struct RendererFuzzTests {
    static let graphemes: [String] = [
        "a", "b", "Z", " ", ".", "é", "e\u{301}", "日", "本", "👍🏽", "🇫🇷", "▀", "—",
        "👨‍👩‍👧‍👦", "🏳️‍🌈", "❤️", "1️⃣", "का", "🏃‍♂️", "🇩",
    ]
    static let colors: [TerminalColor] = [.default, .ansi(1), .ansi(12), .indexed(100), .rgb(10, 200, 30), .rgb(250, 250, 250), .rgb(11, 200, 30)]

    static func style(_ random: inout SeededGenerator) -> CellStyle {
        CellStyle(
            foreground: colors.randomElement(using: &random)!,
            background: Int.random(in: 0..<3, using: &random) == 0 ? colors.randomElement(using: &random)! : .default,
            attributes: CellAttributes(rawValue: Int.random(in: 0..<4, using: &random) == 0 ? UInt8.random(in: 0..<64, using: &random) : 0)
        )
    }

    static func text(_ random: inout SeededGenerator, length: Int) -> String {
        (0..<length).map { _ in graphemes.randomElement(using: &random)! }.joined()
    }

    /// The next frame: the last one shifted (a list scrolling), written over, filled, or new.
    static func mutate(_ frame: CellBuffer, _ random: inout SeededGenerator) -> CellBuffer {
        var next = frame
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3:
            let top = Int.random(in: 0..<frame.rows, using: &random)
            let bottom = Int.random(in: top..<frame.rows, using: &random)
            let shift = Int.random(in: -3...3, using: &random)
            next = CellBuffer(columns: frame.columns, rows: frame.rows)
            for row in 0..<frame.rows {
                let source = (top...bottom).contains(row) ? row + shift : row
                if (top...bottom).contains(source) || !(top...bottom).contains(row) {
                    for column in 0..<frame.columns where frame[source, column].width != 0 {
                        let cell = frame[source, column]
                        if cell.width == 2 {
                            next.write(String(cell.grapheme!), row: row, column: column, style: cell.style)
                        } else {
                            next.set(cell, row: row, column: column)
                        }
                    }
                } else {
                    next.write(text(&random, length: frame.columns), row: row, column: 0, style: style(&random))
                }
            }
        case 4...7:
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                next.write(
                    text(&random, length: Int.random(in: 1...8, using: &random)),
                    row: Int.random(in: 0..<frame.rows, using: &random),
                    column: Int.random(in: 0..<frame.columns, using: &random),
                    style: style(&random)
                )
            }
        case 8:
            next.fill(
                row: Int.random(in: 0..<frame.rows, using: &random), column: Int.random(in: 0..<frame.columns, using: &random),
                width: Int.random(in: 1...frame.columns, using: &random), height: Int.random(in: 1...frame.rows, using: &random),
                with: Bool.random(using: &random) ? .blank : Cell("x", style: style(&random))
            )
        default:
            next = CellBuffer(columns: frame.columns, rows: frame.rows)
            for row in 0..<frame.rows where Bool.random(using: &random) {
                next.write(text(&random, length: frame.columns), row: row, column: 0, style: style(&random))
            }
        }
        return next
    }

    @Test(arguments: [InMemoryTerminal.Widths.clusters, .codePoints])
    func theScreenShowsEveryDrawnFrame(_ widths: InMemoryTerminal.Widths) {
        let seed = randomizedTestSeed()
        print("RendererFuzzTests \(widths): seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        for round in 0..<60 {
            let columns = Int.random(in: 1...24, using: &random)
            let rows = Int.random(in: 1...12, using: &random)
            let mode = [ColorMode.truecolor, .palette256, .palette16, .none].randomElement(using: &random)!
            let options = FrameRenderer.Options(colorMode: mode, synchronizedOutput: Bool.random(using: &random), scrollsRegions: Bool.random(using: &random))
            var renderer = FrameRenderer(options: options)
            var terminal = InMemoryTerminal(columns: columns, rows: rows, widths: widths)
            var frame = CellBuffer(columns: columns, rows: rows)
            for step in 0..<80 {
                frame = Self.mutate(frame, &random)
                let bytes = renderer.render(frame)
                // Split the bytes anywhere: the terminal must put sequences back together.
                let cut = Int.random(in: 0...bytes.count, using: &random)
                terminal.apply(Array(bytes[..<cut]))
                terminal.apply(Array(bytes[cut...]))
                let expected = frame.mapStyles(mode.resolve)
                let difference = switch widths {
                case .clusters: expected.cells.indices.first { terminal.screen.cells[$0] != expected.cells[$0] }
                case .codePoints: firstUnsettledDifference(of: terminal.screen, from: expected)
                }
                if let index = difference {
                    Issue.record("""
                        seed \(seed), \(widths), round \(round), step \(step), \(columns)x\(rows) \(options): at row \(index / columns), \
                        column \(index % columns) the screen shows \(terminal.screen.cells[index]), the frame \(expected.cells[index])
                        """)
                    return
                }
                #expect(terminal.unsupported.isEmpty, "seed \(seed): \(terminal.unsupported)")
                #expect(!terminal.isInSynchronizedUpdate)
            }
        }
    }
}
