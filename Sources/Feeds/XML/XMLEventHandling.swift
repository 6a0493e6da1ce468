/// What a streaming XML reader reports, with namespaces resolved: the SAX events the feed
/// and OPML builders turn into values.
protocol XMLEventHandling: AnyObject {
    /// An element opened, its namespace recognized by URI, whatever prefix bound it.
    func startElement(_ name: String, namespace: XMLNamespace, attributes: [XMLAttribute])
    /// Text (character data, CDATA, or decoded references) inside the current element, UTF-8.
    func characters(_ text: UnsafeBufferPointer<UInt8>)
    /// The current element closed.
    func endElement(_ name: String, namespace: XMLNamespace)
    /// Whether the handler has seen enough (the root is not a feed, or is HTML) and the
    /// reader should stop.
    var wantsStop: Bool { get }
}

/// An attribute of an element, its namespace resolved.
struct XMLAttribute: Sendable, Hashable {
    var name: String
    var namespace: XMLNamespace
    var value: String
}

extension [XMLAttribute] {
    /// The value of the attribute `name` in no namespace (as feed attributes are).
    subscript(_ name: String) -> String? {
        first { $0.name == name && $0.namespace == .none }?.value
    }
}
