import CLibXML2

/// Receives the events of libxml2's forgiving HTML parser.
protocol HTMLEventHandling: AnyObject {
    func startElement(_ name: String, attributes: [String: String])
    func endElement(_ name: String)
    func characters(_ text: String)
}

/// libxml2's HTML parser as SAX events: tolerant of real-world markup (unclosed tags,
/// misnested elements, missing `html` and `body`), nothing loaded from the network.
enum HTMLSAXParser {
    static func parse(_ html: String, into handler: any HTMLEventHandling) {
        var sax = htmlSAXHandler()
        sax.startElement = { context, name, attributes in
            guard let context, let name else { return }
            var list: [String: String] = [:]
            if let attributes {
                var index = 0
                while let key = attributes[index] {
                    let value = attributes[index + 1].map { String(cString: $0) } ?? ""
                    list[String(cString: key).lowercased()] = value
                    index += 2
                }
            }
            Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().handler.startElement(String(cString: name).lowercased(), attributes: list)
        }
        sax.endElement = { context, name in
            guard let context, let name else { return }
            Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().handler.endElement(String(cString: name).lowercased())
        }
        let characters: charactersSAXFunc = { context, text, length in
            guard let context, let text, length > 0 else { return }
            let string = String(decoding: UnsafeBufferPointer(start: text, count: Int(length)), as: UTF8.self)
            Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().handler.characters(string)
        }
        sax.characters = characters
        sax.cdataBlock = characters
        let box = Box(handler: handler)
        let unmanaged = Unmanaged.passRetained(box)
        defer { unmanaged.release() }
        guard case .success(let library) = LibXML2.shared,
              let context = library.htmlCreatePushParserCtxt(&sax, unmanaged.toOpaque(), nil, 0, nil, XML_CHAR_ENCODING_UTF8) else { return }
        defer {
            if let document = context.pointee.myDoc { library.freeDoc(document) }
            library.htmlFreeParserCtxt(context)
        }
        _ = library.htmlCtxtUseOptions(context, Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue))
        var html = html
        html.withUTF8 { library.feed(context, $0, through: library.htmlParseChunk, pieceSize: XMLPushParser.blockBytes, terminate: true) }
    }

    private final class Box {
        let handler: any HTMLEventHandling
        init(handler: any HTMLEventHandling) { self.handler = handler }
    }
}
