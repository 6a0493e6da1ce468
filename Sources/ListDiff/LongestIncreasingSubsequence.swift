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
    var mask = [Bool](repeating: false, count: values.count)
    guard !values.isEmpty else { return mask }
    // piles[k]: index of the smallest value that ends an increasing run of length k + 1.
    var piles: [Int] = []
    var previous = [Int](repeating: -1, count: values.count)
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
    return mask
}
