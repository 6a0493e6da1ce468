import Foundation

/// OPML 1.0 and 2.0 subscription lists: import and export, as pure functions.
public enum OPML {
    /// The most bytes of OPML read; a list of thousands of feeds is well under a megabyte.
    public static let maxDocumentBytes = 16 << 20

    /// The subscriptions in an OPML document: every `outline` with an `xmlUrl`, in document
    /// order, with the titles of the outlines around it as its categories. Relative feed URLs
    /// resolve against `url`. Outlines without a usable `xmlUrl` are folders.
    ///
    /// - Throws: ``OPMLError`` when the document is not OPML or not XML at all.
    /// - Complexity: O(n) in the document's size.
    public static func subscriptions(from bytes: [UInt8], url: URL? = nil) throws(OPMLError) -> [Subscription] {
        guard bytes.count <= maxDocumentBytes else { throw .unreadable(reason: "larger than \(maxDocumentBytes) bytes") }
        let reader = OPMLReader(baseURL: url)
        let parser = XMLPushParser(handler: reader, firstBytes: bytes, charset: nil, maxExpansionBytes: 1 << 20)
        parser.feed(EmptyCollection(), terminate: true)
        if let failure = parser.failure { throw .unreadable(reason: failure.description) }
        guard let root = reader.rootElement else { throw .unreadable(reason: "no root element") }
        guard root == "opml" else { throw .notOPML(rootElement: root) }
        return reader.subscriptions.map { $0.sanitized() }
    }

    /// An OPML 2.0 document listing `subscriptions`, each inside nested outlines for its
    /// categories; folders appear in the order their first subscription does.
    ///
    /// - Complexity: O(n · d) for n subscriptions in folders d deep.
    public static func document(for subscriptions: [Subscription], title: String = "Scrollwork subscriptions") -> String {
        var root = Folder(name: "")
        for subscription in subscriptions { root.insert(subscription, path: subscription.categories[...]) }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<opml version="2.0">"#,
            "  <head><title>\(escaped(title))</title></head>",
            "  <body>",
        ]
        root.write(into: &lines, indent: 2)
        lines += ["  </body>", "</opml>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` escaped for an XML attribute or element.
    static func escaped(_ text: String) -> String {
        PlainText.escapedMarkup(text, escapingNewlines: true)
    }

    /// A category and what it holds, in order.
    private struct Folder {
        enum Item {
            case feed(Subscription)
            case folder(Int)
        }

        var name: String
        var items: [Item] = []
        var folders: [Folder] = []

        mutating func insert(_ subscription: Subscription, path: ArraySlice<String>) {
            guard let first = path.first else {
                items.append(.feed(subscription))
                return
            }
            if let index = folders.firstIndex(where: { $0.name == first }) {
                folders[index].insert(subscription, path: path.dropFirst())
            } else {
                folders.append(Folder(name: first))
                items.append(.folder(folders.count - 1))
                folders[folders.count - 1].insert(subscription, path: path.dropFirst())
            }
        }

        func write(into lines: inout [String], indent: Int) {
            let pad = String(repeating: "  ", count: indent)
            for item in items {
                switch item {
                case .feed(let feed):
                    var attributes = #"type="rss""#
                    let title = escaped(feed.title ?? feed.feedURL.absoluteString)
                    attributes += #" text="\#(title)" title="\#(title)" xmlUrl="\#(escaped(feed.feedURL.absoluteString))""#
                    if let site = feed.siteURL { attributes += #" htmlUrl="\#(escaped(site.absoluteString))""# }
                    lines.append("\(pad)<outline \(attributes)/>")
                case .folder(let index):
                    let folder = folders[index]
                    lines.append("\(pad)<outline text=\"\(escaped(folder.name))\" title=\"\(escaped(folder.name))\">")
                    folder.write(into: &lines, indent: indent + 1)
                    lines.append("\(pad)</outline>")
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
    /// One entry per open `outline`: its folder name, or `nil` for a feed.
    private var outlines: [String?] = []

    init(baseURL: URL?) { self.baseURL = baseURL }

    var wantsStop: Bool { rootElement.map { $0 != "opml" } ?? false }

    func startElement(_ name: String, namespace: XMLNamespace, attributes: [XMLAttribute]) {
        if rootElement == nil { rootElement = name }
        guard name == "outline" else { return }
        let text = (attributes["title"] ?? attributes["text"]).map(PlainText.collapsingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
        if let feedURL = attributes["xmlUrl"].flatMap({ URLResolver.resolve($0, against: baseURL) }) {
            subscriptions.append(Subscription(
                feedURL: feedURL, title: text, siteURL: attributes["htmlUrl"].flatMap { URLResolver.resolve($0, against: baseURL) },
                categories: outlines.compactMap { $0 }
            ))
            outlines.append(nil)
        } else {
            outlines.append(text ?? "")
        }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {}

    func endElement(_ name: String, namespace: XMLNamespace) {
        if name == "outline", !outlines.isEmpty { outlines.removeLast() }
    }
}
