/// The way feeds and OPML documents are read as XML: ``UTF8XMLScanner`` for a document that
/// is UTF-8, as nearly every feed is, and libxml2 (``XMLPushParser``) for any other and for
/// whatever the scanner hands over, so a handler sees what libxml2 alone would report, sooner.
///
/// The bytes are mended first (``XMLInputRepair``), whichever reads them. A document in an
/// encoding libxml2 refuses is decoded to UTF-8 first (``XMLEncoding``, ``XMLTranscoder``).
///
/// Not thread-safe: one document, fed from one thread at a time.
final class XMLReader {
    private let handler: any XMLEventHandling
    private let maxExpansionBytes: Int
    /// The HTTP charset hint, which libxml2 obeys over the declaration when it takes over.
    private let charset: String?
    /// The repair in front of the scanner; libxml2 repairs for itself when it reads the whole
    /// document.
    private var repair: XMLInputRepair
    /// The decoder to UTF-8 in front of the repair, for an encoding libxml2 refuses.
    private var transcoder: XMLTranscoder?
    /// The encoding named by the document or its hint, read as windows-1252 since nobody
    /// knows it.
    private var unknownEncoding: String?
    private var scanner: UTF8XMLScanner?
    private var parser: XMLPushParser?
    /// Lines the document had before libxml2 took it over, less those it reads again.
    private var lineOffset = 0

    /// A reader that reports to `handler`. The first bytes (at least four, when the document
    /// has them) show the encoding; `charset`, an HTTP charset hint, overrides the declaration.
    /// Lines are counted for ``line`` only if `countingLines`. With `libxml2Only`, a UTF-8
    /// document is read by libxml2 alone, as one in another encoding libxml2 knows is: the
    /// scanner's reference, for the differential fuzz target.
    init(handler: any XMLEventHandling, firstBytes: [UInt8], charset: String?, maxExpansionBytes: Int, countingLines: Bool = false,
         libxml2Only: Bool = false) {
        self.handler = handler
        self.maxExpansionBytes = maxExpansionBytes
        var firstBytes = firstBytes
        var encoding = XMLEncoding.of(firstBytes: firstBytes, charset: charset)
        if libxml2Only, encoding == .utf8 { encoding = .libxml2 }
        switch encoding {
        case .libxml2:
            // libxml2 reads the document whole, its own repair in front.
            self.repair = .none
            self.charset = charset
            parser = XMLPushParser(handler: handler, firstBytes: firstBytes, charset: charset, maxExpansionBytes: maxExpansionBytes)
            return
        case .utf8:
            self.charset = charset
        case .transcoded(let declared, let source):
            // What the scanner and libxml2 then read is UTF-8, and says so.
            self.charset = nil
            let transcoder = XMLTranscoder(source) ?? XMLTranscoder(.windows1252)!
            if source == .windows1252 { unknownEncoding = declared }
            firstBytes = firstBytes.withUnsafeBufferPointer { transcoder.transcode($0, final: false) }
            self.transcoder = transcoder
        }
        repair = XMLInputRepair(repairsMarkup: true, repairsUTF8: transcoder == nil)
        scanner = UTF8XMLScanner(handler: handler, countingLines: countingLines)
        feedUTF8(firstBytes, terminate: false)
    }

    /// Reads the next `bytes` of the document; with `terminate`, they are its last.
    func feed(_ bytes: some Collection<UInt8>, terminate: Bool) {
        guard let transcoder else { return feedUTF8(bytes, terminate: terminate) }
        let decoded = bytes.withContiguousStorageIfAvailable { transcoder.transcode($0, final: terminate) }
            ?? Array(bytes).withUnsafeBufferPointer { transcoder.transcode($0, final: terminate) }
        feedUTF8(decoded, terminate: terminate)
    }

    /// Reads the next `bytes` of the document, in UTF-8 unless libxml2 reads it whole.
    private func feedUTF8(_ bytes: some Collection<UInt8>, terminate: Bool) {
        // Repaired here whoever reads them: a parser that took over from the scanner reads
        // them as they come (one made at the start repairs for itself, and this repair is off).
        let repaired = bytes.withContiguousStorageIfAvailable { repair.repair($0, final: terminate) }
            ?? Array(bytes).withUnsafeBufferPointer { repair.repair($0, final: terminate) }
        if let parser {
            if let repaired { parser.feed(repaired, terminate: terminate) } else { parser.feed(bytes, terminate: terminate) }
            return
        }
        guard scanner != nil else { return }
        let handoff: UTF8XMLScanner.Handoff?
        if let repaired {
            handoff = repaired.withUnsafeBufferPointer { scanner!.scan($0, final: terminate) }
        } else {
            handoff = bytes.withContiguousStorageIfAvailable { scanner!.scan($0, final: terminate) }
                ?? Array(bytes).withUnsafeBufferPointer { scanner!.scan($0, final: terminate) }
        }
        guard let handoff else { return }
        self.scanner = nil
        lineOffset = handoff.line - 1 - handoff.replayedLineFeeds
        let parser = XMLPushParser(handler: handler, firstBytes: handoff.bytes, charset: charset, maxExpansionBytes: maxExpansionBytes,
                                   repairing: false, skippingStarts: handoff.skippedStarts, skippingEnds: handoff.skippedEnds)
        self.parser = parser
        if terminate { parser.feed(EmptyCollection<UInt8>(), terminate: true) }
    }

    /// Whether the scanner has read the whole document so far, with no help from libxml2.
    var isScanning: Bool { scanner != nil }

    /// Whether the document is not well-formed: it needed repairs, or libxml2 found errors.
    var isMalformed: Bool {
        repair.repairs > 0 || parser?.isMalformed == true || scanner?.isMalformed == true || unknownEncoding != nil
            || (transcoder?.replacements ?? 0) > 0
    }

    /// The encoding the document was read in because the one it named is unknown, or because
    /// it named none and its bytes are not UTF-8: windows-1252, or `nil`.
    var assumedEncoding: AssumedEncoding? {
        if let unknownEncoding { return AssumedEncoding(declared: unknownEncoding, read: "windows-1252") }
        if repair.isLegacy || parser?.repair.isLegacy == true { return AssumedEncoding(declared: nil, read: "windows-1252") }
        return nil
    }

    /// Set when libxml2 hit a limit or could not be loaded; reading has stopped.
    var failure: FeedParsingError? { parser?.failure }

    /// The line read to, from 1: after the handler stopped the parse, the line of the element
    /// it stopped at. Counted only for a reader made `countingLines` (libxml2 counts always).
    var line: Int {
        if let parser { return lineOffset + parser.line }
        return scanner?.line ?? 1
    }

    /// Whether the scanner reads the document as it is: it is UTF-8 (``XMLEncoding``).
    static func readsAsUTF8(_ firstBytes: [UInt8], charset: String?) -> Bool {
        XMLEncoding.of(firstBytes: firstBytes, charset: charset) == .utf8
    }
}
