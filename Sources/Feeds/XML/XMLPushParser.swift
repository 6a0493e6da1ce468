import CLibXML2
import Foundation

/// libxml2's push parser with SAX2 callbacks, locked down for hostile input: bytes go in as
/// they arrive and events come out to an ``XMLEventHandling`` handler while they are parsed.
///
/// Safety, in the order an attack would try:
/// - Nothing is loaded from outside the document: `XML_PARSE_NONET`, no `XML_PARSE_DTDLOAD`,
///   no external-subset or parameter-entity callback, a `resolveEntity` callback that refuses,
///   and external entity declarations dropped, so libxml2 is never asked to load anything.
///   A process-wide external entity loader that refuses everything is installed as well, as
///   defense in depth (other libxml2 users in the process, such as `XMLParser`, may replace it).
/// - Entities are never substituted by libxml2 (no `XML_PARSE_NOENT`). This class answers
///   libxml2's `getEntity` itself: internal entities the document declares are expanded here
///   under a budget (``FeedParser/Configuration/maxEntityExpansionBytes`` in total across all
///   references, nesting at most 8 deep, at most 10,000 declarations), so a "billion laughs"
///   document stops with ``FeedParsingError/entityExpansionLimitExceeded(limit:)`` after
///   about a megabyte of work. HTML's named entities (`&nbsp;`, `&eacute;`), which RSS uses
///   undeclared, resolve to their characters.
/// - `XML_PARSE_HUGE` stays off, so libxml2 keeps its own limits on names and text nodes.
/// - `XML_PARSE_RECOVER` salvages what it can from malformed documents; any error marks the
///   result malformed.
///
/// Not thread-safe: one parse, driven from one thread at a time.
final class XMLPushParser {
    private var context: xmlParserCtxtPtr?
    private let handler: any XMLEventHandling
    private let maxExpansionBytes: Int

    /// Internal entities the document declared, by name, with their replacement text.
    private var declaredEntities: [String: String] = [:]
    /// Entities resolved so far (HTML ones and expanded declared ones), handed to libxml2 as
    /// predefined entities so it passes their text straight to `characters`. Owned here.
    private var resolvedEntities: [String: UnsafeMutablePointer<xmlEntity>] = [:]
    /// Entities handed out for references inside attribute values; see `attributeEntity`.
    private var attributeEntities: [String: UnsafeMutablePointer<xmlEntity>] = [:]
    private var ownedEntities: [UnsafeMutablePointer<xmlEntity>] = []
    private var expandedBytes = 0
    private var namespaceCache: [UnsafePointer<xmlChar>: (uri: String, namespace: XMLNamespace)] = [:]
    private var nameCache: [UnsafePointer<xmlChar>: String] = [:]

    /// Whether libxml2 reported an error: the document is not well-formed.
    private(set) var isMalformed = false
    /// Set when a limit was hit; the parser has stopped.
    private(set) var failure: FeedParsingError?

    static let maxEntityDepth = 8
    static let maxEntityDeclarations = 10_000

