import Testing
import TerminalUI

@Suite struct ColorTests {
    @Test func detectsTheModeFromTheEnvironment() {
        #expect(ColorMode.detect(environment: ["COLORTERM": "truecolor"]) == .truecolor)
        #expect(ColorMode.detect(environment: ["COLORTERM": "24bit", "TERM": "xterm"]) == .truecolor)
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color"]) == .palette256)
        #expect(ColorMode.detect(environment: ["TERM": "xterm"]) == .palette16)
        #expect(ColorMode.detect(environment: ["COLORTERM": "truecolor", "NO_COLOR": "1"]) == ColorMode.none)
        #expect(ColorMode.detect(environment: ["COLORTERM": "truecolor", "NO_COLOR": ""]) == .truecolor)
    }

    @Test func paletteColoursMapToThemselves() {
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        for (r, red) in levels.enumerated() {
            for (g, green) in levels.enumerated() {
                for (b, blue) in levels.enumerated() {
                    #expect(ColorMode.palette256.resolve(.rgb(red, green, blue)) == .indexed(UInt8(16 + 36 * r + 6 * g + b)))
                }
            }
        }
        #expect(ColorMode.palette256.resolve(.rgb(128, 128, 128)) == .indexed(244))
        #expect(ColorMode.palette16.resolve(.rgb(255, 0, 0)) == .ansi(9))
        #expect(ColorMode.palette16.resolve(.rgb(10, 10, 10)) == .ansi(0))
        #expect(ColorMode.palette16.resolve(.indexed(196)) == .ansi(9))
    }

    @Test func quantisesToTheNearestEntryInOKLab() {
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        var palette: [(UInt8, OKLab)] = []
        for (r, red) in levels.enumerated() {
            for (g, green) in levels.enumerated() {
                for (b, blue) in levels.enumerated() {
                    palette.append((UInt8(16 + 36 * r + 6 * g + b), OKLab(RGB(red: red, green: green, blue: blue))))
                }
            }
        }
        for step in 0..<24 {
            let grey = UInt8(8 + 10 * step)
            palette.append((UInt8(232 + step), OKLab(RGB(red: grey, green: grey, blue: grey))))
        }
        let steps = stride(from: 0, through: 255, by: 15).map(UInt8.init)
        let colors = steps.flatMap { red in steps.flatMap { green in steps.map { RGB(red: red, green: green, blue: $0) } } }
        for color in colors {
            guard case .indexed(let index) = ColorMode.palette256.resolve(.rgb(color.red, color.green, color.blue)) else {
                Issue.record("\(color) did not become a palette index")
                continue
            }
            let lab = OKLab(color)
            let best = palette.map { $0.1.squaredDistance(to: lab) }.min()!
            #expect(palette.first { $0.0 == index }!.1.squaredDistance(to: lab) == best, "\(color)")
        }
    }

    /// A dark violet is nearer, by RGB distance, to the grey 237 (58, 58, 58) than to the dark
    /// blue 17 (0, 0, 95); by eye, and in OKLab, it is blue.
    @Test func perceptualDistanceKeepsHueWhereRGBDistanceLosesIt() {
        #expect(ColorMode.palette256.resolve(.rgb(40, 30, 90)) == .indexed(17))
    }

    @Test func noColorDropsEveryColourButKeepsAttributes() {
        let style = CellStyle(foreground: .rgb(1, 2, 3), background: .ansi(4), attributes: .bold)
        #expect(ColorMode.none.resolve(style) == CellStyle(attributes: .bold))
        #expect(ColorMode.truecolor.resolve(style) == style)
    }
}
