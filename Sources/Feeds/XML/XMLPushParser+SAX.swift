import CLibXML2
import Foundation

/// The SAX2 callbacks: C functions that find their parser through libxml2's user-data pointer
/// and forward each event to it.
extension XMLPushParser {
    static func saxHandler() -> xmlSAXHandler {
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
                    let bytes = UnsafeBufferPointer(start: start, count: end - start)
                    var value = String(decoding: bytes, as: UTF8.self)
                    // Without entity substitution, libxml2 leaves references in attribute values
                    // as written (and `&amp;` as `&#38;`); the value is what they stand for.
                    if memchr(start, Int32(UInt8(ascii: "&")), bytes.count) != nil { value = parser.decodeAttribute(value) }
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
            return Unmanaged<XMLPushParser>.fromOpaque(context).takeUnretainedValue().entity(named: XMLPushParser.string(name))
        }
        sax.entityDecl = { context, name, type, _, _, content in
            guard let context, let name else { return }
            Unmanaged<XMLPushParser>.fromOpaque(context).takeUnretainedValue()
                .declareEntity(name: XMLPushParser.string(name), type: type, content: content.map { XMLPushParser.string(UnsafePointer($0)) })
        }
        sax.resolveEntity = { _, _, _ in nil }
        sax.serror = { context, error in
            guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            Unmanaged<XMLPushParser>.fromOpaque(context).takeUnretainedValue().reportError()
        }
        return sax
    }
}

extension XMLPushParser {
    /// A NUL-terminated UTF-8 string from libxml2.
    static func string(_ text: UnsafePointer<xmlChar>) -> String {
        String(cString: text)
    }
}
