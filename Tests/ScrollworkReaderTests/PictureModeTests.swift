import TerminalUI
import Testing
@testable import ScrollworkReader

/// What `image_mode` and the terminal's answers make of the reader's pictures.
@Suite struct PictureModeTests {
    static let kittyAnswers = TerminalCapabilities(cellPixelSize: CellPixelSize(width: 9, height: 18), kittyGraphics: true, answered: true)
    static let plainAnswers = TerminalCapabilities(answered: true)

    @Test func autoDrawsKittyGraphicsWhereTheTerminalAnswersForThemElseBlocks() {
        #expect(PictureMode.resolve(.auto, capabilities: Self.kittyAnswers, environment: [:])
            == (.kitty(cellPixels: CellPixelSize(width: 9, height: 18), placing: .direct), nil))
        #expect(PictureMode.resolve(.auto, capabilities: Self.plainAnswers, environment: [:]) == (.blocks, nil))
        let xterm = TerminalCapabilities(cellPixelSize: CellPixelSize(width: 6, height: 13), sixel: true, terminalVersion: "XTerm(379)", answered: true)
        #expect(PictureMode.resolve(.auto, capabilities: xterm, environment: [:]) == (.sixel(cellPixels: CellPixelSize(width: 6, height: 13)), nil))
        // No answer: the environment decides, and a kitty that does not say its cell size is
        // taken to have 10 × 20 pixel cells.
        #expect(PictureMode.resolve(.auto, capabilities: TerminalCapabilities(), environment: ["TERM": "xterm-kitty"])
            == (.kitty(cellPixels: PictureMode.assumedCellPixels, placing: .direct), nil))
        // Inside tmux, whose answers are its own: blocks, said where the terminal outside
        // draws pictures.
        let tmux = "/tmp/tmux-0/default,1,0"
        #expect(PictureMode.resolve(.auto, capabilities: Self.kittyAnswers, environment: ["TMUX": tmux]) == (.blocks, nil))
        var asked = Self.plainAnswers
        asked.askedOutside = true
        let (mode, notice) = PictureMode.resolve(.auto, capabilities: asked, environment: ["TMUX": tmux, "KITTY_WINDOW_ID": "1"])
        #expect(mode == .blocks && notice?.contains("allow-passthrough") == true)
        // Not asked (a pane behind): nothing is known to be wrong with the settings.
        #expect(PictureMode.resolve(.auto, capabilities: Self.plainAnswers, environment: ["TMUX": tmux, "KITTY_WINDOW_ID": "1"]) == (.blocks, nil))
    }

    @Test func aModeAskedForIsHonouredOrSaidToBeImpossible() {
        #expect(PictureMode.resolve(.always(.kitty), capabilities: Self.plainAnswers, environment: [:])
            == (.kitty(cellPixels: PictureMode.assumedCellPixels, placing: .direct), nil))
        // Through tmux, kitty pictures asked for are placeholders, the only ones that stay in
        // the pane, their images sent through tmux's passthrough.
        #expect(PictureMode.resolve(.always(.kitty), capabilities: Self.plainAnswers, environment: ["TMUX": "x"])
            == (.kitty(cellPixels: PictureMode.assumedCellPixels, placing: .placeholders(throughTmux: true)), nil))
        #expect(PictureMode.resolve(.always(.blocks), capabilities: nil, environment: ["TERM": "xterm-kitty"]) == (.blocks, nil))
        #expect(PictureMode.resolve(.always(.none), capabilities: Self.kittyAnswers, environment: [:]) == (.none, nil))
        #expect(PictureMode.resolve(.always(.sixel), capabilities: nil, environment: [:]) == (.sixel(cellPixels: PictureMode.assumedCellPixels), nil))
        #expect(PictureMode.resolve(.always(.iterm), capabilities: nil, environment: [:]) == (.iterm(cellPixels: PictureMode.assumedCellPixels), nil))
        // WezTerm says so in its environment, and draws iTerm2 images.
        #expect(PictureMode.resolve(.auto, capabilities: Self.plainAnswers, environment: ["TERM_PROGRAM": "WezTerm"]).mode
            == .iterm(cellPixels: PictureMode.assumedCellPixels))
    }

    @Test func kittyPicturesArePlaceholdersWhereTheTerminalsVersionHasThemAndDirectElsewhere() {
        var answers = Self.kittyAnswers
        answers.terminalVersion = "kitty(0.26.5)"
        #expect(PictureMode.resolve(.auto, capabilities: answers, environment: [:]).mode
            == .kitty(cellPixels: CellPixelSize(width: 9, height: 18), placing: .direct))
        for version in ["kitty(0.28.0)", "kitty(0.35.2)", "kitty(1.0.0)", "ghostty 1.1.3"] {
            answers.terminalVersion = version
            #expect(PictureMode.resolve(.auto, capabilities: answers, environment: [:]).mode
                == .kitty(cellPixels: CellPixelSize(width: 9, height: 18), placing: .placeholders(throughTmux: false)), "\(version)")
        }
        for version in ["kitty(0.27.1)", "WezTerm 20240203-110809-5046fc22", "kitty", "XTerm(379)"] {
            #expect(!TerminalCapabilities.hasUnicodePlaceholders(version: version), "\(version)")
        }
    }

    @Test func insideTmuxTheTerminalOutsideDecidesThroughThePassthrough() {
        let tmux = ["TMUX": "/tmp/tmux-0/default,1,0"]
        // tmux's own answers: no passthrough came back.
        let tmuxOnly = TerminalCapabilities(terminalVersion: "tmux 3.3a", answered: true)
        #expect(PictureMode.resolve(.auto, capabilities: tmuxOnly, environment: tmux) == (.blocks, nil))
        // A kitty with placeholders outside: placeholders, in its cell size, images through tmux.
        var answers = tmuxOnly
        answers.outer = .init(kittyGraphics: true, terminalVersion: "kitty(0.31.0)", cellPixelSize: CellPixelSize(width: 8, height: 17))
        #expect(PictureMode.resolve(.auto, capabilities: answers, environment: tmux)
            == (.kitty(cellPixels: CellPixelSize(width: 8, height: 17), placing: .placeholders(throughTmux: true)), nil))
        // Debian 12's kitty, which has none: blocks, and the notice says why.
        answers.outer?.terminalVersion = "kitty(0.26.5)"
        let (mode, notice) = PictureMode.resolve(.auto, capabilities: answers, environment: tmux)
        #expect(mode == .blocks)
        #expect(notice?.contains("kitty(0.26.5)") == true && notice?.contains("Unicode placeholders") == true, "\(notice ?? "")")
        #expect(PictureProtocol.detect(answers, environment: tmux).reason.contains("no Unicode placeholders"))
        // An outer terminal with no kitty graphics (xterm): blocks, nothing to say.
        answers.outer = .init(kittyGraphics: false, terminalVersion: "XTerm(379)")
        #expect(PictureMode.resolve(.auto, capabilities: answers, environment: tmux) == (.blocks, nil))
    }
}
