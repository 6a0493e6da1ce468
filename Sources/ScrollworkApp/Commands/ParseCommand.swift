import ArgumentParser
import Feeds
import Foundation
import ScrollworkReader

/// `scrollwork parse [--json] FILE...`: parses feed files without storing anything.
struct ParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Parse RSS, Atom or JSON Feed files and print what they hold, without storing anything.",
        discussion: """
            With --json, one line per file: {"file", "format" (rss2, rss1, rss09, atom1, atom03 \
            or json), "title", "link", "malformed", "assumedEncoding" (the encoding a document was read \
            in when the one it named is unknown or its bytes are not UTF-8, else null), "entries": [{"id", "title", "link", \
            "published", "updated", "author", "summary", "thumbnail"}]}, dates in RFC 3339 UTC \
            or null; or {"file", "error"} for a file that cannot be read or is not a feed. \
            Relative links resolve against the feed's site link (else the file's URL). Exit status: 0 when every file \
            parsed (malformed but salvaged counts as parsed), 1 otherwise.
            """
    )

    /// What came of one file.
    enum Outcome {
        case parsed(ParsedFeed)
        case failed(String)
    }

    @Flag(name: .long, help: "Print one JSON object per file instead of a summary.")
    var json = false

    @Argument(help: "The feed files to parse.")
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one file to parse") }
    }

    func run() throws {
        var failed = false
        for file in files {
            let outcome = Self.parse(file, with: FeedDocumentParser())
            if case .failed(let reason) = outcome {
                failed = true
                if !json { printError("scrollwork parse: \(file): \(reason)") }
            }
            if json {
                Console.printExact(Self.jsonLine(file: file, outcome))
            } else if case .parsed(let feed) = outcome {
                Console.print(Self.summary(file: file, feed))
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// Reads and parses `path`, with relative links resolved against its file URL.
    static func parse(_ path: String, with parser: some FeedParsing) -> Outcome {
        let bytes: [UInt8]
        // The parser's own limit, checked before the file is read, not after.
        do { bytes = try FileBytes.read(path, limit: FeedParser.Configuration().maxFeedBytes) } catch { return .failed("cannot read: \(error.reason)") }
        do {
            return .parsed(try parser.parse(bytes, url: URL(fileURLWithPath: path), charset: nil))
        } catch {
            return .failed(error.description)
        }
    }

    /// The `--json` line for one file, keys in the documented order.
    static func jsonLine(file: String, _ outcome: Outcome) -> String {
        switch outcome {
        case .failed(let reason):
            return "{\"file\": \(JSONText.quoted(file)), \"error\": \(JSONText.quoted(reason))}"
        case .parsed(let feed):
            let entries = feed.entries.map { entry in
                let fields = [
                    ("id", JSONText.quoted(entry.id)),
                    ("title", JSONText.quoted(entry.title)),
                    ("link", optional(entry.link?.absoluteString)),
                    ("published", optional(entry.published.map(FeedDate.rfc3339))),
                    ("updated", optional(entry.updated.map(FeedDate.rfc3339))),
                    ("author", optional(entry.author)),
                    ("summary", optional(entry.summary)),
                    ("thumbnail", optional(entry.thumbnail?.absoluteString)),
                ]
                return "{" + fields.map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "}"
            }
            return "{\"file\": \(JSONText.quoted(file)), \"format\": \(JSONText.quoted(feed.info.format.rawValue)), "
                + "\"title\": \(optional(feed.info.title)), \"link\": \(optional(feed.info.link?.absoluteString)), "
                + "\"malformed\": \(feed.isMalformed), \"assumedEncoding\": \(optional(feed.assumedEncoding?.read)), \"entries\": [\(entries.joined(separator: ", "))]}"
        }
    }

    /// A few readable lines for one file: the feed, then an entry a line, newest first.
    static func summary(file: String, _ feed: ParsedFeed) -> String {
        var header = "\(file): \(feed.info.format.rawValue), \"\(feed.info.title ?? "untitled")\""
        if let link = feed.info.link { header += " <\(link.absoluteString)>" }
        header += ", \(feed.entries.count) \(feed.entries.count == 1 ? "entry" : "entries")"
        if let assumed = feed.assumedEncoding {
            header += " (\(assumed))"
        } else if feed.isMalformed {
            header += " (malformed, salvaged)"
        }
        let entries = feed.entries
            .sorted { ($0.published ?? $0.updated ?? .distantPast) > ($1.published ?? $1.updated ?? .distantPast) }
            .map { entry in
                let date = (entry.published ?? entry.updated).map(FeedDate.rfc3339) ?? "undated".padding(toLength: 20, withPad: " ", startingAt: 0)
                return "  \(date)  \(entry.title.isEmpty ? "(untitled)" : entry.title)"
            }
        return ([header] + entries).joined(separator: "\n")
    }

    private static func optional(_ text: String?) -> String {
        text.map(JSONText.quoted) ?? "null"
    }
}
