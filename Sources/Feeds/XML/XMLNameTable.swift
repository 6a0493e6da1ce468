import Foundation

/// Element and attribute names by their bytes, each given an id once: the same few dozen
/// names come back at every entry, and a name's string, prefix and local part are made once.
struct XMLNameTable {
    struct Entry {
        var bytes: [UInt8]
        /// The local part: the name after its prefix (the whole name without one).
        var name: String
        /// The id of the prefix, as a name of its own; 0 for none.
        var prefix: Int
        /// The id of the local part, as a name of its own.
        var local: Int
    }

    /// The most names a table holds.
    static var maxNames: Int { 4096 }
    /// Ids of the names `xmlns` and `xml`, which namespaces reserve.
    static var xmlns: Int { 1 }
    static var xml: Int { 2 }

    /// Entries by id; id 0 is no name.
    private var entries: [Entry] = [Entry(bytes: [], name: "", prefix: 0, local: 0)]
    /// Open addressing: entry ids, 0 for an empty slot.
    private var slots = [Int32](repeating: 0, count: 256)

    init() {
        _ = "xmlns".utf8.withContiguousStorageIfAvailable { id($0.baseAddress!, $0.count) }
        _ = "xml".utf8.withContiguousStorageIfAvailable { id($0.baseAddress!, $0.count) }
    }

    subscript(id: Int) -> Entry { entries[id] }

    /// The id of the name in `count` bytes at `p`, added if new; `nil` if it is not a
    /// qualified name (an ASCII name with at most one `:`, not at either end).
    /// - Complexity: O(`count`), expected.
    mutating func id(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        guard count > 0 else { return nil }
        var hash: UInt32 = 2_166_136_261
        for k in 0..<count { hash = (hash ^ UInt32(p[k])) &* 16_777_619 }
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while true {
            let id = Int(slots[slot])
            if id == 0 { break }
            let matches = entries[id].bytes.withUnsafeBufferPointer { $0.count == count && memcmp($0.baseAddress!, p, count) == 0 }
            if matches { return id }
            slot = (slot + 1) & mask
        }
        // A document of thousands of names is not a feed; the scanner leaves it to libxml2,
        // whose dictionary hashes with a random seed, rather than grow a table anyone can
        // make collide.
        guard entries.count < Self.maxNames else { return nil }
        let bytes = UnsafeBufferPointer(start: p, count: count)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
            guard XMLBytes.isNameStart(p[0]) else { return nil }
            return add(Entry(bytes: Array(bytes), name: String(decoding: bytes, as: UTF8.self), prefix: 0, local: entries.count), at: slot)
        }
        guard colon > 0, colon < count - 1, !bytes[(colon + 1)...].contains(UInt8(ascii: ":")),
              let prefix = id(p, colon), let local = id(p + colon + 1, count - colon - 1) else { return nil }
        // Adding the parts may have moved the slots.
        slot = Int(hash) & (slots.count - 1)
        while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
        return add(Entry(bytes: Array(bytes), name: entries[local].name, prefix: prefix, local: local), at: slot)
    }

    /// Whether the name with `id` is the `count` bytes at `p`: what ``id(_:_:)`` of those
    /// bytes would say, without hashing them or adding a name (an end tag is checked against
    /// the element it must close).
    func hasName(_ id: Int, _ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        entries[id].bytes.withUnsafeBufferPointer { $0.count == count && count > 0 && memcmp($0.baseAddress!, p, count) == 0 }
    }

    private mutating func add(_ entry: Entry, at slot: Int) -> Int {
        let id = entries.count
        entries.append(entry)
        slots[slot] = Int32(id)
        if entries.count * 2 > slots.count { grow() }
        return id
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for id in 1..<entries.count {
            var hash: UInt32 = 2_166_136_261
            for byte in entries[id].bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            var slot = Int(hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
        }
    }
}
