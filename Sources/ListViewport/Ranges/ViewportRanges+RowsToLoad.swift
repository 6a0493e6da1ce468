extension ViewportRanges {
    /// Every row whose content should be loading now, with the tier to load it in: what a host
    /// hands to its loader each frame (prefetching, raising, lowering, and cancelling what is
    /// no longer listed).
    ///
    /// - With ``Configuration/LoadingPolicy/whenStopped``: the visible rows at
    ///   ``LoadTier/visible`` when the list is at rest, else nothing.
    /// - At rest, dragging, or after a glide: the visible rows at ``LoadTier/visible``, the
    ///   rest of the display range at ``LoadTier/display``, the rest of the preload range at
    ///   ``LoadTier/prefetch``.
    /// - During a glide or an animated scroll (``isGliding``): the ``passing`` rows at
    ///   ``LoadTier/visible``, as they come into view first; the ``landing`` rows at
    ///   ``LoadTier/display``, as they are what the screen shows when the motion stops;
    ///   nothing else, since every other row would flash by before its content could arrive
    ///   (the display and preload ranges come back into force when the motion ends). A host may
    ///   still load its displayed rows (the rows on screen and those the glide brings within
    ///   ``Configuration/glideDisplayLead``) below every tier, with whatever capacity this leaves.
    ///
    /// Rows appear once each, least urgent first, so that a newest-first queue starts the
    /// most urgent first: within the landing and passing rows, those needed last come first;
    /// at rest, rows far from the screen before rows near it.
    /// - Complexity: O(r log r) for the r rows listed.
    public var rowsToLoad: [(row: Int, tier: LoadTier)] {
        if loadsWhenStopped { return isAtRest ? visible.map { ($0, .visible) } : [] }
        if isGliding {
            // Passing rows are listed in the order the glide needs them; the landing's first
            // rows on screen are those on the side the glide comes from.
            let landingRows = glideDirection == .down ? Array(landing.reversed()) : Array(landing)
            return landingRows.map { ($0, .display) } + passing.filter { !landing.contains($0) }.reversed().map { ($0, .visible) }
        }
        func distance(_ row: Int) -> Int {
            row < visible.lowerBound ? visible.lowerBound - row : max(0, row - visible.upperBound + 1)
        }
        var rows: [(row: Int, tier: LoadTier)] = []
        rows.reserveCapacity(preload.count + display.count)
        for row in preload where !display.contains(row) && !visible.contains(row) { rows.append((row, .prefetch)) }
        for row in display where !visible.contains(row) { rows.append((row, .display)) }
        for row in visible { rows.append((row, .visible)) }
        return rows.sorted { distance($0.row) > distance($1.row) }
    }
}
