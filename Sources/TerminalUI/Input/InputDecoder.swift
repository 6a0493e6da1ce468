/// Turns the bytes a terminal sends into ``InputEvent``s.
///
/// Bytes may arrive in any pieces: a UTF-8 character or an escape sequence split across reads
/// is put back together. What cannot be decoded is dropped, and decoding resumes at the next
/// byte that can start something, so garbage never swallows the keys after it: a sequence
/// broken by a byte that cannot belong to it ends before that byte, one longer than
/// ``maxSequenceLength`` is dropped, and an unknown one is dropped whole.
///
/// Escape is both a key and the first byte of every sequence. A lone `ESC` is held until more
/// bytes arrive or ``escapeTimeout`` passes; then ``flush(at:)`` delivers it as the Escape key
/// (and `ESC [` as Alt+[). Time is passed in, never read, so tests need no waiting: the caller
/// reads with a timeout of ``deadline`` and calls ``flush(at:)`` when it passes.
///
/// Bracketed paste (`ESC [ 200 ~` … `ESC [ 201 ~`) is one ``InputEvent/paste(_:)``, its
/// contents never decoded as keys. A paste never times out, since a large one may arrive
/// slowly, but is delivered when it reaches ``maxPasteLength`` bytes so that a missing end
/// cannot capture the keyboard for good.
public struct InputDecoder: Sendable {
    /// How long a lone `ESC` waits for the rest of a sequence. Terminals send a sequence in one
    /// write, so its bytes arrive together even over SSH; 50 ms is far longer than that and
    /// short enough that Escape feels immediate.
    public var escapeTimeout: Duration
    /// The longest escape sequence accepted, in bytes.
    public var maxSequenceLength: Int
    /// The most bytes a paste collects before it is delivered regardless. Its text holds at
    /// most as many characters; a byte that is not UTF-8 is U+FFFD, three bytes of UTF-8.
    public var maxPasteLength: Int

    private var pending: [UInt8] = []
    private var lastArrival: ContinuousClock.Instant?
    private var paste: [UInt8]?
    /// Set after an over-long sequence, whose remaining bytes are dropped up to its end.
    private var discardingSequence = false

    private static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// A decoder with nothing pending.
    public init(escapeTimeout: Duration = .milliseconds(50), maxSequenceLength: Int = 64, maxPasteLength: Int = 1 << 22) {
        self.escapeTimeout = escapeTimeout
        self.maxSequenceLength = maxSequenceLength
        self.maxPasteLength = maxPasteLength
    }

    /// When ``flush(at:)`` should be called if no more bytes arrive: set while an `ESC`, a
    /// partial sequence or a partial UTF-8 character waits for its end.
    public var deadline: ContinuousClock.Instant? {
        guard paste == nil, !pending.isEmpty, let lastArrival else { return nil }
        return lastArrival + escapeTimeout
    }

