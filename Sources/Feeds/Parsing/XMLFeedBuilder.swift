import Foundation

/// Turns the SAX events of an RSS or Atom document into ``FeedInfo`` and batches of
/// ``FeedEntry``: the ``XMLPushParser``'s handler, around an ``XMLFeedReading`` that does the
/// work.
///
/// The reading is a value behind a pointer the builder owns, so an event reaches it with no
/// run-time check. As a class of its own, every field of the reading would be a class
/// property, and Swift checks each access to those for exclusivity: the checks were 7% of a
/// parse, about as much as all the text handling; as one stored property, the check of each
/// event was still 2% of a podcast feed's parse. The builder is used from one thread at a
/// time and never hands the pointer out, so no two accesses can overlap.
final class XMLFeedBuilder: XMLEventHandling {
    private let storage: UnsafeMutablePointer<XMLFeedReading>

    init(feedURL: URL?, batchSize: Int, maxFieldBytes: Int) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: XMLFeedReading(feedURL: feedURL, batchSize: batchSize, maxFieldBytes: maxFieldBytes))
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    var info: FeedInfo { storage.pointee.info }
    var sawRoot: Bool { storage.pointee.sawRoot }
    var isHTML: Bool { storage.pointee.isHTML }
    var failure: FeedParsingError? { storage.pointee.failure }
    var pendingCount: Int { storage.pointee.pending.count }
    var wantsStop: Bool { storage.pointee.wantsStop }

    func startElement(_ name: String, namespace: XMLNamespace, attributes: [XMLAttribute]) {
        storage.pointee.startElement(name, namespace: namespace, attributes: attributes)
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) { storage.pointee.characters(text) }

    func endElement(_ name: String, namespace: XMLNamespace) { storage.pointee.endElement(name, namespace: namespace) }

    /// Ends the document: an entry left open by a truncated or broken document is kept,
    /// without the field it broke off in.
    func finishDocument() { storage.pointee.finishDocument() }

    /// The batches completed since the last call.
    func takeBatches() -> [[FeedEntry]] { storage.pointee.takeBatches() }

    /// The last, partial batch; call once the document has ended.
    func takeRemainder() -> [FeedEntry] { storage.pointee.takeRemainder() }
}

/// What the SAX events of an RSS or Atom document have said so far: ``FeedInfo``, the entry
/// being read and the batch being filled, and nothing more.
///
/// Fields are taken only where their format puts them (an entry's `title` is a child of the
/// entry, not of an Atom `source` or an RSS `image`), elements are matched by namespace URI,
/// and `xml:base` is tracked per element for resolving links.
struct XMLFeedReading {
    private let batchSize: Int
    let maxFieldBytes: Int

    /// What the feed says about itself so far; the format is settled by the root element.
    var info = FeedInfo(format: .rss2)
    /// Whether a root element was seen.
    private(set) var sawRoot = false
    /// Whether the root element is `html`: a web page, not a feed.
    private(set) var isHTML = false
    /// Set when the document is recognizably not a feed.
    private(set) var failure: FeedParsingError?

    var feedIconIsLogo = false
    /// Whether the feed's title so far is its Dublin Core title, which its own title replaces.
    var feedTitleIsFallback = false
    var feedAuthor: String?
    var stack: [Frame] = []
    /// The base URLs in effect, the innermost last; never empty.
    private var bases: [Base]
    var entry: EntryDraft?
    var entryDepth = 0
    var capture: Capture?
    /// The text of `capture` so far; see ``Capture``.
    var captured: [UInt8] = []
    /// Entries of the batch being filled, fewer than `batchSize`.
    private(set) var pending: [FeedEntry] = []
    private var ready: [[FeedEntry]] = []

    /// The namespace of a root that declares one no format here knows (an `rss` root in the
    /// UserLand namespace, an Atom draft's `feed`), and what its elements are read as.
    private var rootAlias: (namespace: XMLNamespace, readAs: XMLNamespace)?
    /// RSS element names as written (`TiTlE`) to the spelling the builder matches
    /// (`title`): RSS readers have never been strict about case.
    private var rssNames: [String: String] = [:]

    var wantsStop: Bool { failure != nil || isHTML }

    init(feedURL: URL?, batchSize: Int, maxFieldBytes: Int) {
        bases = [Base(depth: 0, url: feedURL, isLocal: feedURL?.isFileURL ?? true)]
        self.batchSize = batchSize
        self.maxFieldBytes = maxFieldBytes
    }

    /// The batches completed since the last call.
    mutating func takeBatches() -> [[FeedEntry]] {
        defer { ready = [] }
        return ready
    }

