import Foundation

/// A reader of well-formed UTF-8 XML without a document type declaration, the way nearly every
/// feed is written: it reports the same events libxml2's SAX2 parser does, several times as
/// fast, and gives up at the first thing it is not sure of, handing the rest of the document
/// to libxml2 (``XMLReader`` does so) from that point.
///
/// It reads element and attribute names in ASCII, namespaces, attributes (whitespace
/// normalized and references replaced as XML says), text with character references, XML's five
/// entities and HTML's named ones (which RSS uses undeclared, and which ``XMLPushParser``
/// resolves the same way), CDATA sections, comments and processing instructions.
///
/// It gives up (a ``Handoff``) on anything else: a document type declaration, a non-ASCII name,
/// bytes that are not UTF-8 or characters XML forbids, an undeclared prefix, a tag that does
/// not close the open element, `]]>` in text, an unknown entity, a token longer than
/// ``maxTokenBytes``, nesting deeper than ``maxDepth``, and a document that ends before its
/// root element does. libxml2 then reads from the token that stopped it, after the XML
/// declaration and the start tags of the open elements (replayed, their events not
/// reported again), so the handler sees what libxml2 alone would have made of the document,
/// errors and their recovery included.
///
/// Events come as they are read. Text is reported in runs that may split anywhere, even
/// inside a character, as libxml2's do; the handler concatenates them.
///
/// Not thread-safe: one document, fed from one thread at a time.
struct UTF8XMLScanner {
    /// What libxml2 needs to go on where the scanner stopped: ``bytes`` to parse (the XML
    /// declaration, the open elements' start tags, then the rest of the input; before the
    /// root, the document from its first byte), of which the first ``skippedStarts``
    /// start-element and ``skippedEnds`` end-element events are not to be reported (the
    /// scanner reported them, or they are of a stand-in root).
    struct Handoff {
        var bytes: [UInt8]
        var skippedStarts: Int
        var skippedEnds: Int
        /// Line feeds in the replayed prefix, which the document's line count already has.
        var replayedLineFeeds: Int
        /// The document's line at the point handed off, from 1.
        var line: Int
    }

    /// The longest a tag, reference, declaration or processing instruction may be before the
    /// scanner leaves it to libxml2, which has its own limits for them.
    static var maxTokenBytes: Int { 1 << 20 }
    /// The longest token other than a CDATA section carried from one input to the next.
    static var maxCarriedBytes: Int { 16 << 10 }
    /// The longest name the scanner reads; libxml2's limit is 50,000 bytes.
    static var maxNameBytes: Int { 1000 }
    /// The length of text under which libxml2 waits for more input before reporting it.
    static var shortRun: Int { 300 }
    /// The deepest nesting the scanner reads; libxml2 stops at 256 without `XML_PARSE_HUGE`.
    static var maxDepth: Int { 128 }

    private enum Region: Equatable {
        /// Before the root element: whitespace, comments, processing instructions.
        case prolog
        /// Inside the root element.
        case content
        /// After the root element closed.
        case epilog
        /// Inside a CDATA section longer than ``maxTokenBytes``, whose text is reported as it
        /// is read rather than at its end.
        case longCDATA
        /// The handler stopped the parse.
        case stopped
    }

    private struct OpenElement {
        var qualifiedName: Int
        var name: String
        var namespace: XMLNamespace
        /// The count of ``bindings`` before this element's declarations.
        var bindingsBefore: Int
        /// Where this element's start tag starts in ``openTags``.
        var tagStart: Int
    }

    private struct RawAttribute {
        var name: Int
        var start: Int
        var end: Int
        var flags: UInt8
    }

