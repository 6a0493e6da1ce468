import Feeds

/// The reply of `stream/items/ids`: a page of item ids.
struct ItemReferences {
    enum Key: String, CaseIterable, Sendable { case itemRefs, continuation }
    static let keys = ReplyKeys<Key>()

    var itemRefs: [Reference]?
    var continuation: String?

    /// The reply at the reader's top level.
    static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> Decoded<ItemReferences> {
        try reader.decodedObject(keys, into: ItemReferences()) { (reader: inout JSONReader, key: Key, references: inout ItemReferences) throws(JSONReaderError) in
            switch key {
            case .itemRefs: try reader.decodedArray(Reference.read).store(in: &references.itemRefs)
            case .continuation: try reader.decodedLenientString().store(in: &references.continuation)
            }
        }
    }
}

extension ItemReferences {
    /// An item's id, as a string or a number.
    struct Reference {
        enum Key: String, CaseIterable, Sendable { case id }
        static let keys = ReplyKeys<Key>()

        var id: String?

        static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> Decoded<Reference> {
            try reader.decodedObject(keys, into: Reference()) { (reader: inout JSONReader, key: Key, reference: inout Reference) throws(JSONReaderError) in
                switch key {
                case .id: try reader.decodedLenientString().store(in: &reference.id)
                }
            }
        }
    }
}
