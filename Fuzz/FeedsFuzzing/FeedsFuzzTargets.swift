import Feeds
import Foundation
import FuzzSupport

/// The fuzz targets of Feeds' readers of untrusted bytes.
public enum FeedsFuzzTargets {
    public static let all: [FuzzTarget] = [feedParser, xmlDifferential, inputRepair, htmlText, jsonFeed, opml, dates]

    /// ``FeedParser`` on any bytes, whole and in pieces: the same outcome both ways, and every
    /// entry within its invariants (``checkEntries(_:)``).
    public static let feedParser = FuzzTarget(name: "fuzz-feed-parser") { bytes throws(FuzzFinding) in
        let whole = FeedParse(bytes, pieces: [bytes[...]])
        let pieces = FeedParse(bytes, pieces: FuzzPieces.split(bytes))
        try FeedParse.expectSame(whole, pieces, "whole", "in pieces")
        try whole.checkInvariants()
    }

    /// Feeds' own scanner (with its repair) against libxml2 alone, on the same document: where
    /// libxml2 calls the document well-formed, both give the same feed, the same entries, and
    /// call it well-formed.
    public static let xmlDifferential = FuzzTarget(name: "fuzz-xml-differential") { bytes throws(FuzzFinding) in
        var reference = FeedParser.Configuration()
        reference.readsWithLibXML2Only = true
        let libxml2 = FeedParse(bytes, pieces: [bytes[...]], configuration: reference)
        guard case .parsed(_, _, false, nil) = libxml2.outcome, libxml2.format != .json else { return }
        try FeedParse.expectSame(FeedParse(bytes, pieces: [bytes[...]]), libxml2, "the scanner", "libxml2 alone")
    }

    /// ``XMLInputRepair`` on any bytes: the same output whole and in pieces, valid UTF-8 once
    /// it read legacy bytes as windows-1252, and a repaired document needs no second repair.
    public static let inputRepair = FuzzTarget(name: "fuzz-input-repair") { bytes throws(FuzzFinding) in
        let whole = repaired(bytes, pieces: [bytes[...]])
        let pieces = repaired(bytes, pieces: FuzzPieces.split(bytes))
        guard whole.bytes == pieces.bytes, whole.isLegacy == pieces.isLegacy else {
            throw FuzzFinding("the repair differs whole and in pieces: \(describe(whole.bytes)) against \(describe(pieces.bytes))")
        }
        if whole.isLegacy, String(validating: whole.bytes, as: UTF8.self) == nil {
            throw FuzzFinding("a legacy document repaired is not UTF-8: \(describe(whole.bytes))")
        }
        let again = repaired(whole.bytes, pieces: [whole.bytes[...]])
        guard again.repairs == 0 else {
            throw FuzzFinding("a repaired document needs \(again.repairs) more repairs: \(describe(whole.bytes)) became \(describe(again.bytes))")
        }
    }

    /// HTML to text, both ways the reader makes it: ``PlainText/from(html:)`` (titles and
    /// excerpts) is collapsed and trimmed, and made from the start of the markup it is the
    /// start of the whole's text, and every text of ``ArticleDocument`` (the article
    /// view) is safe for a terminal.
    public static let htmlText = FuzzTarget(name: "fuzz-html-text") { bytes throws(FuzzFinding) in
        let html = String(decoding: bytes, as: UTF8.self)
        let plain = PlainText.from(html: html)
        if plain.hasPrefix(" ") || plain.hasSuffix(" ") || plain.contains("  ")
            || plain.unicodeScalars.contains(where: { [0x09, 0x0A, 0x0D, 0xA0].contains($0.value) }) {
            throw FuzzFinding("plain text not collapsed: \(plain.debugDescription.prefix(300))")
        }
        // The text of the markup's start (an excerpt's) is the start of the whole's.
        for characters in [1, 40, 240] {
            let start = PlainText.from(html: html, atLeast: characters)
            guard start == plain || (start.characterCount(exceeds: characters) && plain.starts(with: start)) else {
                throw FuzzFinding("the text of the start, for \(characters) characters, is not the whole's: \(start.debugDescription.prefix(300))")
            }
        }
        let document = ArticleDocument.parse(html: html, base: URL(string: "https://fuzz.example/post/1"))
        for text in document.texts {
            if let hazard = FuzzInvariants.terminalHazard(in: text, singleLine: false) {
                throw FuzzFinding("the article holds \(hazard)")
            }
        }
        for link in document.links where link.scheme == nil {
            throw FuzzFinding("a link of the article is not absolute: \(link)")
        }
    }

    /// JSON Feed through ``FeedParser``: the check of ``feedParser``, on a corpus of JSON
    /// Feeds, so that its mutations stay JSON (``feedParser`` reads any format).
    public static let jsonFeed = FuzzTarget(name: "fuzz-json-feed", check: feedParser.check)

