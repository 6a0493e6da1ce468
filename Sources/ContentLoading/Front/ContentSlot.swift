/// The content of one place in a row view (its image, its avatar), safe across cell reuse.
///
/// Binding the slot to a request cancels what it was bound to before, shows a placeholder
/// (``State/loading(_:)``) unless the value is cached, and starts a new binding; a value
/// reaches the slot only if it is still bound to that request in that binding. Unbind on reuse
/// and on end of display: the work stops unless someone else wants it.
///
/// The main-actor path (bind, unbind, delivery) is inlinable so that it is specialized for the
/// app's request and value types: run generically, it costs ten times as much.
@MainActor
public final class ContentSlot<Request: ContentRequest, Value: Sendable> {
    /// What the slot shows.
    public enum State {
        /// Bound to nothing.
        case empty
        /// Waiting for the value of this request: show a placeholder.
        case loading(Request)
        /// The value of this request.
        case loaded(Request, Value)
        /// This request failed.
        case failed(Request, ContentError)

        /// The request the slot is bound to, if any.
        public var request: Request? {
            switch self {
            case .empty: nil
            case .loading(let request), .loaded(let request, _), .failed(let request, _): request
            }
        }

        /// The value, if loaded.
        public var value: Value? {
            if case .loaded(_, let value) = self { value } else { nil }
        }
    }

    /// What the slot shows now.
    public var state: State { storedState }

    @usableFromInline var storedState: State = .empty {
        didSet { onChange?(storedState) }
    }

    /// Called on every change of ``state``: redraw the row's image.
    public var onChange: ((State) -> Void)?

    /// The loader, held strongly: a slot may outlive every other owner of its loader (a screen
    /// torn down in any order), and its deinit still unbinds from it. The loader's front names
    /// its slots by identity, holding them weakly, so there is no cycle.
    @usableFromInline let loader: ContentLoader<Request, Value>

    init(loader: ContentLoader<Request, Value>) {
        self.loader = loader
    }

    /// Binds the slot to `request`; if it is already bound to it (a row that re-enters view),
    /// sets the priority and moves the work, if it waits, to the front of its tier: it is the
    /// newest thing the user asked for.
    @inlinable
    public func bind(_ request: Request, priority: LoadPriority = .visible) {
        // Straight from the old request to the new one: no empty state in between for a
        // redraw to flash.
        switch loader.bind(self, to: request, priority: priority) {
        case .renewed: return
        case .cached(let value): storedState = .loaded(request, value)
        case .loading: storedState = .loading(request)
        }
    }

    /// Changes the priority of the current binding (a row moving between visible, display
    /// and preload ranges).
    @inlinable
    public func setPriority(_ priority: LoadPriority) {
        loader.setPriority(priority, of: self)
    }

    /// Unbinds the slot, cancelling its work unless someone else wants it.
    @inlinable
    public func unbind() {
        loader.unbind(ObjectIdentifier(self))
        if case .empty = storedState { return }
        storedState = .empty
    }

    /// Takes a delivered result for `request`, which the loader's front accepted for the
    /// slot's current binding.
    @inlinable
    func receive(_ result: Result<Value, ContentError>, for request: Request) {
        switch result {
        case .success(let value): storedState = .loaded(request, value)
        case .failure(let error): storedState = .failed(request, error)
        }
    }

    isolated deinit {
        loader.unbind(ObjectIdentifier(self))
    }
}
