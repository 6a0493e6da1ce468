import ContentLoading

extension ContentLoader {
    /// Hands a frame's ``LoadPlan`` changes to the loader as prefetches: stops first, then
    /// changes of priority, then starts, each in the plan's order (the most urgent last, so that
    /// a newest-first queue starts it first). Slots bound to the same requests join the work.
    ///
    /// - Parameter request: the request of an item, or nil for an item with nothing to load;
    ///   it must answer for items that have left the list too, as they may be stopped.
    /// - Complexity: O(c) for the c changes.
    public func apply<ID>(_ changes: LoadPlan<ID>.Changes, request: (ID) -> Request?) {
        apply(changes.prefetches(request))
    }
}
