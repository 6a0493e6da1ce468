import CLibXML2

/// libxml2's SAX2 push parser over a document with callbacks that only count elements: the
/// floor under any parser built on libxml2, which `bench feed` compares the Feeds parser with.
package enum BareXMLWalk {
    /// The elements of `bytes`, parsed in pieces of `chunkSize` bytes as from a socket, with
    /// the options the Feeds parser uses; `nil` when libxml2 cannot be loaded.
    package static func elementCount(_ bytes: [UInt8], chunkSize: Int) -> Int? {
        guard case .success(let library) = LibXML2.shared else { return nil }
        final class Counter { var elements = 0 }
        let counter = Counter()
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { context, _, _, _, _, _, _, _, _ in
            guard let context else { return }
            Unmanaged<Counter>.fromOpaque(context).takeUnretainedValue().elements += 1
        }
        return withExtendedLifetime(counter) {
            guard let context = library.createPushParserCtxt(&sax, Unmanaged.passUnretained(counter).toOpaque(), nil, 0, nil) else { return nil }
            defer {
                if let document = context.pointee.myDoc { library.freeDoc(document) }
                library.freeParserCtxt(context)
            }
            _ = library.ctxtUseOptions(context, XMLPushParser.options)
            bytes.withUnsafeBufferPointer { library.feed(context, $0, through: library.parseChunk, pieceSize: chunkSize, terminate: true) }
            return counter.elements
        }
    }
}
