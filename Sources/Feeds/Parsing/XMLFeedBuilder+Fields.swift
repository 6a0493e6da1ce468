import Foundation

/// Which elements are fields, by format and by where they sit; and what each field's text
/// becomes once its element closes.
extension XMLFeedReading {
    mutating func startFeedField(_ name: String, namespace: XMLNamespace, attributes: [XMLAttribute]) {
        let parent = stack[stack.count - 2]
        // (RSS 1.1's channel is its root, `Channel`, read as `channel`.)
        let inChannel = (parent.name == "channel" && parent.namespace.isRSS) || (parent.name == "feed" && parent.namespace.isAtom)
        switch namespace {
        case _ where namespace.isRSS && inChannel:
            switch name {
            case "title": begin(.feedTitle, mode: .html)
            case "link": begin(.feedLink, mode: .text)
            case "description": begin(.feedDescription, mode: .html)
            case "lastBuildDate", "pubDate": begin(.feedUpdated, mode: .text)
            default: break
            }
        case _ where namespace.isRSS && name == "url" && parent.name == "image":
            begin(.feedIcon, mode: .text)
        case _ where namespace.isAtom && inChannel:
            switch name {
            case "title":
                begin(.feedTitle, mode: Capture.Mode(atomType: attributes["type"], mode: attributes["mode"]),
                      isBase64: attributes["mode"] == "base64")
            case "link":
                if Self.isAlternate(attributes), info.link == nil, let href = attributes["href"] {
                    info.link = URLResolver.resolve(href, against: base).flatMap(Self.webLink)
                }
            case "subtitle", "tagline":
                begin(.feedDescription, mode: Capture.Mode(atomType: attributes["type"], mode: attributes["mode"]))
            case "icon": begin(.feedIcon, mode: .text)
            case "logo": begin(.feedLogo, mode: .text)
            case "updated", "modified": begin(.feedUpdated, mode: .text)
            default: break
            }
        case _ where namespace.isAtom && name == "name" && parent.name == "author" && stack.count == 3:
            begin(.feedAuthor, mode: .text)
        case .dublinCore where inChannel && name == "date" && info.updated == nil:
            begin(.feedUpdated, mode: .text)
        case .dublinCore where inChannel && name == "title":
            begin(.feedFallbackTitle, mode: .text)
        case .dublinCoreTerms where inChannel && name == "modified" && info.updated == nil:
            begin(.feedUpdated, mode: .text)
        case .itunes where inChannel && name == "image" && info.icon == nil:
            info.icon = attributes["href"].flatMap { URLResolver.resolve($0, against: base) }
        default:
            break
        }
    }

    // MARK: Entry fields

