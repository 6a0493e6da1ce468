import Foundation

/// The state of one parse behind ``FeedParser``: first sniffing the kind of document, then
/// streaming XML, or buffering JSON or HTML.
///
/// Everything it hands out, whatever the format, has passed through ``FeedText``: this is
/// the one door between the format builders and the rest of the program.
final class FeedStream {
    private enum Mode {
        /// Not enough bytes yet to tell XML from JSON or HTML.
        case sniffing([UInt8])
        /// XML, streaming. The bytes so far are kept until the root element shows it is not HTML.
        case xml(XMLReader, XMLFeedBuilder, bytesBeforeRoot: [UInt8]?)
        case json([UInt8])
        case html([UInt8])
        case failed(FeedParsingError)
    }

    /// Enough to see past a byte order mark, an XML declaration and an HTML doctype.
    private static let sniffLength = XMLEncoding.declarationWindow

    private let url: URL?
    private let charset: String?
    private let configuration: FeedParser.Configuration
    private var mode: Mode = .sniffing([])
    private var byteCount = 0

    init(url: URL?, charset: String?, configuration: FeedParser.Configuration) {
        self.url = url
        self.charset = charset
        self.configuration = configuration
    }

    var info: FeedInfo? {
        guard case .xml(_, let builder, _) = mode, builder.sawRoot, !builder.isHTML else { return nil }
        return builder.info.sanitized()
    }

    var bufferedEntryCount: Int {
        guard case .xml(_, let builder, _) = mode else { return 0 }
        return builder.pendingCount
    }

    func consume(_ bytes: some Collection<UInt8>) throws(FeedParsingError) -> [[FeedEntry]] {
        var batches = try consumeUnsanitized(bytes)
        for batch in batches.indices {
            for entry in batches[batch].indices { batches[batch][entry].sanitize() }
        }
        return batches
    }

    func finish() throws(FeedParsingError) -> FeedParser.Completion {
        var completion = try finishUnsanitized()
        completion.info = completion.info.sanitized()
        for entry in completion.entries.indices { completion.entries[entry].sanitize() }
        return completion
    }

    private func consumeUnsanitized(_ bytes: some Collection<UInt8>) throws(FeedParsingError) -> [[FeedEntry]] {
        byteCount += bytes.count
        guard byteCount <= configuration.maxFeedBytes else { throw fail(.feedTooLarge(limit: configuration.maxFeedBytes)) }
        switch mode {
        case .sniffing(var prefix):
            prefix.append(contentsOf: bytes)
            if prefix.count < Self.sniffLength {
                mode = .sniffing(prefix)
                return []
            }
            return try start(prefix)
        case .xml(let parser, let builder, var bytesBeforeRoot):
            bytesBeforeRoot?.append(contentsOf: bytes)
            mode = .xml(parser, builder, bytesBeforeRoot: bytesBeforeRoot)
            parser.feed(bytes, terminate: false)
            return try afterFeeding(parser, builder)
        case .json(var buffer):
            buffer.append(contentsOf: bytes)
            mode = .json(buffer)
            return []
        case .html(var buffer):
            buffer.append(contentsOf: bytes)
            mode = .html(buffer)
            return []
        case .failed(let error):
            throw error
        }
    }

    private func finishUnsanitized() throws(FeedParsingError) -> FeedParser.Completion {
        // Batches completed by the last bytes (a short document is only parsed now) have not
        // been delivered: they belong to the completion, ahead of the remainder.
        var undelivered: [FeedEntry] = []
        if case .sniffing(let prefix) = mode {
            guard prefix.contains(where: { !XMLBytes.isSpace($0) }) else { throw fail(.unreadable(reason: "the document is empty")) }
            undelivered += try start(prefix).joined()
        }
        switch mode {
        case .sniffing: preconditionFailure("sniffing ends when the document does")
        case .xml(let parser, let builder, _):
            parser.feed(EmptyCollection(), terminate: true)
            undelivered += try afterFeeding(parser, builder).joined()
            // An HTML root that only the last bytes brought (libxml2 holds back a start tag
            // until it sees what follows) is a page, as one seen sooner is.
            if case .html(let buffer) = mode { throw fail(htmlPage(buffer)) }
            guard builder.sawRoot else { throw fail(.unreadable(reason: "no root element")) }
            builder.finishDocument()
            var entries = undelivered
            entries += builder.takeBatches().joined()
            entries += builder.takeRemainder()
            return FeedParser.Completion(info: builder.info, entries: entries, isMalformed: parser.isMalformed,
                                         assumedEncoding: parser.assumedEncoding)
        case .json(let buffer):
            let feed = try JSONFeedDecoder.decode(buffer, url: url, maxFieldBytes: configuration.maxFieldBytes)
            return FeedParser.Completion(info: feed.info, entries: feed.entries, isMalformed: false)
        case .html(let buffer):
            throw fail(htmlPage(buffer))
        case .failed(let error):
            throw error
        }
    }

    /// Decides what the document is from its first bytes and starts parsing it.
    private func start(_ prefix: [UInt8]) throws(FeedParsingError) -> [[FeedEntry]] {
        switch DocumentKind.sniff(prefix) {
        case .json:
            mode = .json(prefix)
            return []
        case .html:
            mode = .html(prefix)
            return []
        case .xml:
            let builder = XMLFeedBuilder(feedURL: url, batchSize: configuration.batchSize, maxFieldBytes: configuration.maxFieldBytes)
            let parser = XMLReader(handler: builder, firstBytes: prefix, charset: charset,
                                   maxExpansionBytes: configuration.maxEntityExpansionBytes, libxml2Only: configuration.readsWithLibXML2Only)
            mode = .xml(parser, builder, bytesBeforeRoot: prefix)
            return try afterFeeding(parser, builder)
        }
    }

    private func afterFeeding(_ parser: XMLReader, _ builder: XMLFeedBuilder) throws(FeedParsingError) -> [[FeedEntry]] {
        if let failure = parser.failure ?? builder.failure { throw fail(failure) }
        if case .xml(_, _, let bytesBeforeRoot?) = mode {
            if builder.isHTML {
                mode = .html(bytesBeforeRoot)
                return []
            }
            if builder.sawRoot { mode = .xml(parser, builder, bytesBeforeRoot: nil) }
        }
        return builder.takeBatches()
    }

    /// The error for an HTML page whose bytes so far are `buffer`, with the feeds it links.
    private func htmlPage(_ buffer: [UInt8]) -> FeedParsingError {
        .htmlPage(feedLinks: FeedLinkScanner.feedLinks(in: buffer, pageURL: url))
    }

    private func fail(_ error: FeedParsingError) -> FeedParsingError {
        mode = .failed(error)
        return error
    }
}

/// What a document is, from its first bytes.
enum DocumentKind {
    case xml, json, html

    /// JSON starts with `{`; HTML with an HTML doctype (an XHTML or doctype-less page is
    /// caught later, by its root element); anything else is tried as XML.
    static func sniff(_ prefix: [UInt8]) -> DocumentKind {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop(while: XMLBytes.isSpace)
        if bytes.first == UInt8(ascii: "{") { return .json }
        let start = String(decoding: bytes.prefix(14), as: UTF8.self).lowercased()
        return start == "<!doctype html" ? .html : .xml
    }
}
