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
        // Inside tmux, whose answers are its own: blocks, said where the terminal outside
        // draws pictures.
        let tmux = "/tmp/tmux-0/default,1,0"
        #expect(PictureMode.resolve(.auto, capabilities: Self.kittyAnswers, environment: ["TMUX": tmux]) == (.blocks, nil))
        let (mode, notice) = PictureMode.resolve(.auto, capabilities: Self.plainAnswers, environment: ["TMUX": tmux, "KITTY_WINDOW_ID": "1"])
        #expect(mode == .blocks && notice?.contains("inside tmux") == true)
    }

    @Test func aModeAskedForIsHonouredOrSaidToBeImpossible() {
        #expect(PictureMode.resolve(.kitty, capabilities: Self.plainAnswers, environment: [:])
            == (.kitty(cellPixels: PictureMode.assumedCellPixels, throughTmux: false), nil))
        // kitty pictures placed at the cursor would land elsewhere through tmux: blocks, said.
        #expect(PictureMode.resolve(.kitty, capabilities: Self.plainAnswers, environment: ["TMUX": "x"]).mode == .blocks)
        #expect(PictureMode.resolve(.kitty, capabilities: Self.plainAnswers, environment: ["TMUX": "x"]).notice != nil)
        #expect(PictureMode.resolve(.blocks, capabilities: nil, environment: ["TERM": "xterm-kitty"]) == (.blocks, nil))
        #expect(PictureMode.resolve(.none, capabilities: Self.kittyAnswers, environment: [:]) == (.none, nil))
        #expect(PictureMode.resolve(.sixel, capabilities: nil, environment: [:]) == (.sixel(cellPixels: PictureMode.assumedCellPixels), nil))
        #expect(PictureMode.resolve(.iterm, capabilities: nil, environment: [:]) == (.iterm(cellPixels: PictureMode.assumedCellPixels), nil))
        // WezTerm says so in its environment, and draws iTerm2 images.
        #expect(PictureMode.resolve(.auto, capabilities: Self.plainAnswers, environment: ["TERM_PROGRAM": "WezTerm"]).mode
            == .iterm(cellPixels: PictureMode.assumedCellPixels))
    }
}