    /// The last, partial batch; call once the document has ended.
    mutating func takeRemainder() -> [FeedEntry] {
        defer { pending = [] }
        return pending
    }

    // MARK: Events

    mutating func startElement(_ name: String, namespace: XMLNamespace, attributes: [XMLAttribute]) {
        if stack.count == 1, rootAlias == nil, stack[0].name == "RDF", case .other(let uri) = namespace,
           ["channel", "item", "image", "textinput"].contains(name.lowercased()) {
            // RSS 0.90 or 1.0 under a variant of its namespace (another of Netscape's, a
            // missing slash): its elements are that vocabulary's, which would otherwise be read
            // as nothing at all.
            let isRSS090 = uri.contains("0.9")
            rootAlias = (namespace, isRSS090 ? .rss090 : .rss1)
            if isRSS090 { info.format = .rss09 }
        }
        let (name, namespace) = normalized(name, namespace)
        stack.append(Frame(name: name, namespace: namespace))
        let depth = stack.count
        if let xmlBase = attributes.first(where: { $0.name == "base" && $0.namespace == .xml }) {
            let parentBase = base
            let base = URLResolver.resolve(xmlBase.value, against: parentBase) ?? parentBase
            bases.append(Base(depth: depth, url: base, isLocal: base?.isFileURL ?? true))
        }
        let startsEntry = (name == "item" && namespace.isRSS) || (name == "entry" && namespace.isAtom)
        // An entry never contains an entry: one opening inside another means the document is
        // broken (an unclosed tag before it), and recovery reads best as "the last one ended".
        if startsEntry, entry != nil || capture != nil { closeOpenEntry() }

        if let mode = capture?.mode {
            if mode == .xhtml, !capture!.isWrapper(name, namespace: namespace, depth: depth) {
                capture!.appendStartTag(name, attributes: attributes, to: &captured, limit: maxFieldBytes)
            }
            return
        }
        if depth == 1 {
            startRoot(name, namespace: namespace, attributes: attributes)
            return
        }
        if info.format == .rss1, namespace == .rss090 { info.format = .rss09 }
        if entry == nil {
            if startsEntry {
                entry = EntryDraft(base: base)
                entry?.guid = attributes.first { $0.name == "about" && $0.namespace == .rdf }?.value
                entryDepth = depth
            } else {
                startFeedField(name, namespace: namespace, attributes: attributes)
            }
        } else {
            startEntryField(name, namespace: namespace, attributes: attributes, depth: depth)
        }
    }

    mutating func characters(_ text: UnsafeBufferPointer<UInt8>) {
        guard capture != nil else { return }
        capture!.append(text, to: &captured, limit: maxFieldBytes)
    }

    mutating func endElement(_ name: String, namespace: XMLNamespace) {
        let (name, namespace) = normalized(name, namespace)
        let depth = stack.count
        if let capture {
            if depth == capture.depth {
                self.capture = nil
                finish(capture)
            } else if capture.mode == .xhtml, !capture.isWrapper(name, namespace: namespace, depth: depth) {
                self.capture!.appendEndTag(name, to: &captured, limit: maxFieldBytes)
            }
        } else if entry != nil, depth == entryDepth {
            closeOpenEntry()
        }
        if bases[bases.count - 1].depth == depth { bases.removeLast() }
        stack.removeLast()
    }

    /// Ends the document: an entry left open by a truncated or broken document is kept,
    /// without the field it broke off in.
    ///
    /// That field is dropped rather than kept cut short: how much of its text arrived before
    /// the break depends on how the bytes were split (libxml2 hands out a long text in pieces
    /// as they arrive, but a character data section that holds the break, read whole, not at
    /// all), and a feed reads the same however its bytes arrive.
    mutating func finishDocument() {
        capture = nil
        closeOpenEntry()
    }

    /// Finishes the field and the entry being read, if any, and queues the entry.
    private mutating func closeOpenEntry() {
        if let capture {
            self.capture = nil
            finish(capture)
        }
        // Moved out, not copied: the draft's fields go into the entry without a retain each.
        guard let entry = entry.take() else { return }
        pending.append(entry.entry(feedAuthor: feedAuthor))
        if pending.count == batchSize {
            ready.append(pending)
            pending = []
        }
    }

    // MARK: Root

