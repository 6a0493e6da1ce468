import Foundation

/// The text of one field being collected as its element's content arrives, cut at the
/// field limit.
struct Capture {
    /// The field the text is for.
    enum Target {
        case title, dublinCoreTitle, mediaTitle, link, guid, summary, fallbackSummary, content, published, dublinCoreDate, updated, author
        case fallbackAuthor, category
        case feedTitle, feedFallbackTitle, feedLink, feedDescription, feedIcon, feedLogo, feedUpdated, feedAuthor
    }

    /// How the element's content is written.
    enum Mode {
        /// Plain text: markup characters are literal.
        case text
        /// HTML, escaped in the XML (RSS descriptions, Atom `type="html"`).
        case html
        /// XHTML as child elements (Atom `type="xhtml"`), serialized back to markup.
        case xhtml

        /// The mode an Atom 1.0 `type` or Atom 0.3 `type` and `mode` attribute describe.
        /// Base64 content (``Capture/isBase64``) is decoded first, then read in this mode.
        init(atomType type: String?, mode: String?) {
            switch type?.lowercasedASCII {
            case "xhtml", "application/xhtml+xml": self = mode == "escaped" || mode == "base64" ? .html : .xhtml
            case "html", "text/html": self = .html
            default: self = mode == "escaped" ? .html : .text
            }
        }
    }

    var target: Target
    var mode: Mode
    /// Whether the content is base64 (Atom 0.3 `mode="base64"`) of text in ``mode``.
    var isBase64 = false
    /// The depth of the element whose content this is.
    var depth: Int
    /// Where the base URL in effect for the element is in the reading's stack of them
    /// (``XMLFeedReading/base(at:)``): it stays there while the element is open.
    var baseLevel: Int
    private(set) var isTruncated = false

    // The text itself is collected in a buffer the builder keeps and hands to each method:
    // one buffer for every field of the document, emptied between fields, so collecting a
    // field costs no allocation once the buffer has grown to the longest field.

    init(target: Target, mode: Mode, isBase64: Bool = false, depth: Int, baseLevel: Int) {
        self.target = target
        self.mode = mode
        self.isBase64 = isBase64
        self.depth = depth
        self.baseLevel = baseLevel
    }

    /// The collected `bytes` as text, without whitespace at either end; base64 content
    /// decoded (as UTF-8), or left as it was if it is not valid base64.
    func text(_ bytes: [UInt8]) -> String {
        let text = bytes.withUnsafeBufferPointer(String.init(trimmingWhitespace:))
        guard isBase64 else { return text }
        let encoded = text.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: encoded) else { return text }
        return String(decoding: data, as: UTF8.self).trimmedWhitespace
    }

    /// Appends text to `bytes`, escaped when it is going into serialized XHTML.
    mutating func append(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8], limit: Int) {
        guard mode == .xhtml else {
            appendRaw(text, to: &bytes, limit: limit)
            return
        }
        for byte in text {
            switch byte {
            case UInt8(ascii: "&"): appendRaw("&amp;".utf8, to: &bytes, limit: limit)
            case UInt8(ascii: "<"): appendRaw("&lt;".utf8, to: &bytes, limit: limit)
            case UInt8(ascii: ">"): appendRaw("&gt;".utf8, to: &bytes, limit: limit)
            default: appendRaw(CollectionOfOne(byte), to: &bytes, limit: limit)
            }
        }
    }

    mutating func appendStartTag(_ name: String, attributes: [XMLAttribute], to bytes: inout [UInt8], limit: Int) {
        var tag = "<" + name
        for attribute in attributes where attribute.namespace == .none {
            tag += " \(attribute.name)=\"\(PlainText.escapedForHTML(attribute.value))\""
        }
        appendRaw((tag + ">").utf8, to: &bytes, limit: limit)
    }

    mutating func appendEndTag(_ name: String, to bytes: inout [UInt8], limit: Int) {
        appendRaw("</\(name)>".utf8, to: &bytes, limit: limit)
    }

    /// Whether an element is the `div` Atom wraps XHTML content in, which is not content.
    func isWrapper(_ name: String, namespace: XMLNamespace, depth: Int) -> Bool {
        depth == self.depth + 1 && name == "div" && namespace == .xhtml
    }

    /// The text as a title: markup removed unless it is plain text (or declared HTML that
    /// holds no markup, only angle brackets), whitespace collapsed.
    func plainText(_ text: String) -> String {
        mode == .text || !PlainText.looksLikeHTML(text) ? PlainText.collapsingWhitespace(text) : PlainText.from(html: text)
    }

    /// The text (from ``text(_:)``, trimmed) as HTML, plain text escaped; `nil` when empty.
    func html(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        return mode == .text ? PlainText.escapedForHTML(text) : text
    }

    private mutating func appendRaw(_ text: some Collection<UInt8>, to bytes: inout [UInt8], limit: Int) {
        guard !isTruncated else { return }
        if bytes.count + text.count <= limit {
            bytes.append(contentsOf: text)
            return
        }
        bytes.append(contentsOf: text.prefix(limit - bytes.count))
        // Cut at a character boundary: drop a last character whose bytes did not all fit.
        if let lead = bytes.indices.reversed().prefix(4).first(where: { bytes[$0] & 0xC0 != 0x80 }), bytes[lead] >= 0xC0 {
            let length = bytes[lead] >= 0xF0 ? 4 : bytes[lead] >= 0xE0 ? 3 : 2
            if bytes.count - lead < length { bytes.removeSubrange(lead...) }
        }
        isTruncated = true
    }
}