    private let handler: any XMLEventHandling
    /// Whether lines are counted, for ``line``.
    private let countsLines: Bool
    private var region = Region.prolog
    /// Bytes of an unfinished token at the end of the last input, read again with the next.
    private var carry: [UInt8] = []
    /// Where the bytes to carry start in the input being read, set by ``keep(_:from:)``.
    private var keptFrom: Int?
    private var elements: [OpenElement] = []
    /// Namespace prefixes in scope, innermost last: a prefix's name id (0 for the default
    /// namespace) and what it is bound to.
    private var bindings: [(prefix: Int, namespace: XMLNamespace)] = []
    /// The open elements' start tags as written, for a handoff.
    private var openTags: [UInt8] = []
    /// The XML declaration as written, for a handoff.
    private var declaration: [UInt8] = []
    /// The document as read before its root element, for a handoff there: libxml2 then reads
    /// it from its first byte.
    private var prolog: [UInt8] = []
    private var names = XMLNameTable()
    private var attributes: [RawAttribute] = []
    /// Decoded text waiting to be reported: a run of text with references in it.
    private var pending: [UInt8] = []
    /// How far into the CDATA section at the start of the next input its text was read and
    /// found valid, so it is not read again.
    private var cdataRead = 0
    /// Whether the scanner found the document not well-formed where libxml2 would report an
    /// error and stop reading (content after the root element), and stopped.
    private(set) var isMalformed = false
    /// Whether the document's first bytes have been read (a byte order mark, the declaration).
    private var sawStart = false
    /// Line feeds in the input read so far.
    private var lineFeeds = 0

    /// A scanner that reports to `handler`, counting lines if `countingLines`.
    init(handler: any XMLEventHandling, countingLines: Bool) {
        self.handler = handler
        countsLines = countingLines
    }

    /// The line read to, from 1 (1 if lines are not counted): after the handler stopped the
    /// parse, the line of the start tag it stopped at.
    var line: Int { lineFeeds + 1 }

    /// Reads `input`, the next bytes of the document; `final` when they are its last.
    /// - Returns: `nil`, or what libxml2 needs to read the rest in the scanner's stead; the
    ///   scanner is done with the document then.
    /// - Complexity: O(n) in the bytes, plus the unfinished token carried from the last call.
    mutating func scan(_ input: UnsafeBufferPointer<UInt8>, final: Bool) -> Handoff? {
        if region == .stopped { return nil }
        if carry.isEmpty {
            let handoff = scanJoined(input, final: final)
            if let kept = keptFrom {
                carry = Array(UnsafeBufferPointer(rebasing: input[kept...]))
                keptFrom = nil
            }
            return handoff
        }
        // The unfinished token grows in place: neither it nor the bytes before it are copied
        // for each piece (a token arriving a byte at a time would be copied a byte at a time).
        var joined = carry
        carry = []
        joined.append(contentsOf: input)
        let handoff = joined.withUnsafeBufferPointer { scanJoined($0, final: final) }
        if let kept = keptFrom {
            joined.removeFirst(kept)
            carry = joined
            keptFrom = nil
        }
        return handoff
    }

    // MARK: The scan

    private enum Step {
        /// The token ended; reading goes on at this index.
        case next(Int)
        /// The token needs bytes that have not come yet.
        case more
        /// The scanner cannot read the token: libxml2 takes over at its start.
        case handoff
    }

