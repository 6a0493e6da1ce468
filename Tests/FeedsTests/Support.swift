import Feeds
import Foundation

/// Parses a whole document given as text (UTF-8) or bytes, with the feed at `url`.
func parse(_ text: String, url: String = "https://example.com/feed.xml", charset: String? = nil,
           configuration: FeedParser.Configuration = .init()) throws(FeedParsingError) -> ParsedFeed {
    try parse(Array(text.utf8), url: url, charset: charset, configuration: configuration)
}

func parse(_ bytes: [UInt8], url: String = "https://example.com/feed.xml", charset: String? = nil,
           configuration: FeedParser.Configuration = .init()) throws(FeedParsingError) -> ParsedFeed {
    try FeedDocumentParser(configuration: configuration).parse(bytes, url: URL(string: url), charset: charset)
}

/// An instant given as RFC 3339 text, for expectations.
func instant(_ text: String) -> Date? {
    FeedDate.parse(text)
}

/// The error a parse throws, or `nil` when it succeeds.
func parseError(_ text: String, url: String = "https://example.com/feed.xml") -> FeedParsingError? {
    do {
        _ = try parse(text, url: url)
        return nil
    } catch {
        return error
    }
}
