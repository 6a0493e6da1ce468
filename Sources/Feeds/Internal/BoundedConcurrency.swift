/// Runs `transform` on every element with at most `limit` running at once, and returns the
/// results in the order of `elements`.
func mapConcurrently<Element: Sendable, Result: Sendable>(
    _ elements: [Element], limit: Int, _ transform: @escaping @Sendable (Element) async -> Result
) async -> [Result] {
    await withTaskGroup(of: (Int, Result).self) { group in
        var results = [Result?](repeating: nil, count: elements.count)
        var next = 0
        func startNext() {
            guard next < elements.count else { return }
            let (index, element) = (next, elements[next])
            next += 1
            group.addTask { (index, await transform(element)) }
        }
        for _ in 0..<max(1, limit) { startNext() }
        while let (index, result) = await group.next() {
            results[index] = result
            startNext()
        }
        return results.map { $0! }
    }
}
