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
/// - ``XMLInputRepair`` mends the commonest breakage on the bytes (a bare `&`, undeclared
///   windows-1252 text), which recovery would mend by dropping text; `XML_PARSE_RECOVER`
///   salvages what it can from the rest. Any error or repair marks the result malformed.
///
/// Not thread-safe: one parse, driven from one thread at a time.
final class XMLPushParser {
    // The state below belongs to this parser alone; it is internal only so that the
    // entity and SAX extensions in their own files can reach it.
    var context: xmlParserCtxtPtr?
    /// libxml2, or `nil` when it could not be loaded (``failure`` says so).
    let library: LibXML2?
    let handler: any XMLEventHandling
    let maxExpansionBytes: Int

    /// Internal entities the document declared, by name, with their replacement text.
    var declaredEntities: [String: String] = [:]
    /// Entities resolved so far (HTML ones and expanded declared ones), handed to libxml2 as
    /// predefined entities so it passes their text straight to `characters`. Owned here.
    var resolvedEntities: [String: UnsafeMutablePointer<xmlEntity>] = [:]
    /// Entities handed out for references inside attribute values; see `attributeEntity`.
    var attributeEntities: [String: UnsafeMutablePointer<xmlEntity>] = [:]
    var ownedEntities: [UnsafeMutablePointer<xmlEntity>] = []
    var expandedBytes = 0
    /// Names and namespaces by the pointer libxml2 gives them at, for the pointers its
    /// dictionary owns; see ``name(_:)``.
    var names = InternedNames<String>()
    var namespaces = InternedNames<XMLNamespace>()

    /// Whether libxml2 reported an error or the input needed repairs: the document is not
    /// well-formed.
    var isMalformed = false
    /// Mends bare `&` and `<`, whitespace before the declaration and undeclared legacy text
    /// before libxml2 sees them.
    var repair: XMLInputRepair
    /// Set when a limit was hit; the parser has stopped.
    var failure: FeedParsingError?
    /// Start- and end-element events not to report: those of start tags replayed when this
    /// parser takes a document over from ``UTF8XMLScanner``, which reported them, and of a
    /// stand-in root.
    private var skippedStarts: Int
    private var skippedEnds: Int

    /// The blocks libxml2 reads the document in, counted from the first byte it reads,
    /// however the bytes arrived: its recovery from errors depends on where its input is cut
    /// (a broken tag cut in two is read otherwise than whole), and a feed must read the same
    /// whether it comes in one piece or many.
    static let blockBytes = 16 << 10
    /// Bytes that arrived but make no whole block yet; libxml2 gets them with the next block,
    /// or at the end.
    private var unparsed: [UInt8] = []

