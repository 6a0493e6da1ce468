/// The known name nearest to a misspelt one, for "did you mean" in error messages.
enum NearestName {
    /// The name of `candidates` with the fewest edits (insertions, deletions, substitutions,
    /// ignoring case) from `text`, if it is close enough to be the likely intent: at most a
    /// third of its length, and at most 3 edits. Ties go to the earlier candidate.
    ///
    /// - Complexity: O(*n* · *m*) per candidate, for names of lengths *n* and *m*.
    static func nearest(to text: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(text.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased()))
            let limit = min(3, max(1, max(target.count, candidate.count) / 3))
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
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
