import Foundation

/// OPML 1.0 and 2.0 subscription lists: import and export, as pure functions.
public enum OPML {
    /// The most bytes of OPML read; a list of thousands of feeds is well under a megabyte.
    public static let maxDocumentBytes = 16 << 20

    /// The deepest that categories nest: folders inside folders, as import reads them and
    /// export writes them. Feed readers nest folders one to three levels deep. Each feed
    /// carries the names of the folders around it, so what an import keeps grows with feeds ×
    /// depth: a 16 MB document of 250,000 feeds 32 folders deep peaks near 300 MB.
    public static let maxCategoryDepth = 32

    /// The subscriptions in an OPML document: every `outline` with an `xmlUrl`, in document
    /// order, with the titles of the outlines around it as its categories. Relative feed URLs
    /// resolve against `url`. Outlines without a usable `xmlUrl` are folders.
    ///
    /// - Throws: ``OPMLError`` when the document is not OPML or not XML at all, or when its
    ///   folders nest deeper than ``maxCategoryDepth``.
    /// - Complexity: O(n) in the document's size.
    public static func subscriptions(from bytes: [UInt8], url: URL? = nil) throws(OPMLError) -> [Subscription] {
        guard bytes.count <= maxDocumentBytes else { throw .unreadable(reason: "larger than \(maxDocumentBytes) bytes") }
        let reader = OPMLReader(baseURL: url)
        let parser = XMLReader(handler: reader, firstBytes: bytes, charset: nil, maxExpansionBytes: 1 << 20, countingLines: true)
        parser.feed(EmptyCollection(), terminate: true)
        if reader.isTooDeep { throw .foldersTooDeep(line: parser.line, limit: maxCategoryDepth) }
        if let failure = parser.failure { throw .unreadable(reason: failure.description) }
        guard let root = reader.rootElement else { throw .unreadable(reason: "no root element") }
        guard root == "opml" else { throw .notOPML(rootElement: root) }
        return reader.subscriptions
    }

    /// An OPML 2.0 document listing `subscriptions`, each inside nested outlines for its
    /// categories; folders appear in the order their first subscription does.
    ///
    /// Neither building the folders nor writing them recurses, and a line is indented by at
    /// most ``maxCategoryDepth`` levels.
    ///
    /// - Throws: ``OPMLError/categoryTooDeep(feedURL:depth:limit:)`` for a subscription in
    ///   more than ``maxCategoryDepth`` nested categories, which import would refuse.
    /// - Complexity: O(n · d) for n subscriptions in folders d deep.
    public static func document(for subscriptions: [Subscription], title: String = "Scrollwork subscriptions") throws(OPMLError) -> String {
        var tree = OutlineTree()
        for subscription in subscriptions {
            guard subscription.categories.count <= maxCategoryDepth else {
                throw .categoryTooDeep(feedURL: subscription.feedURL, depth: subscription.categories.count, limit: maxCategoryDepth)
            }
            tree.insert(subscription)
        }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<opml version="2.0">"#,
            "  <head><title>\(escaped(title))</title></head>",
            "  <body>",
        ]
        tree.write(into: &lines)
        lines += ["  </body>", "</opml>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` escaped for an XML attribute or element.
    static func escaped(_ text: String) -> String {
        PlainText.escapedMarkup(text, escapingNewlines: true)
    }

    /// The folders of an export and what each holds, in order: one array of folders that refer
    /// to each other by index, so that neither building nor writing it recurses.
    private struct OutlineTree {
        enum Item {
            case feed(Subscription)
            case folder(Int)
        }

        struct Folder {
            var name: String
            var items: [Item] = []
            var children: [String: Int] = [:]
        }

        /// The folders; the first is the document's body.
        private var folders = [Folder(name: "")]

        mutating func insert(_ subscription: Subscription) {
            var current = 0
            for name in subscription.categories {
                if let child = folders[current].children[name] {
                    current = child
                    continue
                }
                folders.append(Folder(name: name))
                folders[current].children[name] = folders.count - 1
                folders[current].items.append(.folder(folders.count - 1))
                current = folders.count - 1
            }
            folders[current].items.append(.feed(subscription))
        }

        /// Appends the outlines, depth first, indented inside `<body>`.
        func write(into lines: inout [String]) {
            // The open folders, outermost first, each with the index of its next item.
            var open = [(folder: 0, next: 0)]
            while let (index, next) = open.last.map({ ($0.folder, $0.next) }) {
                let pad = String(repeating: "  ", count: open.count + 1)
                guard next < folders[index].items.count else {
                    open.removeLast()
                    if !open.isEmpty { lines.append(String(repeating: "  ", count: open.count + 1) + "</outline>") }
                    continue
                }
                open[open.count - 1].next += 1
                switch folders[index].items[next] {
                case .feed(let feed):
                    var attributes = #"type="rss""#
                    let title = escaped(feed.title ?? feed.feedURL.absoluteString)
                    attributes += #" text="\#(title)" title="\#(title)" xmlUrl="\#(escaped(feed.feedURL.absoluteString))""#
                    if let site = feed.siteURL { attributes += #" htmlUrl="\#(escaped(site.absoluteString))""# }
                    lines.append("\(pad)<outline \(attributes)/>")
                case .folder(let child):
                    let name = escaped(folders[child].name)
                    lines.append("\(pad)<outline text=\"\(name)\" title=\"\(name)\">")
                    open.append((child, 0))
                }
            }
        }
    }
}

/// Collects subscriptions from OPML's SAX events.
private final class OPMLReader: XMLEventHandling {
    let baseURL: URL?
    private(set) var rootElement: String?
    private(set) var subscriptions: [Subscription] = []
    /// Whether folders nested deeper than ``OPML/maxCategoryDepth``; the parse stops there.
    private(set) var isTooDeep = false
    /// The names of the open folders, outermost first: the categories of a feed inside them.
    private var folders: [String] = []
    /// One entry per open `outline`: whether it is a folder (or a feed).
    private var outlineIsFolder: [Bool] = []

    init(baseURL: URL?) { self.baseURL = baseURL }

    var wantsStop: Bool { isTooDeep || rootElement.map { $0 != "opml" } ?? false }

    func startElement(_ name: String, namespace: XMLNamespace, attributes: [XMLAttribute]) {
        if rootElement == nil { rootElement = name }
        guard name == "outline", !isTooDeep else { return }
        // Text goes through FeedText here, once per outline: a folder's name is then shared by
        // every feed inside it, not copied for each.
        // Sanitised before its whitespace is collapsed: a control character removed between
        // spaces, or before the first word, leaves none doubled or leading.
        let text = (attributes["title"] ?? attributes["text"]).map { PlainText.collapsingWhitespace(FeedText.line($0)) }.flatMap { $0.isEmpty ? nil : $0 }
        if let feedURL = attributes["xmlUrl"].flatMap({ URLResolver.resolve($0, against: baseURL) }) {
            subscriptions.append(Subscription(
                feedURL: feedURL, title: text, siteURL: attributes["htmlUrl"].flatMap { URLResolver.resolve($0, against: baseURL) },
                categories: folders
            ))
            outlineIsFolder.append(false)
        } else if folders.count == OPML.maxCategoryDepth {
            isTooDeep = true
        } else {
            folders.append(text ?? "")
            outlineIsFolder.append(true)
        }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {}

    func endElement(_ name: String, namespace: XMLNamespace) {
        guard name == "outline", let isFolder = outlineIsFolder.popLast() else { return }
        if isFolder { folders.removeLast() }
    }
}