    /// A parser that reports to `handler`. The first bytes (at least four, when the document
    /// has them) let libxml2 detect the encoding from a byte order mark or the XML declaration;
    /// `charset`, an HTTP charset hint, overrides the declaration but not a byte order mark.
    init(handler: any XMLEventHandling, firstBytes: [UInt8], charset: String?, maxExpansionBytes: Int) {
        _ = Self.refuseExternalEntities
        self.handler = handler
        self.maxExpansionBytes = maxExpansionBytes
        var sax = Self.saxHandler()
        let unmanaged = Unmanaged.passUnretained(self).toOpaque()
        let hasByteOrderMark = Self.startsWithByteOrderMark(firstBytes)
        let encodingHandler = hasByteOrderMark ? nil : charset.flatMap { xmlFindCharEncodingHandler($0) }
        let detectionBytes = encodingHandler == nil ? Array(firstBytes.prefix(4)) : []
        context = detectionBytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                xmlCreatePushParserCtxt(&sax, unmanaged, $0.baseAddress, Int32($0.count), nil)
            }
        }
        guard let context else { return }
        var options = Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue)
        if let encodingHandler {
            options |= Int32(XML_PARSE_IGNORE_ENC.rawValue)
            xmlCtxtUseOptions(context, options)
            xmlSwitchToEncoding(context, encodingHandler)
        } else {
            xmlCtxtUseOptions(context, options)
        }
        feed(firstBytes[detectionBytes.count...], terminate: false)
    }

    deinit {
        if let context {
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            xmlFreeParserCtxt(context)
        }
        for entity in ownedEntities {
            free(UnsafeMutableRawPointer(mutating: entity.pointee.name))
            free(entity.pointee.content)
            entity.deallocate()
        }
    }

    /// Parses `bytes`; with `terminate`, also tells libxml2 the document ended.
    func feed(_ bytes: some Collection<UInt8>, terminate: Bool) {
        guard let context, failure == nil else { return }
        let parse = { (buffer: UnsafeBufferPointer<UInt8>) in
            buffer.withMemoryRebound(to: CChar.self) {
                _ = xmlParseChunk(context, $0.baseAddress, Int32($0.count), terminate ? 1 : 0)
            }
        }
        if bytes.withContiguousStorageIfAvailable(parse) == nil {
            Array(bytes).withUnsafeBufferPointer(parse)
        }
        if context.pointee.wellFormed == 0 { isMalformed = true }
    }

    /// Stops the parse: no more events will be reported.
    func stop() {
        if let context { xmlStopParser(context) }
    }

    private static func startsWithByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
    }

    /// Installed once per process: libxml2's loader is global, and this one loads nothing.
    private static let refuseExternalEntities: Void = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
    }()

    // MARK: Entities

    fileprivate func declareEntity(name: String, type: Int32, content: String?) {
        guard failure == nil else { return }
        guard declaredEntities.count < Self.maxEntityDeclarations else {
            fail(.entityExpansionLimitExceeded(limit: maxExpansionBytes))
            return
        }
        // External entities are never read, so they are not declared here: references to
        // them resolve to nothing.
        guard type == Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue), let content, declaredEntities[name] == nil else { return }
        declaredEntities[name] = content
    }

    fileprivate func entity(named name: String) -> UnsafeMutablePointer<xmlEntity>? {
        guard failure == nil else { return nil }
        if let context, context.pointee.instate == XML_PARSER_ATTRIBUTE_VALUE {
            return attributeEntity(named: name)
        }
        if let declared = declaredEntities[name] {
            // Every reference counts against the budget, cached or not: amplification is
            // many references to one big entity as much as deep nesting.
            if let cached = resolvedEntities[name] {
                return charge(Int(cached.pointee.length)) ? cached : nil
            }
            guard let text = expand(declared, depth: 1), charge(text.utf8.count) else { return nil }
            let entity = makeEntity(name: name, text: text, type: XML_INTERNAL_PREDEFINED_ENTITY)
            resolvedEntities[name] = entity
            return entity
        }
        if let cached = resolvedEntities[name] { return cached }
        guard let character = HTMLEntities.character(named: name) else { return nil }
        let entity = makeEntity(name: name, text: String(character), type: XML_INTERNAL_PREDEFINED_ENTITY)
        resolvedEntities[name] = entity
        return entity
    }

    /// An entity for a reference inside an attribute value. libxml2 copies only the first
    /// byte of a predefined entity there, so attributes get a general entity instead, which it
    /// leaves as `&name;` for ``decodeAttribute(_:)`` to replace.
    private func attributeEntity(named name: String) -> UnsafeMutablePointer<xmlEntity>? {
        guard declaredEntities[name] != nil || HTMLEntities.character(named: name) != nil else { return nil }
        if let cached = attributeEntities[name] { return cached }
        let entity = makeEntity(name: name, text: "", type: XML_INTERNAL_GENERAL_ENTITY)
        attributeEntities[name] = entity
        return entity
    }

    /// An attribute value with its references replaced, declared entities expanded under the
    /// same budget as in text.
    fileprivate func decodeAttribute(_ value: String) -> String {
        HTMLEntities.decode(value) { name in
            guard let declared = declaredEntities[name], let text = expand(declared, depth: 1), charge(text.utf8.count) else { return nil }
            return text
        }
    }

    /// `content` with the references in it replaced, or `nil` once the budget is spent.
    private func expand(_ content: String, depth: Int) -> String? {
        guard depth <= Self.maxEntityDepth else {
            fail(.entityExpansionLimitExceeded(limit: maxExpansionBytes))
            return nil
        }
        var out = ""
        var rest = content[...]
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { break }
            let name = rest[rest.index(after: ampersand)..<semicolon]
            rest = rest[rest.index(after: semicolon)...]
            if name.first == "#" {
                if let character = HTMLEntities.character(numeric: name.dropFirst()) { out.unicodeScalars.append(character) }
            } else if let predefined = Self.predefined[String(name)] {
                out += predefined
            } else if let inner = declaredEntities[String(name)] {
                guard let expanded = expand(inner, depth: depth + 1), charge(expanded.utf8.count) else { return nil }
                out += expanded
            } else if let character = HTMLEntities.character(named: String(name)) {
                out.unicodeScalars.append(character)
            }
        }
        out += rest
        return out
    }

    private func charge(_ bytes: Int) -> Bool {
        expandedBytes += bytes
        guard expandedBytes <= maxExpansionBytes else {
            fail(.entityExpansionLimitExceeded(limit: maxExpansionBytes))
            return false
        }
        return true
    }

    /// An entity owned by this parser (freed with it). Predefined entities are the one kind
    /// libxml2 passes to `characters` as they are, without parsing their content or
    /// substituting anything itself.
    private func makeEntity(name: String, text: String, type: xmlEntityType) -> UnsafeMutablePointer<xmlEntity> {
        let entity = UnsafeMutablePointer<xmlEntity>.allocate(capacity: 1)
        entity.initialize(to: xmlEntity())
        entity.pointee.type = XML_ENTITY_DECL
        entity.pointee.name = UnsafePointer(strdup(name).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: xmlChar.self) })
        entity.pointee.content = strdup(text).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: xmlChar.self) }
        entity.pointee.length = Int32(text.utf8.count)
        entity.pointee.etype = type
        ownedEntities.append(entity)
        return entity
    }

    private func fail(_ error: FeedParsingError) {
        guard failure == nil else { return }
        failure = error
        stop()
    }

    private static let predefined = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]

    // MARK: SAX callbacks

    fileprivate func reportError() { isMalformed = true }

    fileprivate func start(_ name: String, namespace: XMLNamespace, attributes: [XMLAttribute]) {
        handler.startElement(name, namespace: namespace, attributes: attributes)
        if handler.wantsStop { stop() }
    }

    fileprivate func characters(_ text: UnsafeBufferPointer<UInt8>) { handler.characters(text) }

    fileprivate func end(_ name: String, namespace: XMLNamespace) { handler.endElement(name, namespace: namespace) }

    /// The namespace a URI names. libxml2 interns URIs and names in its dictionary, so the
    /// same pointer comes back for every element of a namespace or with a name: answers are
    /// cached by pointer (and the bytes compared, to be safe), which is cheaper than making a
    /// string of the URI or name at every element.
    fileprivate func namespace(_ uri: UnsafePointer<xmlChar>?) -> XMLNamespace {
        guard let uri else { return .none }
        if let cached = namespaceCache[uri], Self.matches(cached.uri, uri) { return cached.namespace }
        let text = string(uri)
        let namespace = XMLNamespace(uri: text)
        namespaceCache[uri] = (text, namespace)
        return namespace
    }

    /// Whether `text` is the NUL-terminated string at `pointer`, compared in place.
    private static func matches(_ text: String, _ pointer: UnsafePointer<xmlChar>) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard let base = utf8.baseAddress else { return pointer[0] == 0 }
            // strncmp, not memcmp: it stops at the NUL of a shorter string instead of reading past it.
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { text in
                pointer.withMemoryRebound(to: CChar.self, capacity: utf8.count) { strncmp(text, $0, utf8.count) == 0 }
            } && pointer[utf8.count] == 0
        } ?? false
    }

    /// An element or attribute name, cached like namespaces.
    fileprivate func name(_ pointer: UnsafePointer<xmlChar>) -> String {
        if let cached = nameCache[pointer], Self.matches(cached, pointer) { return cached }
        let text = string(pointer)
        nameCache[pointer] = text
        return text
    }

    private static func saxHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { context, localName, _, uri, _, _, attributeCount, _, attributes in
            guard let context, let localName else { return }
            let parser = Unmanaged<XMLPushParser>.fromOpaque(context).takeUnretainedValue()
            var list: [XMLAttribute] = []
            if let attributes, attributeCount > 0 {
                list.reserveCapacity(Int(attributeCount))
                // Five pointers per attribute: local name, prefix, URI, value start, value end.
                for index in 0..<Int(attributeCount) {
                    let base = index * 5
                    guard let name = attributes[base], let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
                    var value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                    // Without entity substitution, libxml2 leaves references in attribute values
                    // as written (and `&amp;` as `&#38;`); the value is what they stand for.
                    if value.utf8.contains(UInt8(ascii: "&")) { value = parser.decodeAttribute(value) }
                    list.append(XMLAttribute(name: parser.name(name), namespace: parser.namespace(attributes[base + 2]), value: value))
                }
            }
            parser.start(parser.name(localName), namespace: parser.namespace(uri), attributes: list)
        }
        sax.endElementNs = { context, localName, _, uri in
            guard let context, let localName else { return }
            let parser = Unmanaged<XMLPushParser>.fromOpaque(context).takeUnretainedValue()
            parser.end(parser.name(localName), namespace: parser.namespace(uri))
        }
        let characters: charactersSAXFunc = { context, text, length in
            guard let context, let text, length > 0 else { return }
            Unmanaged<XMLPushParser>.fromOpaque(context).takeUnretainedValue()
                .characters(UnsafeBufferPointer(start: text, count: Int(length)))
        }
        sax.characters = characters
        sax.cdataBlock = characters
        sax.getEntity = { context, name in
            guard let context, let name else { return nil }
            return Unmanaged<XMLPushParser>.fromOpaque(context).takeUnretainedValue().entity(named: string(name))
        }
        sax.entityDecl = { context, name, type, _, _, content in
            guard let context, let name else { return }
            Unmanaged<XMLPushParser>.fromOpaque(context).takeUnretainedValue()
                .declareEntity(name: string(name), type: type, content: content.map { string(UnsafePointer($0)) })
        }
        sax.resolveEntity = { _, _, _ in nil }
        sax.serror = { context, error in
            guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            Unmanaged<XMLPushParser>.fromOpaque(context).takeUnretainedValue().reportError()
        }
        return sax
    }
}

private func string(_ text: UnsafePointer<xmlChar>) -> String {
    String(cString: text)
}