    private mutating func scanJoined(_ buffer: UnsafeBufferPointer<UInt8>, final: Bool) -> Handoff? {
        guard let base = buffer.baseAddress, !buffer.isEmpty else {
            return final ? finish(buffer, at: 0) : nil
        }
        let p = base
        let n = buffer.count
        var i = 0
        if !sawStart {
            if n < 3 && !final { return keep(buffer, from: 0) }
            if n >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF { i = 3 }
            if n - i < 6 && !final { return keep(buffer, from: 0) }
            if n - i >= 6, XMLBytes.starts(p + i, n - i, with: "<?xml"), XMLBytes.isSpace(p[i + 5]) {
                switch declaration(p, i, n) {
                case .next(let end):
                    declaration = Array(UnsafeBufferPointer(start: p + i, count: end - i))
                    i = end
                case .more:
                    if final { return handOff(buffer, at: i) }
                    return keep(buffer, from: 0)
                case .handoff:
                    return handOff(buffer, at: i)
                }
            }
            sawStart = true
        }
        let textClasses = XMLBytes.textClasses
        while i < n {
            switch region {
            case .stopped:
                return nil
            case .longCDATA:
                switch longCDATA(p, &i, n, final: final) {
                case .next: break
                case .more: return keep(buffer, from: i)
                case .handoff: return handOff(buffer, at: i, reopening: "<![CDATA[")
                }
            case .prolog, .epilog:
                // Only whitespace, comments and processing instructions outside the root.
                while i < n, XMLBytes.isSpace(p[i]) { i += 1 }
                guard i < n else { break }
                if region == .epilog, !isMiscellany(p, i, n) {
                    if i + 4 > n && !final { return keep(buffer, from: i) }
                    // libxml2 reports anything else after the root element as an error and
                    // stops reading.
                    isMalformed = true
                    region = .stopped
                    return count(buffer, upTo: n)
                }
                guard p[i] == UInt8(ascii: "<") else { return handOff(buffer, at: i) }
                switch markup(p, i, n, final: final) {
                case .next(let next): i = next
                case .more: return keep(buffer, from: i)
                case .handoff: return handOff(buffer, at: i)
                }
            case .content:
                // A run of text, up to the next byte that needs a look. libxml2 reports a run
                // at a reference or markup, and drops a run in which it finds an error: the
                // scanner hands off at the start of the run (`run`), with the text before it
                // (`pending[..<runPending]`) reported.
                var start = i
                var run = i
                var runPending = pending.count
                while i < n {
                    i = XMLBytes.skipPlainText(p, i, n)
                    guard i < n else { break }
                    let kind = textClasses[Int(p[i])]
                    if kind == XMLBytes.plain {
                        i += 1
                        continue
                    }
                    if kind == XMLBytes.multibyte {
                        let length = XMLBytes.characterLength(p + i, n - i)
                        if length > 0 {
                            i += length
                            continue
                        }
                        if length < 0 || final { return handOff(buffer, at: run, reportingPending: runPending) }
                        return waitForMore(buffer, at: i, text: start, run: run, runPending: runPending)
                    }
                    if kind == XMLBytes.bracket {
                        if n - i < 3 {
                            if final {
                                i += 1
                                continue
                            }
                            return waitForMore(buffer, at: i, text: start, run: run, runPending: runPending)
                        }
                        if p[i + 1] == UInt8(ascii: "]"), p[i + 2] == UInt8(ascii: ">") { return handOff(buffer, at: run, reportingPending: runPending) }
                        i += 1
                        continue
                    }
                    if kind == XMLBytes.carriageReturn {
                        // A line break, `\r\n` or a lone `\r`, is read as `\n`.
                        if i + 1 == n && !final {
                            return waitForMore(buffer, at: i, text: start, run: run, runPending: runPending)
                        }
                        appendPending(p, start, i)
                        pending.append(UInt8(ascii: "\n"))
                        i += i + 1 < n && p[i + 1] == UInt8(ascii: "\n") ? 2 : 1
                        start = i
                        continue
                    }
                    if kind == XMLBytes.ampersand {
                        appendPending(p, start, i)
                        start = i
                        switch Self.reference(p, i, n, final: final, into: &pending) {
                        case .next(let next):
                            i = next
                            start = i
                            run = i
                            runPending = pending.count
                            continue
                        case .more:
                            return waitForMore(buffer, at: i, text: start, run: run, runPending: runPending)
                        case .handoff:
                            return handOff(buffer, at: run, reportingPending: runPending)
                        }
                    }
                    break
                }
                guard i < n else {
                    // The document ends inside its root element: libxml2 decides what becomes
                    // of the last run (it drops it).
                    if final { return handOff(buffer, at: run, reportingPending: runPending) }
                    return waitForMore(buffer, at: i, text: start, run: run, runPending: runPending)
                }
                if textClasses[Int(p[i])] == XMLBytes.forbidden { return handOff(buffer, at: run, reportingPending: runPending) }
                report(p, start, i)
                // `<`: markup.
                switch markup(p, i, n, final: final) {
                case .next(let next): i = next
                case .more: return keep(buffer, from: i)
                case .handoff: return handOff(buffer, at: i)
                }
            }
        }
        // Stopped at a start tag that ends the input, its lines counted.
        if region == .stopped { return nil }
        return final ? finish(buffer, at: n) : count(buffer, upTo: n)
    }

    /// At the end of the input inside a run of text that starts at `run`, with the text from
    /// `start` to `i` not yet reported: waits for more. Like libxml2, it waits for more than a
    /// short run (the text of one line, which a document cut short ends with) before
    /// reporting it; a longer one is reported up to `i`.
    private mutating func waitForMore(_ buffer: UnsafeBufferPointer<UInt8>, at i: Int, text start: Int, run: Int, runPending: Int) -> Handoff? {
        if i - run < Self.shortRun {
            // What the run added to the pending text (line breaks read as `\n`) comes again
            // when the run is read again. Kept whole, the run reaches libxml2 whole if the
            // document ends in it: handed only its last `\r`, libxml2 dropped it (it reads no
            // text of fewer than two bytes at the end).
            pending.removeSubrange(runPending...)
            flushPending()
            return keep(buffer, from: run)
        }
        report(buffer.baseAddress!, start, i)
        return keep(buffer, from: i)
    }