    mutating func startEntryField(_ name: String, namespace: XMLNamespace, attributes: [XMLAttribute], depth: Int) {
        let isChild = depth == entryDepth + 1
        switch namespace {
        case _ where namespace.isRSS && isChild:
            switch name {
            case "title": begin(.title, mode: .html)
            case "link": begin(.link, mode: .text)
            case "guid":
                entry?.guidIsPermaLink = attributes["isPermaLink"] != "false"
                begin(.guid, mode: .text)
            case "description": begin(.summary, mode: .html)
            case "pubDate": begin(.published, mode: .text)
            // Atom 0.3's and Dublin Core's names, written without their namespace.
            case "modified", "updated": begin(.updated, mode: .text)
            case "author": begin(.author, mode: .text)
            case "category": begin(.category, mode: .text)
            case "enclosure":
                addEnclosure(url: attributes["url"], type: attributes["type"], length: attributes["length"])
            default: break
            }
        case _ where namespace.isAtom && isChild:
            startAtomEntryField(name, attributes: attributes)
        case _ where namespace.isAtom && name == "name" && depth == entryDepth + 2 && stack[depth - 2].name == "author":
            begin(.author, mode: .text)
        case _ where namespace.isAtom && name == "email" && depth == entryDepth + 2 && stack[depth - 2].name == "author":
            // An author known only by an address is known by it.
            begin(.fallbackAuthor, mode: .text)
        case .dublinCore where isChild:
            switch name {
            case "creator": begin(.author, mode: .text)
            case "date": begin(.dublinCoreDate, mode: .text)
            case "subject": begin(.category, mode: .text)
            case "title": begin(.dublinCoreTitle, mode: .text)
            case "description": begin(.fallbackSummary, mode: .html)
            default: break
            }
        case .dublinCoreTerms where isChild:
            switch name {
            case "issued", "created", "date": begin(.dublinCoreDate, mode: .text)
            case "modified": begin(.updated, mode: .text)
            default: break
            }
        case .content where isChild && name == "encoded":
            begin(.content, mode: .html)
        case .media:
            // Resolved only for the pictures: a podcast's audio is named in every item.
            var url: URL? { attributes["url"].flatMap { URLResolver.resolve($0, against: base) } }
            if name == "title" {
                begin(.mediaTitle, mode: attributes["type"] == "html" ? .html : .text)
            } else if name == "description" {
                // YouTube's only text: in `media:group`, or directly in the entry.
                begin(.fallbackSummary, mode: attributes["type"] == "html" ? .html : .text)
            } else if name == "thumbnail" {
                let url = url
                entry?.offerThumbnail(url, rank: .mediaThumbnail)
            } else if name == "content", attributes["medium"] == "image" || Self.isImage(attributes["type"]) {
                let url = url
                entry?.offerThumbnail(url, rank: .mediaContentImage)
            }
        case .itunes where isChild:
            if name == "image" {
                let url = attributes["href"].flatMap { URLResolver.resolve($0, against: base) }
                entry?.offerThumbnail(url, rank: .itunesImage)
            } else if name == "author" {
                begin(.fallbackAuthor, mode: .text)
            } else if name == "summary" || name == "subtitle", entry?.summary == nil {
                // A podcast episode's text, when it has no description (read only while it
                // has none: a podcast repeats its description here).
                begin(.fallbackSummary, mode: .text)
            }
        default:
            break
        }
    }

    mutating func startAtomEntryField(_ name: String, attributes: [XMLAttribute]) {
        // Asked only of the text constructs, not of every child of every entry.
        var mode: Capture.Mode { Capture.Mode(atomType: attributes["type"], mode: attributes["mode"]) }
        var isBase64: Bool { attributes["mode"] == "base64" }
        switch name {
        case "title": begin(.title, mode: mode, isBase64: isBase64)
        case "id": begin(.guid, mode: .text)
        case "link":
            guard let href = attributes["href"] else { return }
            if Self.isAlternate(attributes) {
                let url = URLResolver.resolve(href, against: base)
                let type = attributes["type"]?.lowercasedASCII
                if type == nil || type == "text/html" || type == "application/xhtml+xml" {
                    if entry?.link == nil { entry?.link = url }
                } else if entry?.otherAlternateLink == nil {
                    entry?.otherAlternateLink = url
                }
            } else if attributes["rel"] == "enclosure" {
                addEnclosure(url: href, type: attributes["type"], length: attributes["length"])
            }
        case "summary": begin(.summary, mode: mode, isBase64: isBase64)
        case "content" where attributes["src"] == nil: begin(.content, mode: mode, isBase64: isBase64)
        case "published", "issued", "created": begin(.published, mode: .text)
        case "updated", "modified": begin(.updated, mode: .text)
        case "category":
            if let term = attributes["label"] ?? attributes["term"], !term.isEmpty { entry?.categories.append(term) }
        default: break
        }
    }

    mutating func addEnclosure(url: String?, type: String?, length: String?) {
        guard let url = url.flatMap({ URLResolver.resolve($0, against: base) }) else { return }
        entry?.enclosures.append(FeedEnclosure(url: url, type: type, length: length.flatMap { Int($0) }))
        if Self.isImage(type) { entry?.offerThumbnail(url, rank: .imageEnclosure) }
    }

    /// `url`, unless it is a local file: a relative link in a feed read from a file resolves
    /// against the file, and a link to a file on this machine is no link to a post.
    static func webLink(_ url: URL) -> URL? {
        url.isFileURL ? nil : url
    }

