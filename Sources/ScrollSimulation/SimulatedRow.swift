import ContentLoading

/// One row of a simulated list: an identity, nothing else.
package struct SimulatedRow: Identifiable, Equatable, Sendable {
    /// The item's identity.
    package let id: Int

    /// The row of item `id`.
    package init(id: Int) { self.id = id }
}

/// The content of a row as a simulated load produced it: the item it was loaded for and the
/// load that fetched it, so that the benchmark can tell which loads reached the screen.
package struct RowContent: Sendable, Equatable {
    /// The item the content belongs to.
    package let item: Int
    /// The load that fetched it, numbered by the simulation; -1 outside it.
    package let load: Int

    /// The content of `item` fetched by load number `load`.
    package init(item: Int, load: Int) {
        self.item = item
        self.load = load
    }
}

/// A simulated request for a row's content; its data key is the item.
struct RowContentRequest: ContentRequest {
    let item: Int
    var dataKey: Int { item }
}