    /// Decodes `bytes`, which arrived at `now`, with whatever was pending before them.
    ///
    /// - Complexity: O(n) in the bytes given and pending.
    public mutating func decode(_ bytes: some Sequence<UInt8>, at now: ContinuousClock.Instant) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        lastArrival = now
        var events: [InputEvent] = []
        var index = 0
        while index < pending.count {
            if discardingSequence {
                index = discardSequence(from: index)
                continue
            }
            if paste != nil {
                guard let consumed = continuePaste(from: index, into: &events) else { return events }
                index = consumed
                continue
            }
            switch parse(at: index) {
            case .events(let decoded, let length):
                events.append(contentsOf: decoded)
                index += length
            case .pasteStart(let length):
                paste = []
                index += length
            case .invalid(let length):
                index += length
            case .overlong(let length):
                discardingSequence = true
                index += length
            case .incomplete:
                pending.removeFirst(index)
                return events
            }
        }
        pending.removeFirst(min(index, pending.count))
        return events
    }

    /// Resolves what is pending once ``deadline`` has passed: `ESC` becomes the Escape key,
    /// `ESC ESC` Alt+Escape, `ESC [`, `ESC O`, `ESC _` and `ESC P` Alt+[, Alt+O, Alt+_ and
    /// Alt+P (`ESC P >` Alt+P and `>`, the start of an XTVERSION reply that never came); a partial
    /// sequence or character is dropped. Before the deadline it does nothing.
    public mutating func flush(at now: ContinuousClock.Instant) -> [InputEvent] {
        guard let deadline, now >= deadline else { return [] }
        defer { pending.removeAll() }
        switch pending {
        case [0x1B]: return [.key(KeyPress(.escape))]
        case [0x1B, 0x1B]: return [.key(KeyPress(.escape, .alt))]
        case [0x1B, 0x5B]: return [.key(KeyPress(.character("["), .alt))]
        case [0x1B, 0x4F]: return [.key(KeyPress(.character("O"), .alt))]
        case [0x1B, 0x5F]: return [.key(KeyPress(.character("_"), .alt))]
        case [0x1B, 0x50]: return [.key(KeyPress(.character("P"), .alt))]
        case [0x1B, 0x50, 0x3E]: return [.key(KeyPress(.character("P"), .alt)), .key(KeyPress(.character(">")))]
        default: return []
        }
    }

    // MARK: - Paste

    /// Moves pasted bytes from `index` into the paste, delivering it at its end or at the
    /// size limit; returns where decoding continues, or nil when all pending bytes were taken
    /// (a possible start of the end marker stays pending).
    private mutating func continuePaste(from index: Int, into events: inout [InputEvent]) -> Int? {
        var end = Self.firstIndex(of: Self.pasteEnd, in: pending, from: index)
        var stop = end ?? max(index, pending.count - (Self.pasteEnd.count - 1))
        if paste!.count + (stop - index) >= maxPasteLength {
            stop = index + maxPasteLength - paste!.count
            end = nil
        }
        paste!.append(contentsOf: pending[index..<stop])
        if end != nil || paste!.count >= maxPasteLength {
            events.append(.paste(String(decoding: paste!, as: UTF8.self)))
            paste = nil
            return end.map { $0 + Self.pasteEnd.count } ?? stop
        }
        pending.removeSubrange(..<stop)
        return nil
    }

    /// Skips the rest of an over-long sequence: parameter and intermediate bytes, then its
    /// final byte; any other byte ends it and is decoded.
    private mutating func discardSequence(from start: Int) -> Int {
        var index = start
        while index < pending.count, (0x20...0x3F).contains(pending[index]) { index += 1 }
        if index < pending.count {
            discardingSequence = false
            if (0x40...0x7E).contains(pending[index]) { index += 1 }
        }
        return index
    }

    private static func firstIndex(of marker: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= marker.count + start else { return nil }
        var index = start
        while index <= bytes.count - marker.count {
            if bytes[index] == marker[0] && bytes[index..<(index + marker.count)].elementsEqual(marker) { return index }
            index += 1
        }
        return nil
    }

    // MARK: - Parsing

    private enum Parsed {
        case events([InputEvent], length: Int)
        case pasteStart(length: Int)
        case invalid(length: Int)
        /// A sequence past ``maxSequenceLength``: its first `length` bytes, the rest to be discarded.
        case overlong(length: Int)
        /// The bytes end before the sequence or character does.
        case incomplete
    }

    private func parse(at index: Int) -> Parsed {
        let byte = pending[index]
        switch byte {
        case 0x1B:
            return parseEscape(at: index)
        case 0x00..<0x20, 0x7F:
            return .events([.key(Self.controlKey(byte))], length: 1)
        default:
            return parseText(at: index)
        }
    }

    /// The key a C0 control or DEL stands for.
    private static func controlKey(_ byte: UInt8) -> KeyPress {
        switch byte {
        case 0x0D: KeyPress(.enter)
        case 0x09: KeyPress(.tab)
        case 0x7F: KeyPress(.backspace)
        case 0x08: KeyPress(.backspace, .control)
        case 0x00: KeyPress(.character(" "), .control)
        case 0x01...0x1A: KeyPress(.character(Character(Unicode.Scalar(byte + 0x60))), .control)
        default: KeyPress(.character(Character(Unicode.Scalar(byte + 0x40))), .control)
        }
    }

    /// A run of printable text, up to the next control byte; an incomplete UTF-8 character at
    /// the end of the bytes waits, invalid bytes are dropped. A key per Unicode scalar, not per
    /// grapheme: whether a combining mark or a joiner follows a letter is not known until the
    /// next read, and the keys of a text must not depend on how it was read. Whoever appends
    /// the keys to a `String` gets the clusters back.
    private func parseText(at start: Int, maxCharacters: Int = .max) -> Parsed {
        var index = start
        var scalars = 0
        while index < pending.count && scalars < maxCharacters {
            scalars += 1
            let byte = pending[index]
            if byte < 0x20 || byte == 0x7F { break }
            if byte < 0x80 {
                index += 1
                continue
            }
            let length = byte >= 0xF0 && byte <= 0xF4 ? 4 : byte >= 0xE0 ? (byte <= 0xEF ? 3 : 0) : byte >= 0xC2 ? 2 : 0
            guard length > 0 else { break }
            let available = min(index + length, pending.count)
            guard pending[(index + 1)..<available].allSatisfy({ $0 & 0xC0 == 0x80 }) else { break }
            if index + length > pending.count {
                if index == start { return .incomplete }
                break
            }
            index += length
        }
        if index == start {
            return .invalid(length: 1)
        }
        let text = String(decoding: pending[start..<index], as: UTF8.self)
        return .events(text.unicodeScalars.map { .key(KeyPress(.character(Character($0)))) }, length: index - start)
    }

    private func parseEscape(at index: Int) -> Parsed {
        guard index + 1 < pending.count else { return .incomplete }
        switch pending[index + 1] {
        case 0x5B:
            return parseControlSequence(at: index)
        case 0x5F:
            // Only a kitty graphics reply starts `ESC _ G`; otherwise this is Alt+_.
            guard index + 2 < pending.count else { return .incomplete }
            guard pending[index + 2] == 0x47 else { return .events([.key(KeyPress(.character("_"), .alt))], length: 2) }
            return parseApplicationProgramCommand(at: index)
        case 0x50:
            // `ESC P > |`: an XTVERSION reply; otherwise this is Alt+P.
            let altP = Parsed.events([.key(KeyPress(.character("P"), .alt))], length: 2)
            guard index + 2 < pending.count else { return .incomplete }
            guard pending[index + 2] == 0x3E else { return altP }
            guard index + 3 < pending.count else { return .incomplete }
            guard pending[index + 3] == 0x7C else { return altP }
            return parseTerminalVersion(at: index)
        case 0x4F:
            guard index + 2 < pending.count else { return .incomplete }
            let key: Key? = switch pending[index + 2] {
            case 0x41: .up
            case 0x42: .down
            case 0x43: .right
            case 0x44: .left
            case 0x48: .home
            case 0x46: .end
            case 0x50...0x53: .function(Int(pending[index + 2]) - 0x4F)
            default: nil
            }
            guard let key else { return .events([.key(KeyPress(.character("O"), .alt))], length: 2) }
            return .events([.key(KeyPress(key))], length: 3)
        case 0x1B:
            // Some terminals send Alt with a special key as ESC before the key's sequence. In a
            // run of ESCs, each one before the last is Alt on what the last one starts: read
            // from the last, without recursion (a run of thousands overflowed the stack), and
            // when that is not one key, the ESCs before the last are dropped at once, as they
            // were one at a time.
            var last = index + 1
            while last + 1 < pending.count, pending[last + 1] == 0x1B { last += 1 }
            let run = last - index
            switch parseEscape(at: last) {
            case .events(let events, let length):
                guard events.count == 1, case .key(var press) = events[0] else { return .invalid(length: run) }
                press.modifiers.insert(.alt)
                return .events([.key(press)], length: run + length)
            case .incomplete:
                return .incomplete
            case .invalid, .overlong, .pasteStart:
                return .invalid(length: run)
            }
        case let next where next < 0x20 || next == 0x7F:
            var press = Self.controlKey(next)
            press.modifiers.insert(.alt)
            return .events([.key(press)], length: 2)
        default:
            // ESC before a character is Alt held with it.
            return Self.withAlt(parseText(at: index + 1, maxCharacters: 1))
        }
    }

    /// What follows an ESC, read as one key with Alt held; anything else makes the ESC
    /// invalid on its own, and the rest is read again after it.
    private static func withAlt(_ parsed: Parsed) -> Parsed {
        switch parsed {
        case .events(let events, let length):
            guard events.count == 1, case .key(var press) = events[0] else { return .invalid(length: 1) }
            press.modifiers.insert(.alt)
            return .events([.key(press)], length: 1 + length)
        case .incomplete:
            return .incomplete
        case .invalid, .overlong, .pasteStart:
            return .invalid(length: 1)
        }
    }

    /// `ESC _ G … ESC \`, a kitty graphics reply. One that does not end within 1024 bytes, or
    /// holds a control byte, is dropped up to that point.
    private func parseApplicationProgramCommand(at start: Int) -> Parsed {
        parseString(at: start, bodyStart: start + 3, limit: 1024) { .kittyGraphicsReply($0) }
    }

    /// `ESC P > | … ESC \`, the terminal's name and version. One that does not end within 256
    /// bytes, or holds a control byte, is dropped up to that point.
    private func parseTerminalVersion(at start: Int) -> Parsed {
        parseString(at: start, bodyStart: start + 4, limit: 256) { .terminalVersion($0) }
    }

    /// A string the terminal sends, from `bodyStart` to its `ESC \`, as `event` of its text.
    private func parseString(at start: Int, bodyStart: Int, limit: Int, _ event: (String) -> InputEvent) -> Parsed {
        var index = bodyStart
        while index < pending.count {
            let byte = pending[index]
            if byte == 0x1B {
                guard index + 1 < pending.count else { return .incomplete }
                guard pending[index + 1] == 0x5C else { return .invalid(length: index - start) }
                return .events([event(String(decoding: pending[bodyStart..<index], as: UTF8.self))], length: index - start + 2)
            }
            if byte < 0x20 || index - start >= limit { return .invalid(length: index - start) }
            index += 1
        }
        return .incomplete
    }

    /// `ESC [`, parameters (0x30–0x3F), intermediates (0x20–0x2F), then a final byte (0x40–0x7E).
    private func parseControlSequence(at start: Int) -> Parsed {
        var index = start + 2
        while index < pending.count {
            let byte = pending[index]
            if index - start >= maxSequenceLength { return .overlong(length: index - start) }
            switch byte {
            case 0x20...0x3F:
                index += 1
            case 0x40...0x7E:
                let length = index - start + 1
                let body = Array(pending[(start + 2)..<index])
                if byte == 0x7E && body == Array("200".utf8) { return .pasteStart(length: length) }
                guard let event = Self.controlSequenceEvent(body: body, final: byte) else { return .invalid(length: length) }
                return .events([event], length: length)
            default:
                // A byte that cannot belong to a sequence ends it; decoding resumes at that byte.
                return .invalid(length: index - start)
            }
        }
        return .incomplete
    }

    private static func controlSequenceEvent(body: [UInt8], final: UInt8) -> InputEvent? {
        if body.first == 0x3C { return mouseEvent(body: body.dropFirst(), final: final) }
        if body.first == 0x3F {
            if final == 0x63 { return .deviceAttributes(parameters(body.dropFirst()).compactMap { $0 }) }
            if final == 0x79, body.last == 0x24 {
                let numbers = parameters(body.dropFirst().dropLast())
                guard numbers.count == 2, let mode = numbers[0], let state = numbers[1] else { return nil }
                return .modeReport(mode: mode, state: state)
            }
            return nil
        }
        guard body.allSatisfy({ (0x30...0x3B).contains($0) }) else { return nil }
        let numbers = parameters(body[...])
        if final == 0x74 {
            guard numbers.count == 3, numbers[0] == 6 || numbers[0] == 4, let height = numbers[1], let width = numbers[2], height > 0, width > 0 else { return nil }
            return numbers[0] == 6 ? .cellSizeReport(CellPixelSize(width: width, height: height)) : .windowPixelSizeReport(width: width, height: height)
        }
        let modifiers = numbers.count > 1 ? modifierSet(numbers[1]) : []
        guard let modifiers else { return nil }
        let key: Key
        switch final {
        case 0x41: key = .up
        case 0x42: key = .down
        case 0x43: key = .right
        case 0x44: key = .left
        case 0x48: key = .home
        case 0x46: key = .end
        case 0x50...0x53: key = .function(Int(final) - 0x4F)
        case 0x5A: return body.isEmpty ? .key(KeyPress(.tab, .shift)) : nil
        case 0x49: return body.isEmpty ? .focusGained : nil
        case 0x4F: return body.isEmpty ? .focusLost : nil
        case 0x7E:
            guard let number = numbers.first ?? nil, let tilde = tildeKey(number) else { return nil }
            key = tilde
        case 0x75:
            guard let code = numbers.first ?? nil, let unicode = unicodeKey(code) else { return nil }
            key = unicode

        default:
            return nil
        }
        return .key(KeyPress(key, modifiers))
    }

    /// `CSI number ~` keys (VT220 and xterm).
    private static func tildeKey(_ number: Int) -> Key? {
        switch number {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(number - 10)
        case 17...21: .function(number - 11)
        case 23, 24: .function(number - 12)
        default: nil
        }
    }

    /// `CSI code ; modifiers u` (fixterms, kitty's keyboard protocol): the key's code point.
    private static func unicodeKey(_ code: Int) -> Key? {
        switch code {
        case 13: .enter
        case 9: .tab
        case 127: .backspace
        case 27: .escape
        default: Unicode.Scalar(code).flatMap { $0.value >= 0x20 ? .character(Character($0)) : nil }
        }
    }

    /// xterm's modifier parameter: 1 plus a bit set of Shift (1), Alt (2), Control (4), Meta
    /// (8, read as Alt). Nil for a value out of range.
    private static func modifierSet(_ parameter: Int?) -> KeyModifiers? {
        guard let parameter else { return [] }
        guard parameter >= 1 && parameter <= 16 else { return nil }
        let bits = parameter - 1
        var modifiers = KeyModifiers(rawValue: UInt8(bits & 0b111))
        if bits & 8 != 0 { modifiers.insert(.alt) }
        return modifiers
    }

    /// `CSI < button ; column ; row M` (press, motion) or `m` (release), SGR mouse mode 1006.
    private static func mouseEvent(body: ArraySlice<UInt8>, final: UInt8) -> InputEvent? {
        guard final == 0x4D || final == 0x6D, body.allSatisfy({ (0x30...0x3B).contains($0) }) else { return nil }
        let numbers = parameters(body)
        guard numbers.count == 3, let code = numbers[0], let column = numbers[1], let row = numbers[2], column >= 1, row >= 1 else { return nil }
        var modifiers: KeyModifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.control) }
        let action: MouseEvent.Action
        if code & 64 != 0 && code & 128 == 0 {
            let directions: [ScrollDirection] = [.up, .down, .left, .right]
            action = .scroll(directions[code & 3])
        } else {
            let button: MouseButton? = code & 128 != 0 ? .other(8 + (code & 3)) : [.left, .middle, .right, nil][code & 3]
            if code & 32 != 0 {
                action = button.map { .drag($0) } ?? .move
            } else {
                guard let button else { return nil }
                action = final == 0x4D ? .press(button) : .release(button)
            }
        }
        return .mouse(MouseEvent(action, column: column - 1, row: row - 1, modifiers: modifiers))
    }

    /// `;`-separated decimal parameters; an empty one is nil, the sequence's default.
    private static func parameters(_ body: ArraySlice<UInt8>) -> [Int?] {
        body.split(separator: 0x3B, omittingEmptySubsequences: false).map { digits in
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
    }
}