    static func isAlternate(_ attributes: [XMLAttribute]) -> Bool {
        let rel = attributes["rel"] ?? "alternate"
        return rel == "alternate" || rel == "http://www.iana.org/assignments/relation/alternate"
    }

    static func isImage(_ type: String?) -> Bool {
        type?.lowercasedASCII.hasPrefix("image/") ?? false
    }

    mutating func begin(_ target: Capture.Target, mode: Capture.Mode, isBase64: Bool = false) {
        capture = Capture(target: target, mode: mode, isBase64: isBase64, depth: stack.count, baseLevel: innermostBaseLevel)
        captured.removeAll(keepingCapacity: true)
    }

    /// Stores the field `capture` collected, from the text in `captured`.
    mutating func finish(_ capture: Capture) {
        // Trimmed once: titles collapse their whitespace, HTML and the other fields are kept
        // trimmed, so no field reads the whitespace at the ends.
        let text = capture.text(captured)
        if capture.isTruncated { entry?.isTruncated = true }
        switch capture.target {
        case .title: entry?.title = capture.plainText(text)
        case .dublinCoreTitle: if entry?.dublinCoreTitle == nil { entry?.dublinCoreTitle = capture.plainText(text) }
        case .mediaTitle: if entry?.mediaTitle == nil { entry?.mediaTitle = capture.plainText(text) }
        case .link:
            if entry?.link == nil {
                let link = URLResolver.resolve(text, against: base(at: capture.baseLevel))
                entry?.link = link
            }
        case .guid: entry?.guid = text
        case .summary:
            let base = base(at: capture.baseLevel)
            entry?.summary = capture.html(text)
            entry?.summaryBase = base
        case .fallbackSummary:
            if entry?.fallbackSummary == nil, let html = capture.html(text) {
                entry?.fallbackSummary = html
                let base = base(at: capture.baseLevel)
                if entry?.summary == nil { entry?.summaryBase = base }
            }
        case .content:
            let base = base(at: capture.baseLevel)
            entry?.content = capture.html(text)
            entry?.contentBase = base
        case .published: if entry?.published == nil { entry?.published = FeedDate.parse(text) }
        case .dublinCoreDate: if entry?.dublinCoreDate == nil { entry?.dublinCoreDate = FeedDate.parse(text) }
        case .updated: if entry?.updated == nil { entry?.updated = FeedDate.parse(text) }
        case .author: if entry?.author == nil, !text.isEmpty { entry?.author = PlainText.collapsingWhitespace(text) }
        case .fallbackAuthor: if !text.isEmpty { entry?.fallbackAuthor = PlainText.collapsingWhitespace(text) }
        case .category: if !text.isEmpty { entry?.categories.append(PlainText.collapsingWhitespace(text)) }
        case .feedTitle:
            if info.title == nil || feedTitleIsFallback {
                info.title = capture.plainText(text)
                feedTitleIsFallback = false
            }
        case .feedFallbackTitle:
            if info.title == nil {
                info.title = capture.plainText(text)
                feedTitleIsFallback = true
            }
        case .feedLink: if info.link == nil { info.link = URLResolver.resolve(text, against: base(at: capture.baseLevel)).flatMap(Self.webLink) }
        case .feedDescription: if info.description == nil { info.description = capture.html(text) }
        case .feedIcon:
            if info.icon == nil || feedIconIsLogo {
                info.icon = URLResolver.resolve(text, against: base(at: capture.baseLevel))
                feedIconIsLogo = false
            }
        case .feedLogo:
            if info.icon == nil {
                info.icon = URLResolver.resolve(text, against: base(at: capture.baseLevel))
                feedIconIsLogo = true
            }
        case .feedUpdated: if info.updated == nil { info.updated = FeedDate.parse(text) }
        case .feedAuthor: if feedAuthor == nil, !text.isEmpty { feedAuthor = PlainText.collapsingWhitespace(text) }
        }
    }
}
