/// Marks one longest strictly increasing subsequence of `values`.
///
/// The diff keeps these elements in place and moves the others, which gives the fewest moves
/// that reorder a sequence. Patience sorting: an element larger than every pile top is
/// appended in O(1), so a sequence that keeps most of its order costs O(n); each element that
/// breaks the order costs one binary search.
///
/// - Returns: a mask, `true` for the elements of the subsequence.
/// - Complexity: O(n + k log n) for n values of which k are out of order; O(n log n) at worst.
@usableFromInline
func longestIncreasingSubsequenceMask(_ values: [Int]) -> [Bool] {
    var run = LongestIncreasingRun()
    run.mark(values)
    return run.mask
}

/// ``longestIncreasingSubsequenceMask(_:)`` with its arrays kept from one call to the next: a
/// diff of many sections marks one run per section, and allocates them once.
@usableFromInline
struct LongestIncreasingRun {
    /// After ``mark(_:)``, `true` for the elements of the subsequence, one per value.
    @usableFromInline var mask: [Bool] = []
    @usableFromInline var previous: [Int] = []
    /// piles[k]: index of the smallest value that ends an increasing run of length k + 1.
    @usableFromInline var piles: [Int] = []

    @inlinable
    init() {}

    /// Marks in ``mask`` one longest strictly increasing subsequence of `values`.
    /// - Complexity: as ``longestIncreasingSubsequenceMask(_:)``.
    @inlinable
    mutating func mark(_ values: [Int]) {
        mask.removeAll(keepingCapacity: true)
        mask.append(contentsOf: repeatElement(false, count: values.count))
        guard !values.isEmpty else { return }
        piles.removeAll(keepingCapacity: true)
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: repeatElement(-1, count: values.count))
        for index in values.indices {
            let value = values[index]
            if let top = piles.last, values[top] >= value {
                var low = 0
                var high = piles.count - 1
                while low < high {
                    let middle = (low + high) / 2
                    if values[piles[middle]] < value { low = middle + 1 } else { high = middle }
                }
                piles[low] = index
                previous[index] = low > 0 ? piles[low - 1] : -1
            } else {
                previous[index] = piles.last ?? -1
                piles.append(index)
            }
        }
        var index = piles[piles.count - 1]
        while index >= 0 {
            mask[index] = true
            index = previous[index]
        }
    }
}