    /// ``OPML/subscriptions(from:url:)`` on any bytes: subscriptions with absolute feed URLs
    /// and safe titles and folders, and a document written from them reads back the same (a
    /// subscription without a title, with its URL for one; grouped by folder).
    public static let opml = FuzzTarget(name: "fuzz-opml") { bytes throws(FuzzFinding) in
        guard let subscriptions = try? OPML.subscriptions(from: bytes, url: URL(string: "https://fuzz.example/list.opml")) else { return }
        for subscription in subscriptions {
            if subscription.feedURL.scheme == nil { throw FuzzFinding("a subscription's URL is not absolute: \(subscription.feedURL)") }
            for text in [subscription.title].compactMap({ $0 }) + subscription.categories {
                if let hazard = FuzzInvariants.terminalHazard(in: text, singleLine: true) {
                    throw FuzzFinding("a subscription holds \(hazard)")
                }
            }
        }
        let written: String
        do {
            written = try OPML.document(for: subscriptions)
        } catch {
            throw FuzzFinding("subscriptions read cannot be written: \(error)")
        }
        // A subscription without a title is written with its URL as the text OPML requires,
        // and reads back with that title.
        func titled(_ list: [Subscription]) -> [Subscription] {
            list.map { var subscription = $0; subscription.title = $0.title ?? $0.feedURL.absoluteString; return subscription }
        }
        // Written grouped by folder: in another order, maybe. Sorted by everything a
        // subscription holds, its folders as a path no folder name can contain (a line feed),
        // and their count: no folder and one untitled folder ("") are two places, which one
        // key for both let trade places (fuzz-opml, the input kept in its corpus).
        func key(_ subscription: Subscription) -> (String, String, Int, String) {
            (subscription.feedURL.absoluteString, subscription.title ?? "", subscription.categories.count,
             subscription.categories.joined(separator: "\n"))
        }
        func sorted(_ list: [Subscription]) -> [Subscription] {
            titled(list).sorted { key($0) < key($1) }
        }
        let reread = try? OPML.subscriptions(from: Array(written.utf8))
        guard reread.map(sorted) == sorted(subscriptions) else {
            throw FuzzFinding("OPML written from \(subscriptions) reads back as \(reread.map { "\($0)" } ?? "an error")")
        }
    }

    /// ``FeedDate/parse(_:)`` on any text: a date in years 1 to 9999 or `nil`, and a date it
    /// reads, written as RFC 3339, reads back as the same instant.
    public static let dates = FuzzTarget(name: "fuzz-dates") { bytes throws(FuzzFinding) in
        let text = String(decoding: bytes, as: UTF8.self)
        guard let date = FeedDate.parse(text) else { return }
        try FeedParse.checkDate(date, "\(text.debugDescription.prefix(200))")
        let written = FeedDate.rfc3339(date)
        guard let reread = FeedDate.parse(written), abs(reread.timeIntervalSince(date)) < 1 else {
            throw FuzzFinding("\(text.debugDescription.prefix(200)) read as \(date.timeIntervalSince1970), written \(written), which reads back as \(FeedDate.parse(written).map { "\($0.timeIntervalSince1970)" } ?? "nothing")")
        }
    }

    private static func repaired(_ bytes: [UInt8], pieces: [ArraySlice<UInt8>]) -> (bytes: [UInt8], isLegacy: Bool, repairs: Int) {
        var repair = XMLInputRepair(firstBytes: Array(bytes.prefix(256)), charset: nil)
        var out: [UInt8] = []
        for (index, piece) in pieces.enumerated() {
            let final = index == pieces.count - 1
            let result = piece.withUnsafeBufferPointer { repair.repair($0, final: final) }
            if let result { out += result } else { out += piece }
        }
        if pieces.isEmpty, let result = repair.repair(UnsafeBufferPointer(start: nil, count: 0), final: true) { out += result }
        return (out, repair.isLegacy, repair.repairs)
    }

    /// An entry as the reader may show it: an id, safe single-line and multi-line fields,
    /// absolute links, and dates within years 1 to 9999.
    public static func checkEntry(_ entry: FeedEntry) throws(FuzzFinding) {
        guard !entry.id.isEmpty else { throw FuzzFinding("an entry has no id: \(entry)") }
        for text in [entry.id, entry.title] + [entry.author].compactMap({ $0 }) + entry.categories + entry.enclosures.compactMap(\.type) {
            if let hazard = FuzzInvariants.terminalHazard(in: text, singleLine: true) { throw FuzzFinding("an entry holds \(hazard)") }
        }
        for text in [entry.summary, entry.content].compactMap({ $0 }) {
            if let hazard = FuzzInvariants.terminalHazard(in: text, singleLine: false) { throw FuzzFinding("an entry's text holds \(hazard)") }
        }
        for url in [entry.link, entry.thumbnail].compactMap({ $0 }) + entry.enclosures.map(\.url) where url.scheme == nil {
            throw FuzzFinding("an entry's link is not absolute: \(url)")
        }
        for date in [entry.published, entry.updated].compactMap({ $0 }) {
            try FeedParse.checkDate(date, "entry \(entry.id.debugDescription)")
        }
    }