    /// libxml2's options for every feed: recover what it can, never reach the network, keep
    /// warnings quiet.
    static let options = Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue)

    static let maxEntityDepth = 8
    static let maxEntityDeclarations = 10_000

    /// A parser that reports to `handler`. The first bytes (at least four, when the document
    /// has them) let libxml2 detect the encoding from a byte order mark or the XML declaration;
    /// `charset`, an HTTP charset hint, overrides the declaration but not a byte order mark.
    ///
    /// With `repairing` off, the bytes go to libxml2 as they are: they were repaired before
    /// (``XMLReader`` does so). The first `skippingStarts` start-element and `skippingEnds`
    /// end-element events are not reported.
    init(handler: any XMLEventHandling, firstBytes: [UInt8], charset: String?, maxExpansionBytes: Int, repairing: Bool = true,
         skippingStarts: Int = 0, skippingEnds: Int = 0) {
        self.handler = handler
        self.maxExpansionBytes = maxExpansionBytes
        skippedStarts = skippingStarts
        skippedEnds = skippingEnds
        let loaded: LibXML2?
        switch Self.refuseExternalEntities {
        case .success(let library):
            loaded = library
        case .failure(let error):
            loaded = nil
            failure = .unreadable(reason: error.description)
        }
        library = loaded
        let hasByteOrderMark = Self.startsWithByteOrderMark(firstBytes)
        let encodingHandler = hasByteOrderMark ? nil : charset.flatMap { name in loaded?.findCharEncodingHandler(name) }
        repair = repairing ? XMLInputRepair(firstBytes: firstBytes, charset: encodingHandler == nil ? nil : charset) : .none
        guard let library = loaded else { return }
        var sax = Self.saxHandler()
        let unmanaged = Unmanaged.passUnretained(self).toOpaque()
        let firstBytes = firstBytes.withUnsafeBufferPointer { repair.repair($0, final: false) } ?? firstBytes
        // Four bytes show libxml2 the encoding; fewer show it nothing, and go with the rest:
        // libxml2 reads a start tag cut short at the end of a document differently when it came
        // in the context's first chunk (a document of `<` and one letter reported an element
        // read whole by the scanner's handoff, and none read whole by libxml2 after the repair
        // held it back).
        let detectionBytes = encodingHandler == nil && firstBytes.count >= 4 ? Array(firstBytes.prefix(4)) : []
        context = detectionBytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                library.createPushParserCtxt(&sax, unmanaged, $0.baseAddress, Int32($0.count), nil)
            }
        }
        guard let context else { return }
        var options = Self.options
        if let encodingHandler {
            options |= Int32(XML_PARSE_IGNORE_ENC.rawValue)
            _ = library.ctxtUseOptions(context, options)
            _ = library.switchToEncoding(context, encodingHandler)
        } else {
            _ = library.ctxtUseOptions(context, options)
        }
        parse(firstBytes[detectionBytes.count...], terminate: false)
    }

    deinit {
        if let context, let library {
            if let document = context.pointee.myDoc { library.freeDoc(document) }
            library.freeParserCtxt(context)
        }
        for entity in ownedEntities {
            free(UnsafeMutableRawPointer(mutating: entity.pointee.name))
            free(entity.pointee.content)
            // libxml2 hands an entity it gets back from `getEntity` right after the entity's
            // declaration the declaration's raw text (`orig`), which the entity then owns. It
            // is libxml2's xmlMalloc, which is malloc: nothing here replaces libxml2's
            // allocator (xmlMemSetup).
            free(entity.pointee.orig)
            entity.deallocate()
        }
    }

    /// Parses `bytes`; with `terminate`, also tells libxml2 the document ended.
    ///
    /// However the bytes arrive, libxml2 gets them in blocks of ``blockBytes``: the same
    /// document reads the same, and no piece is so big (about 10 MB) that libxml2 stops with a
    /// "huge input" error and the rest of a valid document is lost.
    func feed(_ bytes: some Collection<UInt8>, terminate: Bool) {
        guard context != nil, failure == nil else { return }
        let repaired = bytes.withContiguousStorageIfAvailable { repair.repair($0, final: terminate) }
            ?? Array(bytes).withUnsafeBufferPointer { repair.repair($0, final: terminate) }
        if let repaired {
            parse(repaired, terminate: terminate)
        } else {
            parse(bytes, terminate: terminate)
        }
        if repair.repairs > 0 { isMalformed = true }
    }

    /// Hands `bytes` to libxml2 as they are, in blocks of ``blockBytes`` (the rest at the end).
    private func parse(_ bytes: some Collection<UInt8>, terminate: Bool) {
        guard let context, let library, failure == nil else { return }
        let parse = { (buffer: UnsafeBufferPointer<UInt8>, terminate: Bool) in
            library.feed(context, buffer, through: library.parseChunk, pieceSize: Self.blockBytes, terminate: terminate) {
                self.failure == nil && context.pointee.disableSAX == 0
            }
        }
        // The whole blocks straight from the caller's bytes when nothing waits; only the rest
        // is copied.
        let handled = unparsed.isEmpty && bytes.withContiguousStorageIfAvailable { buffer -> Bool in
            let whole = terminate ? buffer.count : buffer.count / Self.blockBytes * Self.blockBytes
            if whole > 0 || terminate { parse(UnsafeBufferPointer(rebasing: buffer[..<whole]), terminate) }
            unparsed.append(contentsOf: buffer[whole...])
            return true
        } == true
        if !handled {
            unparsed.append(contentsOf: bytes)
            let whole = terminate ? unparsed.count : unparsed.count / Self.blockBytes * Self.blockBytes
            if whole > 0 || terminate {
                unparsed.withUnsafeBufferPointer { parse(UnsafeBufferPointer(rebasing: $0[..<whole]), terminate) }
                unparsed.removeFirst(whole)
            }
        }
        if context.pointee.wellFormed == 0 { isMalformed = true }
    }

    /// The line libxml2 has read to, from 1: after a handler stopped the parse, the line of
    /// the element it stopped at.
    var line: Int {
        guard let input = context?.pointee.input else { return 1 }
        return Int(input.pointee.line)
    }

    /// Stops the parse: no more events will be reported.
    func stop() {
        if let context { library?.stopParser(context) }
    }

    static func startsWithByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
    }

    /// libxml2, with its external entity loader replaced once per process: the loader is
    /// global, and this one loads nothing.
    private static let refuseExternalEntities: Result<LibXML2, LibXML2.LoadError> = LibXML2.shared.map { library in
        library.setExternalEntityLoader { _, _, _ in nil }
        return library
    }

    func reportError() { isMalformed = true }

    func start(_ name: String, namespace: XMLNamespace, attributes: [XMLAttribute]) {
        if skippedStarts > 0 {
            skippedStarts -= 1
            return
        }
        handler.startElement(name, namespace: namespace, attributes: attributes)
        if handler.wantsStop { stop() }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) { handler.characters(text) }

    func end(_ name: String, namespace: XMLNamespace) {
        if skippedEnds > 0 {
            skippedEnds -= 1
            return
        }
        handler.endElement(name, namespace: namespace)
    }

    /// The namespace a URI names.
    func namespace(_ uri: UnsafePointer<xmlChar>?) -> XMLNamespace {
        guard let uri else { return .none }
        if let known = namespaces[uri] { return known }
        let namespace = XMLNamespace(uri: Self.string(uri))
        if owns(uri) { namespaces[uri] = namespace }
        return namespace
    }

    /// An element or attribute name.
    ///
    /// libxml2 interns names and namespace URIs in its dictionary, so the same pointer comes
    /// back for every element with a name or in a namespace, and the dictionary keeps each
    /// string where it is until the parse is freed: answers are cached by pointer, which is
    /// cheaper than making a string of the name at every element. Only pointers the
    /// dictionary owns are cached, so a pointer that names one string names no other.
    func name(_ pointer: UnsafePointer<xmlChar>) -> String {
        if let known = names[pointer] { return known }
        let name = Self.string(pointer)
        if owns(pointer) { names[pointer] = name }
        return name
    }

    /// Whether libxml2's dictionary for this parse holds the string at `pointer`.
    private func owns(_ pointer: UnsafePointer<xmlChar>) -> Bool {
        guard let dictionary = context?.pointee.dict, let library else { return false }
        return library.dictOwns(dictionary, pointer) == 1
    }
}

/// Values by the address of the string libxml2 interned for them: a small direct-mapped
/// table in front of a dictionary, since a feed uses a few dozen names over and over.
struct InternedNames<Value> {
    private var slots = [(key: UnsafePointer<xmlChar>?, value: Value?)](repeating: (nil, nil), count: 128)
    private var overflow: [UnsafePointer<xmlChar>: Value] = [:]

    private static func slot(_ pointer: UnsafePointer<xmlChar>) -> Int {
        let bits = UInt(bitPattern: pointer)
        return Int(truncatingIfNeeded: (bits ^ bits >> 7) & 127)
    }

    subscript(_ pointer: UnsafePointer<xmlChar>) -> Value? {
        get {
            let slot = Self.slot(pointer)
            if slots[slot].key == pointer { return slots[slot].value }
            return overflow[pointer]
        }
        set {
            let slot = Self.slot(pointer)
            if slots[slot].key == nil { slots[slot] = (pointer, newValue) } else { overflow[pointer] = newValue }
        }
    }
}
