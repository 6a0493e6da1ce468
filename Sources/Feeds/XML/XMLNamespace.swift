/// The namespaces feeds use, recognized by URI: a feed may bind them to any prefix.
enum XMLNamespace: Sendable, Hashable {
    case none
    case atom
    case atom03
    case rss1
    case rss090
    /// RSS 1.1 (`http://purl.org/net/rss1.1#`), RSS 1.0's successor without RDF.
    case rss11
    case rdf
    case dublinCore
    /// Dublin Core's refined terms (`dcterms:issued`, `created`, `modified`).
    case dublinCoreTerms
    case content
    case media
    case itunes
    case xhtml
    case xml
    /// A namespace no feed format here defines, by URI.
    case other(String)

    init(uri: String?) {
        guard let uri else {
            self = .none
            return
        }
        switch uri {
        case "http://www.w3.org/2005/Atom": self = .atom
        case "http://purl.org/atom/ns#": self = .atom03
        case "http://purl.org/rss/1.0/": self = .rss1
        case "http://my.netscape.com/rdf/simple/0.9/": self = .rss090
        case "http://purl.org/net/rss1.1#": self = .rss11
        case "http://www.w3.org/1999/02/22-rdf-syntax-ns#": self = .rdf
        // Dublin Core 1.0's elements are 1.1's.
        case "http://purl.org/dc/elements/1.1/", "http://purl.org/dc/elements/1.0/": self = .dublinCore
        case "http://purl.org/dc/terms/": self = .dublinCoreTerms
        case "http://purl.org/rss/1.0/modules/content/": self = .content
        case "http://search.yahoo.com/mrss/", "http://search.yahoo.com/mrss": self = .media
        case "http://www.itunes.com/dtds/podcast-1.0.dtd": self = .itunes
        case "http://www.w3.org/1999/xhtml": self = .xhtml
        case "http://www.w3.org/XML/1998/namespace": self = .xml
        default: self = .other(uri)
        }
    }

    /// RSS elements: no namespace (0.9x, 2.0), RSS 1.0's and 0.90's RDF vocabularies, or
    /// RSS 1.1's.
    var isRSS: Bool { self == .none || self == .rss1 || self == .rss090 || self == .rss11 }

    /// Atom 1.0 or 0.3 elements.
    var isAtom: Bool { self == .atom || self == .atom03 }
}
