import TerminalUI
import Testing
@testable import ScrollworkReader

/// What `image_mode` and the terminal's answers make of the reader's pictures.
@Suite struct PictureModeTests {
    static let kittyAnswers = TerminalCapabilities(cellPixelSize: CellPixelSize(width: 9, height: 18), kittyGraphics: true, answered: true)
    static let plainAnswers = TerminalCapabilities(answered: true)

    @Test func autoDrawsKittyGraphicsWhereTheTerminalAnswersForThemElseBlocks() {
        #expect(PictureMode.resolve(.auto, capabilities: Self.kittyAnswers, environment: [:])
            == (.kitty(cellPixels: CellPixelSize(width: 9, height: 18), throughTmux: false), nil))
        #expect(PictureMode.resolve(.auto, capabilities: Self.plainAnswers, environment: [:]) == (.blocks, nil))
        let xterm = TerminalCapabilities(cellPixelSize: CellPixelSize(width: 6, height: 13), sixel: true, terminalVersion: "XTerm(379)", answered: true)
        #expect(PictureMode.resolve(.auto, capabilities: xterm, environment: [:]) == (.sixel(cellPixels: CellPixelSize(width: 6, height: 13)), nil))
        // No answer: the environment decides, and a kitty that does not say its cell size is
        // taken to have 10 × 20 pixel cells.
        #expect(PictureMode.resolve(.auto, capabilities: TerminalCapabilities(), environment: ["TERM": "xterm-kitty"])
            == (.kitty(cellPixels: PictureMode.assumedCellPixels, throughTmux: false), nil))
        // Inside tmux, whose answers are its own: blocks.
        #expect(PictureMode.resolve(.auto, capabilities: Self.kittyAnswers, environment: ["TMUX": "/tmp/tmux-0/default,1,0"]).mode == .blocks)
    }

    @Test func aModeAskedForIsHonouredOrSaidToBeImpossible() {
        #expect(PictureMode.resolve(.kitty, capabilities: Self.plainAnswers, environment: ["TMUX": "x"])
            == (.kitty(cellPixels: PictureMode.assumedCellPixels, throughTmux: true), nil))
        #expect(PictureMode.resolve(.blocks, capabilities: nil, environment: ["TERM": "xterm-kitty"]) == (.blocks, nil))
        #expect(PictureMode.resolve(.none, capabilities: Self.kittyAnswers, environment: [:]) == (.none, nil))
        #expect(PictureMode.resolve(.sixel, capabilities: nil, environment: [:]) == (.sixel(cellPixels: PictureMode.assumedCellPixels), nil))
        let (iterm, notice) = PictureMode.resolve(.iterm, capabilities: nil, environment: [:])
        #expect(iterm == .blocks)
        #expect(notice?.contains("image_mode = \"iterm\"") == true)
    }
}
