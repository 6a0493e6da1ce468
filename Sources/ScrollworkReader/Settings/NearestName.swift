/// The known name nearest to a misspelt one, for "did you mean" in error messages.
enum NearestName {
    /// The name of `candidates` with the fewest edits (insertions, deletions, substitutions,
    /// ignoring case) from `text`, if it is close enough to be the likely intent: at most a
    /// third of its length, and at most 3 edits. Of names as near, the one that shares the
    /// longest beginning with `text` wins (`pgdown` is nearer `pgdn` than `down`), then the
    /// earlier one. With none that near, a name that `text` (of 3 characters or more) begins
    /// is the suggestion (`selection` for `selection_background`).
    ///
    /// - Complexity: O(*n* · *m*) per candidate, for names of lengths *n* and *m*.
    static func nearest(to text: String, among candidates: some Collection<String>) -> String? {
        let target = Array(text.lowercased())
        var best: (name: String, distance: Int, sharedPrefix: Int)?
        for candidate in candidates {
            let name = Array(candidate.lowercased())
            let distance = editDistance(target, name)
            let limit = min(3, max(1, max(target.count, name.count) / 3))
            let sharedPrefix = zip(target, name).prefix { $0 == $1 }.count
            if distance <= limit, (distance, -sharedPrefix) < (best?.distance ?? .max, -(best?.sharedPrefix ?? 0)) {
                best = (candidate, distance, sharedPrefix)
            }
        }
        if let best { return best.name }
        guard target.count >= 3 else { return nil }
        return candidates.first { $0.lowercased().hasPrefix(String(target)) }
    }

    /// Levenshtein distance, one row at a time.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