    /// The name and namespace an element is read as: the root's unknown namespace as the
    /// format it stands for, and RSS names in their usual case.
    private mutating func normalized(_ name: String, _ namespace: XMLNamespace) -> (String, XMLNamespace) {
        var namespace = namespace
        if let rootAlias, namespace == rootAlias.namespace { namespace = rootAlias.readAs }
        guard namespace.isRSS, !Self.isUsualSpelling(name) else { return (name, namespace) }
        if let known = rssNames[name] { return (known, namespace) }
        let spelled = Self.rssSpellings[name.lowercased()] ?? name
        rssNames[name] = spelled
        return (spelled, namespace)
    }

    /// Whether `name` is spelled as RSS spells it, or is no RSS name at all, without hashing:
    /// almost every element of almost every feed, checked on its bytes.
    private static func isUsualSpelling(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            let hasUpper = bytes.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
            // Only the three names RSS spells with capitals need a closer look; the lengths
            // tell them apart from nearly every other name without comparing a string.
            let spelled: StaticString
            switch bytes.count {
            case 3: spelled = hasUpper ? "RDF" : "rdf"
            case 7: spelled = hasUpper ? "pubDate" : "pubdate"
            case 13: spelled = hasUpper ? "lastBuildDate" : "lastbuilddate"
            default: return !hasUpper
            }
            let same = memcmp(bytes.baseAddress!, spelled.utf8Start, bytes.count) == 0
            return hasUpper ? same : !same
        }
    }

    /// RSS element names by their lowercase form.
    private static let rssSpellings: [String: String] = Dictionary(uniqueKeysWithValues: [
        "rss", "channel", "item", "title", "link", "description", "guid", "pubDate", "lastBuildDate", "author",
        "category", "enclosure", "image", "url", "RDF",
    ].map { ($0.lowercased(), $0) })

    private mutating func startRoot(_ name: String, namespace: XMLNamespace, attributes: [XMLAttribute]) {
        sawRoot = true
        switch (name, namespace) {
        case ("rss", _):
            let version = attributes["version"] ?? ""
            info.format = version.hasPrefix("0.9") ? .rss09 : .rss2
            // UserLand's and Harvard's RSS 2.0 namespaces, or any other: its elements are RSS.
            if case .other = namespace { rootAlias = (namespace, .none) }
        case ("RDF", .rdf), ("RDF", .rss1), ("RDF", .none): info.format = .rss1
        case ("RDF", .rss090): info.format = .rss09
        case ("Channel", .rss11), ("channel", .rss11): info.format = .rss1
        case ("feed", .atom): info.format = .atom1
        case ("feed", .atom03): info.format = .atom03
        case ("feed", _) where (attributes["version"] ?? "").hasPrefix("0."):
            // Drafts before Atom 0.3 (`http://purl.org/echo/` and others) read as 0.3.
            info.format = .atom03
            rootAlias = (namespace, .atom03)
        case ("feed", _):
            // Atom without its namespace, or with it misspelt (`…/2005/atom`): its elements are
            // Atom 1.0's.
            info.format = .atom1
            rootAlias = (namespace, .atom)
        case ("entry", _):
            // An Atom entry document: a feed of one entry, read as such.
            info.format = .atom1
            if !namespace.isAtom { rootAlias = (namespace, .atom) }
            entry = EntryDraft(base: base)
            entryDepth = 1
        case _ where name.lowercased() == "html": isHTML = true
        default: failure = .notAFeed(rootElement: name)
        }
        // The root's own frame reads as the format too, so its children know their parent.
        if let rootAlias, !stack.isEmpty { stack[stack.count - 1].namespace = rootAlias.readAs }
    }

    /// An open element: its name and namespace.
    struct Frame {
        var name: String
        var namespace: XMLNamespace
    }

    /// A base URL in effect from an element on: the feed's URL from the root, then an
    /// `xml:base`'s. Kept apart from the elements, as few change it: an element that does not
    /// costs no copy of a URL.
    struct Base {
        /// The depth of the element that set it (0 for the feed's URL).
        var depth: Int
        var url: URL?
        /// Whether `url` is missing or a file.
        var isLocal: Bool
    }

    /// The base URL inside the innermost open element.
    ///
    /// A feed read from a file has no web address of its own: relative links are meant
    /// against the site, so once the feed's link (never a file) is known it serves as the base
    /// wherever the base would be the file.
    var base: URL? { base(at: innermostBaseLevel) }

    /// Where the innermost open element's base URL is in the stack of them.
    var innermostBaseLevel: Int { bases.count - 1 }

    /// The base URL at `level` of the stack of them (see ``base``).
    func base(at level: Int) -> URL? {
        let base = bases[level]
        if base.isLocal, let site = info.link { return site }
        return base.url
    }
}
