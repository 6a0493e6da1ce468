/// A section of a list snapshot: a model that identifies the section (and may carry content
/// such as a header title) and the items it holds, in order.
///
/// A snapshot of a whole list is an array of sections, `[ListSection<Model, Item>]`.
/// Identities (`id`) say which section or item is "the same" across two snapshots; equality
/// (`==`) says whether its content changed, which is what makes it a reload.
///
/// A section is deliberately not `Identifiable` itself, so that a snapshot of sections is never
/// mistaken for a flat list of items.
public struct ListSection<Model: Identifiable & Equatable, Item: Identifiable & Equatable> {
    /// The section's identity and content.
    public var model: Model
    /// The section's items, in display order.
    public var items: [Item]

    /// Creates a section with `model` holding `items`.
    @inlinable
    public init(model: Model, items: [Item]) {
        self.model = model
        self.items = items
    }

    /// The identity of the section: its model's.
    @inlinable
    public var id: Model.ID { model.id }
}

extension ListSection: Equatable {}
extension ListSection: Hashable where Model: Hashable, Item: Hashable {}
extension ListSection: Sendable where Model: Sendable, Item: Sendable {}

/// The model of the one section of a flat list, for diffing plain arrays.
public struct SoleSection: Identifiable, Hashable, Sendable {
    /// Every sole section has the same identity.
    public var id: Int { 0 }

    /// Creates the model.
    public init() {}
}
