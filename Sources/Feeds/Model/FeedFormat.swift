/// The syndication format a feed was written in.
public enum FeedFormat: String, Sendable, Hashable, CaseIterable {
    /// RSS 2.0, and RSS without a version attribute, which in practice follows 2.0.
    case rss2
    /// RSS 1.0: RDF with the `http://purl.org/rss/1.0/` namespace.
    case rss1
    /// RSS 0.90 (RDF with Netscape's namespace), 0.91, 0.92, 0.93 and 0.94.
    case rss09
    /// Atom 1.0 (RFC 4287).
    case atom1
    /// Atom 0.3, the pre-standard draft some old blogs still serve.
    case atom03
    /// JSON Feed 1.0 or 1.1.
    case json
}
