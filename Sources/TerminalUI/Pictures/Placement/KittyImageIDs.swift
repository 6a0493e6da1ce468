/// Which pictures a kitty terminal holds, by id: a picture is sent once and shown again by its
/// id, and the least recently shown are deleted past a cap on their count and one on their
/// bytes, so the terminal's memory stays bounded however long a list scrolls (and below kitty's
/// own quota, past which it would drop pictures without a word).
///
/// Ids are 1...255 (what a placeholder's colour can name) and are reused once freed. The
/// caller sends a picture when ``id(for:)`` says it is new, and deletes the evicted ids
/// (``KittyGraphics/deleteImage(id:)``) before it places anything under them again.
public struct KittyImageIDs<Key: Hashable> {
    /// The most pictures held at once.
    public let capacity: Int
    /// The most bytes of pixels held at once (a picture larger than this alone is still held).
    public let byteBudget: Int
    private var sizes: [Key: Int] = [:]
    /// The bytes of pixels held.
    public private(set) var bytes = 0
    private var ids: [Key: Int] = [:]
    /// Keys from least to most recently used.
    private var order: [Key] = []
    private var free: [Int]

    /// An empty set of at most `capacity` pictures.
    /// - Precondition: `capacity` is 1...255.
    public init(capacity: Int = 128, byteBudget: Int = .max) {
        precondition((1...255).contains(capacity), "kitty image ids here are 1 to 255")
        self.capacity = capacity
        self.byteBudget = byteBudget
        free = Array((1...capacity).reversed())
    }

    /// The id for `key`, marked most recently used: `isNew` when the picture must be sent, and
    /// the ids evicted to make room, whose pictures must be deleted first.
    ///
    /// - Complexity: O(capacity).
    public mutating func id(for key: Key) -> (id: Int, isNew: Bool, evicted: [Int]) {
        id(for: key, bytes: 0)
    }

    /// The id for `key`, a picture of `size` bytes of pixels, marked most recently used:
    /// `isNew` when the picture must be sent, and the ids evicted to make room (in count or in
    /// bytes), whose pictures must be deleted first.
    ///
    /// - Complexity: O(capacity).
    public mutating func id(for key: Key, bytes size: Int) -> (id: Int, isNew: Bool, evicted: [Int]) {
        if let id = ids[key] {
            order.removeAll { $0 == key }
            order.append(key)
            return (id, false, [])
        }
        var evicted: [Int] = []
        while free.isEmpty || (bytes + size > byteBudget && !order.isEmpty), let oldest = order.first {
            order.removeFirst()
            let id = ids.removeValue(forKey: oldest)!
            bytes -= sizes.removeValue(forKey: oldest) ?? 0
            evicted.append(id)
            free.append(id)
        }
        let id = free.removeLast()
        ids[key] = id
        sizes[key] = size
        bytes += size
        order.append(key)
        return (id, true, evicted)
    }

    /// Forgets `key`'s picture (the list no longer holds it) and returns its id, to delete.
    public mutating func forget(_ key: Key) -> Int? {
        guard let id = ids.removeValue(forKey: key) else { return nil }
        bytes -= sizes.removeValue(forKey: key) ?? 0
        order.removeAll { $0 == key }
        free.append(id)
        return id
    }

    /// The ids of the pictures held, in increasing order.
    public var heldIDs: [Int] { ids.values.sorted() }

    /// How many pictures are held.
    public var count: Int { ids.count }
}