    /// Whether `p[i]` starts a comment or processing instruction, or may (the input ends
    /// before it shows).
    private func isMiscellany(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        guard p[i] == UInt8(ascii: "<") else { return false }
        let expected: [UInt8] = [UInt8(ascii: "<"), UInt8(ascii: "!"), UInt8(ascii: "-"), UInt8(ascii: "-")]
        if i + 1 < n, p[i + 1] == UInt8(ascii: "?") { return true }
        for k in 1..<4 where i + k < n && p[i + k] != expected[k] { return false }
        return true
    }

    /// At the end of the document: done if the root element closed, else libxml2 says what
    /// the document lacks.
    private mutating func finish(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Handoff? {
        if region == .epilog { return count(buffer, upTo: index) }
        return handOff(buffer, at: index, reopening: region == .longCDATA ? "<![CDATA[" : "")
    }

    /// Keeps `buffer[index...]` for the next input (``scan(_:final:)`` does), having counted
    /// the lines before it. A token other than a CDATA section is read again from its start
    /// with each piece, so past ``maxCarriedBytes`` libxml2 reads it instead, as it goes.
    private mutating func keep(_ buffer: UnsafeBufferPointer<UInt8>, from index: Int) -> Handoff? {
        guard buffer.count - index <= (cdataRead > 0 ? Self.maxTokenBytes : Self.maxCarriedBytes) else { return handOff(buffer, at: index) }
        keptFrom = index
        return count(buffer, upTo: index)
    }

    private mutating func count(_ buffer: UnsafeBufferPointer<UInt8>, upTo end: Int) -> Handoff? {
        if region == .prolog {
            prolog.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<end]))
        } else if !prolog.isEmpty {
            prolog = []
        }
        if countsLines { lineFeeds += XMLBytes.lineFeeds(in: UnsafeBufferPointer(rebasing: buffer[..<end])) }
        return nil
    }

    /// Hands the document to libxml2 at `index`, the start of a run of text, having reported
    /// the text before the run (the first `reported` bytes waiting).
    private mutating func handOff(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int, reportingPending reported: Int) -> Handoff? {
        pending.removeSubrange(reported...)
        return handOff(buffer, at: index)
    }

    private mutating func handOff(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int, reopening opener: String = "") -> Handoff? {
        flushPending()
        _ = count(buffer, upTo: index)
        keptFrom = nil
        var bytes: [UInt8]
        var skippedStarts = elements.count
        var skippedEnds = 0
        switch region {
        case .prolog:
            bytes = prolog
        case .epilog:
            // After the root: a root of libxml2's own to read the rest after, its events not
            // reported.
            bytes = declaration + Array("<_/>".utf8)
            skippedStarts = 1
            skippedEnds = 1
        default:
            bytes = declaration + openTags
        }
        bytes += opener.utf8
        let replayedLineFeeds = XMLBytes.lineFeeds(in: bytes)
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index...]))
        region = .stopped
        return Handoff(bytes: bytes, skippedStarts: skippedStarts, skippedEnds: skippedEnds, replayedLineFeeds: replayedLineFeeds, line: line)
    }

    // MARK: Text

    /// Reports `p[start..<end]`, after any decoded text waiting.
    @inline(__always)
    private mutating func report(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) {
        if !pending.isEmpty {
            appendPending(p, start, end)
            flushPending()
        } else if end > start {
            handler.characters(UnsafeBufferPointer(start: p + start, count: end - start))
        }
    }

    @inline(__always)
    private mutating func appendPending(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) {
        if end > start { pending.append(contentsOf: UnsafeBufferPointer(start: p + start, count: end - start)) }
    }

    private mutating func flushPending() {
        guard !pending.isEmpty else { return }
        pending.withUnsafeBufferPointer { handler.characters($0) }
        pending.removeAll(keepingCapacity: true)
    }

    /// The reference at `p[i]` (`&`), its text appended to `out` if it is one the scanner reads.
    private static func reference(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, final: Bool, into out: inout [UInt8]) -> Step {
        let limit = min(n, i + 40)
        var semicolon = i + 1
        while semicolon < limit, p[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
        guard semicolon < limit else { return limit == n && !final ? .more : .handoff }
        let reference = UnsafeBufferPointer(start: p + i + 1, count: semicolon - i - 1)
        guard let first = reference.first else { return .handoff }
        if first == UInt8(ascii: "#") {
            guard let scalar = XMLBytes.characterReference(UnsafeBufferPointer(rebasing: reference.dropFirst())) else { return .handoff }
            XMLBytes.append(scalar, to: &out)
            return .next(semicolon + 1)
        }
        if let byte = HTMLEntities.predefined(reference) {
            out.append(byte)
            return .next(semicolon + 1)
        }
        guard XMLBytes.isNameStart(first), reference.allSatisfy(XMLBytes.isNameByte), !reference.contains(UInt8(ascii: ":")),
              let scalar = HTMLEntities.character(named: String(decoding: reference, as: UTF8.self)) else { return .handoff }
        XMLBytes.append(scalar, to: &out)
        return .next(semicolon + 1)
    }

    /// The CDATA section at `p[i]` (`<![CDATA[`), its text reported at its end.
    ///
    /// A section the input ends inside is read again with the next input, from where its
    /// text was read to (``cdataRead``); one longer than ``maxTokenBytes`` is reported as it
    /// is read instead (``Region/longCDATA``).
    private mutating func cdataSection(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, final: Bool) -> Step {
        let textStart = i + 9
        var j = max(textStart, i + cdataRead)
        cdataRead = 0
        switch sectionEnd(p, &j, n, final: final) {
        case .next:
            if j > textStart { handler.characters(UnsafeBufferPointer(start: p + textStart, count: j - textStart)) }
            return .next(j + 3)
        case .more:
            guard n - i > Self.maxTokenBytes else {
                cdataRead = j - i
                return .more
            }
            if j > textStart { handler.characters(UnsafeBufferPointer(start: p + textStart, count: j - textStart)) }
            region = .longCDATA
            return .next(j)
        case .handoff:
            return .handoff
        }
    }

    /// The text of a long CDATA section from `i`, reported as it is read; `i` is left where
    /// reading stopped.
    private mutating func longCDATA(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int, final: Bool) -> Step {
        let start = i
        let step = sectionEnd(p, &i, n, final: final)
        if i > start { handler.characters(UnsafeBufferPointer(start: p + start, count: i - start)) }
        if case .next = step {
            i += 3
            region = .content
        }
        return step
    }

    /// Reads CDATA text from `j` to the `]]>` that ends it (`.next`, `j` at the `]]>`), to the
    /// end of the input (`.more`, `j` where the next input must start reading), or to bytes
    /// that are not UTF-8 or not XML characters (`.handoff`).
    private func sectionEnd(_ p: UnsafePointer<UInt8>, _ j: inout Int, _ n: Int, final: Bool) -> Step {
        while j < n {
            j = XMLBytes.skipPlainText(p, j, n)
            guard j < n else { break }
            if p[j] == UInt8(ascii: "]") {
                if n - j < 3 { return final ? .handoff : .more }
                if p[j + 1] == UInt8(ascii: "]"), p[j + 2] == UInt8(ascii: ">") { return .next(j) }
                j += 1
                continue
            }
            if let step = Self.pass(p, &j, n, final: final) { return step }
        }
        return final ? .handoff : .more
    }

    /// Moves `j` past the character at `p[j]`, one with no meaning in the markup being read:
    /// `nil` when it did, `.more` when the input ends inside it, `.handoff` when it is not
    /// UTF-8 or not a character XML allows.
    @inline(__always)
    private static func pass(_ p: UnsafePointer<UInt8>, _ j: inout Int, _ n: Int, final: Bool) -> Step? {
        let kind = XMLBytes.textClasses[Int(p[j])]
        if kind == XMLBytes.multibyte {
            let length = XMLBytes.characterLength(p + j, n - j)
            guard length > 0 else { return length < 0 || final ? .handoff : .more }
            j += length
            return nil
        }
        if kind == XMLBytes.forbidden { return .handoff }
        j += 1
        return nil
    }

    /// The comment at `p[i]` (`<!--`), which nothing reports.
    private func comment(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, final: Bool) -> Step {
        var j = i + 4
        while j < n {
            let byte = p[j]
            if byte == UInt8(ascii: "-") {
                if n - j < 3 { return final ? .handoff : .more }
                if p[j + 1] == UInt8(ascii: "-") { return p[j + 2] == UInt8(ascii: ">") && j - i <= Self.maxTokenBytes ? .next(j + 3) : .handoff }
                j += 1
                continue
            }
            if let step = Self.pass(p, &j, n, final: final) { return step }
        }
        return final ? .handoff : .more
    }

    // MARK: Markup

    /// The markup at `p[i]` (`<`).
    private mutating func markup(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, final: Bool) -> Step {
        guard i + 1 < n else { return final ? .handoff : .more }
        let next = p[i + 1]
        if XMLBytes.isNameStart(next) { return startTag(p, i, n, final: final) }
        if next == UInt8(ascii: "/") { return endTag(p, i, n, final: final) }
        if next == UInt8(ascii: "?") { return instruction(p, i, n, final: final) }
        guard next == UInt8(ascii: "!") else { return .handoff }
        if n - i < 4 { return final ? .handoff : .more }
        if p[i + 2] == UInt8(ascii: "-"), p[i + 3] == UInt8(ascii: "-") { return comment(p, i, n, final: final) }
        if n - i < 9 { return final ? .handoff : .more }
        guard region == .content, XMLBytes.starts(p + i, n - i, with: "<![CDATA[") else { return .handoff }
        return cdataSection(p, i, n, final: final)
    }

    /// A processing instruction, which nothing reports.
    private func instruction(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, final: Bool) -> Step {
        var j = i + 2
        while j < n, XMLBytes.isNameByte(p[j]) { j += 1 }
        guard j < n else { return final ? .handoff : .more }
        let target = UnsafeBufferPointer(start: p + i + 2, count: j - i - 2)
        guard let first = target.first, XMLBytes.isNameStart(first), !target.contains(UInt8(ascii: ":")) else { return .handoff }
        // `xml` in any case is reserved: a declaration out of place.
        if target.count == 3, target[0] | 0x20 == UInt8(ascii: "x"), target[1] | 0x20 == UInt8(ascii: "m"), target[2] | 0x20 == UInt8(ascii: "l") { return .handoff }
        if p[j] == UInt8(ascii: "?") {
            guard j + 1 < n else { return final ? .handoff : .more }
            return p[j + 1] == UInt8(ascii: ">") ? .next(j + 2) : .handoff
        }
        guard XMLBytes.isSpace(p[j]) else { return .handoff }
        while j < n {
            let byte = p[j]
            if byte == UInt8(ascii: "?") {
                guard j + 1 < n else { return final ? .handoff : .more }
                if p[j + 1] == UInt8(ascii: ">") { return j - i <= Self.maxTokenBytes ? .next(j + 2) : .handoff }
                j += 1
                continue
            }
            if let step = Self.pass(p, &j, n, final: final) { return step }
        }
        return final ? .handoff : .more
    }

    /// The XML declaration at `p[i]`, in the form the specification gives it: version 1.0, an
    /// encoding that is UTF-8 (any other is libxml2's to read), `standalone`.
    private func declaration(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Step {
        var end = i
        while end < n, end - i < 512, p[end] != UInt8(ascii: ">") { end += 1 }
        guard end < n, p[end] == UInt8(ascii: ">") else { return end - i < 512 ? .more : .handoff }
        // Read up to the `?` before `>`.
        let limit = end - 1
        guard limit > i, p[limit] == UInt8(ascii: "?") else { return .handoff }
        var j = i + 5
        func space() -> Bool {
            let start = j
            while j < limit, XMLBytes.isSpace(p[j]) { j += 1 }
            return j > start
        }
        /// The value of the pseudo-attribute `name` if it comes next; `nil` if another does.
        func value(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
            guard XMLBytes.starts(p + j, limit - j, with: name) else { return nil }
            j += name.utf8CodeUnitCount
            _ = space()
            guard j < limit, p[j] == UInt8(ascii: "=") else { return nil }
            j += 1
            _ = space()
            guard j < limit, p[j] == UInt8(ascii: "\"") || p[j] == UInt8(ascii: "'") else { return nil }
            let quote = p[j]
            let start = j + 1
            var k = start
            while k < limit, p[k] != quote { k += 1 }
            guard k < limit else { return nil }
            j = k + 1
            return UnsafeBufferPointer(start: p + start, count: k - start)
        }
        guard space(), let version = value("version"), version.elementsEqual("1.0".utf8) else { return .handoff }
        var spaced = space()
        if spaced, XMLBytes.starts(p + j, limit - j, with: "encoding") {
            // Any other encoding is libxml2's to read (the reader checks the form it knows of,
            // this every form).
            guard let encoding = value("encoding"), XMLBytes.isUTF8(encoding) else { return .handoff }
            spaced = space()
        }
        if spaced, XMLBytes.starts(p + j, limit - j, with: "standalone") {
            guard let standalone = value("standalone"), standalone.elementsEqual("yes".utf8) || standalone.elementsEqual("no".utf8) else { return .handoff }
            _ = space()
        }
        return j == limit ? .next(end + 1) : .handoff
    }

    /// The start tag at `p[i]`, reported with its attributes (and its end, if it is empty).
    private mutating func startTag(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, final: Bool) -> Step {
        let more: Step = final ? .handoff : .more
        var j = i + 1
        while j < n, XMLBytes.isNameByte(p[j]) { j += 1 }
        guard j < n else { return more }
        guard j - i - 1 <= Self.maxNameBytes, let element = names.id(p + i + 1, j - i - 1) else { return .handoff }
        attributes.removeAll(keepingCapacity: true)
        var isEmpty = false
        while true {
            let spaceStart = j
            while j < n, XMLBytes.isSpace(p[j]) { j += 1 }
            guard j < n else { return more }
            if p[j] == UInt8(ascii: ">") {
                j += 1
                break
            }
            if p[j] == UInt8(ascii: "/") {
                guard j + 1 < n else { return more }
                guard p[j + 1] == UInt8(ascii: ">") else { return .handoff }
                j += 2
                isEmpty = true
                break
            }
            guard j > spaceStart else { return .handoff }
            let nameStart = j
            while j < n, XMLBytes.isNameByte(p[j]) { j += 1 }
            guard j < n else { return more }
            guard j - nameStart <= Self.maxNameBytes, let name = names.id(p + nameStart, j - nameStart) else { return .handoff }
            while j < n, XMLBytes.isSpace(p[j]) { j += 1 }
            guard j < n else { return more }
            guard p[j] == UInt8(ascii: "=") else { return .handoff }
            j += 1
            while j < n, XMLBytes.isSpace(p[j]) { j += 1 }
            guard j < n else { return more }
            let quote = p[j]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return .handoff }
            j += 1
            let valueStart = j
            var flags: UInt8 = 0
            let attributeClasses = XMLBytes.attributeClasses
            while j < n, p[j] != quote {
                let kind = attributeClasses[Int(p[j])]
                if kind == XMLBytes.forbidden { return .handoff }
                flags |= kind
                j += 1
            }
            guard j < n else { return more }
            attributes.append(RawAttribute(name: name, start: valueStart, end: j, flags: flags))
            j += 1
        }
        guard elements.count < Self.maxDepth, region == .content || region == .prolog, j - i <= Self.maxTokenBytes else { return .handoff }

        // Namespace declarations first: they hold for the element and all its attributes.
        let bindingsBefore = bindings.count
        var declarations = 0
        for attribute in attributes {
            let entry = names[attribute.name]
            let prefix: Int
            if attribute.name == XMLNameTable.xmlns {
                prefix = 0
            } else if entry.prefix == XMLNameTable.xmlns {
                prefix = entry.local
                guard prefix != XMLNameTable.xml, prefix != XMLNameTable.xmlns, attribute.end > attribute.start else { return undo(bindingsBefore) }
            } else {
                continue
            }
            // libxml2 leaves a reference in a namespace name as it reads it in attribute values
            // (`&amp;` as `&#38;`); no namespace name has one.
            // It also reports a name that is not a URI as an error.
            guard attribute.flags & XMLBytes.ampersand == 0,
                  XMLBytes.isPlainURI(UnsafeBufferPointer(start: p + attribute.start, count: attribute.end - attribute.start)),
                  let uri = value(p, attribute) else { return undo(bindingsBefore) }
            guard uri != "http://www.w3.org/XML/1998/namespace", uri != "http://www.w3.org/2000/xmlns/",
                  !bindings[bindingsBefore...].contains(where: { $0.prefix == prefix }) else { return undo(bindingsBefore) }
            bindings.append((prefix, uri.isEmpty ? .none : XMLNamespace(uri: uri)))
            declarations += 1
        }
        let entry = names[element]
        guard element != XMLNameTable.xmlns, entry.prefix != XMLNameTable.xmlns, entry.prefix != XMLNameTable.xml,
              let namespace = boundNamespace(of: entry.prefix) else { return undo(bindingsBefore) }
        var list: [XMLAttribute] = []
        if attributes.count > declarations {
            list.reserveCapacity(attributes.count - declarations)
            for attribute in attributes {
                let attributeEntry = names[attribute.name]
                if attribute.name == XMLNameTable.xmlns || attributeEntry.prefix == XMLNameTable.xmlns { continue }
                let attributeNamespace: XMLNamespace
                switch attributeEntry.prefix {
                case 0: attributeNamespace = .none
                case XMLNameTable.xml: attributeNamespace = .xml
                default:
                    guard let bound = boundNamespace(of: attributeEntry.prefix), bound != .none else { return undo(bindingsBefore) }
                    attributeNamespace = bound
                }
                guard let text = value(p, attribute) else { return undo(bindingsBefore) }
                let local = names[attributeEntry.local].name
                guard !list.contains(where: { $0.name == local && $0.namespace == attributeNamespace }) else { return undo(bindingsBefore) }
                list.append(XMLAttribute(name: local, namespace: attributeNamespace, value: text))
            }
        }

        let name = names[entry.local].name
        region = .content
        handler.startElement(name, namespace: namespace, attributes: list)
        if handler.wantsStop {
            _ = count(UnsafeBufferPointer(start: p, count: j), upTo: j)
            region = .stopped
            return .next(j)
        }
        if isEmpty {
            handler.endElement(name, namespace: namespace)
            bindings.removeSubrange(bindingsBefore...)
            if elements.isEmpty { region = .epilog }
        } else {
            elements.append(OpenElement(qualifiedName: element, name: name, namespace: namespace, bindingsBefore: bindingsBefore, tagStart: openTags.count))
            openTags.append(contentsOf: UnsafeBufferPointer(start: p + i, count: j - i))
        }
        return .next(j)
    }

    /// Drops the namespace declarations of a start tag being handed off.
    private mutating func undo(_ bindingsBefore: Int) -> Step {
        bindings.removeSubrange(bindingsBefore...)
        return .handoff
    }

    /// The end tag at `p[i]` (`</`), which must close the open element.
    private mutating func endTag(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, final: Bool) -> Step {
        var j = i + 2
        while j < n, XMLBytes.isNameByte(p[j]) { j += 1 }
        while j < n, XMLBytes.isSpace(p[j]) { j += 1 }
        guard j < n else { return final ? .handoff : .more }
        guard p[j] == UInt8(ascii: ">"), let open = elements.last else { return .handoff }
        var nameEnd = j
        while XMLBytes.isSpace(p[nameEnd - 1]) { nameEnd -= 1 }
        guard names.hasName(open.qualifiedName, p + i + 2, nameEnd - i - 2) else { return .handoff }
        elements.removeLast()
        openTags.removeSubrange(open.tagStart...)
        bindings.removeSubrange(open.bindingsBefore...)
        if elements.isEmpty { region = .epilog }
        handler.endElement(open.name, namespace: open.namespace)
        return .next(j + 1)
    }

    /// The namespace `prefix` (a name id, 0 for none) is bound to, innermost first; `nil` for
    /// an undeclared prefix.
    private func boundNamespace(of prefix: Int) -> XMLNamespace? {
        for binding in bindings.reversed() where binding.prefix == prefix { return binding.namespace }
        return prefix == 0 ? XMLNamespace.none : nil
    }

    /// An attribute's value: whitespace characters read as spaces, references replaced.
    private func value(_ p: UnsafePointer<UInt8>, _ attribute: RawAttribute) -> String? {
        let bytes = UnsafeBufferPointer(start: p + attribute.start, count: attribute.end - attribute.start)
        if attribute.flags & XMLBytes.multibyte != 0, !XMLBytes.isValidText(bytes) { return nil }
        if attribute.flags & (XMLBytes.ampersand | XMLBytes.carriageReturn | XMLBytes.lineBreak) == 0 {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var k = 0
        while k < bytes.count {
            let byte = bytes[k]
            switch byte {
            case UInt8(ascii: "\r"):
                out.append(UInt8(ascii: " "))
                k += k + 1 < bytes.count && bytes[k + 1] == UInt8(ascii: "\n") ? 2 : 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\t"):
                out.append(UInt8(ascii: " "))
                k += 1
            case UInt8(ascii: "&"):
                guard case .next(let next) = Self.reference(bytes.baseAddress!, k, bytes.count, final: true, into: &out) else { return nil }
                k = next
            default:
                out.append(byte)
                k += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