    static func describe(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription + (bytes.count > 300 ? "… (\(bytes.count) bytes)" : "")
    }
}

extension ArticleDocument {
    /// Every text the article view shows.
    var texts: [String] {
        blocks.flatMap { block -> [String] in
            switch block {
            case .heading(_, let spans), .paragraph(let spans, _), .listItem(_, _, let spans): spans.map(\.text)
            case .code(let text): [text]
            case .image(_, let alt): [alt]
            case .tableRow(let cells, _): cells
            case .rule: []
            }
        }
    }
}

/// One parse of a document by ``FeedParser``, fed the given pieces.
struct FeedParse {
    enum Outcome: Equatable {
        case parsed([FeedEntry], FeedInfo, Bool, AssumedEncoding?)
        case failed(String)
    }

    var outcome: Outcome
    var format: FeedFormat?

    init(_ bytes: [UInt8], pieces: [ArraySlice<UInt8>], configuration: FeedParser.Configuration = FeedParser.Configuration()) {
        var parser = FeedParser(url: URL(string: "https://fuzz.example/feed"), configuration: configuration)
        var entries: [FeedEntry] = []
        do {
            for piece in pieces {
                for batch in try parser.consume(piece) { entries += batch }
            }
            format = parser.info?.format
            let end = try parser.finish()
            format = end.info.format
            outcome = .parsed(entries + end.entries, end.info, end.isMalformed, end.assumedEncoding)
        } catch {
            outcome = .failed(error.description)
        }
    }

    static func expectSame(_ one: FeedParse, _ other: FeedParse, _ oneName: String, _ otherName: String) throws(FuzzFinding) {
        switch (one.outcome, other.outcome) {
        case (.failed(let a), .failed(let b)):
            guard a == b else { throw FuzzFinding("\(oneName) fails with \(a); \(otherName) with \(b)") }
        case (.parsed(let a, let aInfo, let aMalformed, let aEncoding), .parsed(let b, let bInfo, let bMalformed, let bEncoding)):
            guard a.count == b.count else {
                throw FuzzFinding("\(oneName) gives \(a.count) entries, \(otherName) \(b.count): \(a.map(\.id)) against \(b.map(\.id))")
            }
            if let index = a.indices.first(where: { a[$0] != b[$0] }) {
                throw FuzzFinding("entry \(index) differs: \(oneName) \(a[index]); \(otherName) \(b[index])")
            }
            guard aInfo == bInfo else { throw FuzzFinding("the feed differs: \(oneName) \(aInfo); \(otherName) \(bInfo)") }
            guard aMalformed == bMalformed else {
                throw FuzzFinding("\(oneName) calls it \(aMalformed ? "malformed" : "well-formed"), \(otherName) does not")
            }
            guard aEncoding == bEncoding else { throw FuzzFinding("the encoding assumed differs: \(String(describing: aEncoding)) against \(String(describing: bEncoding))") }
        case (.failed(let error), .parsed(let entries, _, _, _)):
            throw FuzzFinding("\(oneName) fails with \(error); \(otherName) reads \(entries.count) entries")
        case (.parsed(let entries, _, _, _), .failed(let error)):
            throw FuzzFinding("\(oneName) reads \(entries.count) entries; \(otherName) fails with \(error)")
        }
    }

    /// Every entry within ``FeedsFuzzTargets/checkEntry(_:)``; the feed's own fields safe too.
    func checkInvariants() throws(FuzzFinding) {
        guard case .parsed(let entries, let info, _, _) = outcome else { return }
        for text in [info.title].compactMap({ $0 }) {
            if let hazard = FuzzInvariants.terminalHazard(in: text, singleLine: true) { throw FuzzFinding("the feed's title holds \(hazard)") }
        }
        if let description = info.description, let hazard = FuzzInvariants.terminalHazard(in: description, singleLine: false) {
            throw FuzzFinding("the feed's description holds \(hazard)")
        }
        for entry in entries { try FeedsFuzzTargets.checkEntry(entry) }
    }

    /// Years 1 to 9999 (what RFC 3339 can write) and finite.
    static func checkDate(_ date: Date, _ whose: String) throws(FuzzFinding) {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, seconds >= -62_135_596_800, seconds <= 253_402_300_799 else {
            throw FuzzFinding("\(whose): a date outside years 1–9999: \(seconds)")
        }
    }
}
