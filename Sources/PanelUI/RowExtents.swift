/// Row lengths that change one at a time (rows measured as they come on screen) with their
/// running sums kept in a Fenwick tree (Fenwick, "A new data structure for cumulative frequency
/// tables", 1994): a row's start, the total and the row at a position each cost O(log n), so a
/// list of 1,000,000 automatic rows measures its visible rows without summing the others.
struct RowExtents {
    /// Each row's length, points.
    private(set) var lengths: [Double]
    /// Fenwick's partial sums, 1-based.
    private var tree: [Double]

    /// `count` rows of `length` points each.
    init(count: Int, length: Double) {
        lengths = Array(repeating: length, count: count)
        tree = Array(repeating: 0, count: count + 1)
        // Linear construction: each node adds itself into its parent once.
        for i in 1...max(count, 1) where i <= count {
            tree[i] += length
            let parent = i + (i & -i)
            if parent <= count { tree[parent] += tree[i] }
        }
    }

    /// The number of rows.
    var count: Int { lengths.count }

    /// Sets row `row`'s length.
    mutating func set(_ row: Int, _ length: Double) {
        let delta = length - lengths[row]
        guard delta != 0 else { return }
        lengths[row] = length
        var i = row + 1
        while i <= count {
            tree[i] += delta
            i += i & -i
        }
    }

    /// Where row `row` starts: the sum of the rows before it.
    func start(of row: Int) -> Double {
        var sum = 0.0
        var i = min(row, count)
        while i > 0 {
            sum += tree[i]
            i -= i & -i
        }
        return sum
    }

    /// All rows' lengths together.
    var total: Double { start(of: count) }

    /// The row that covers `position` (clamped to the rows that exist): Fenwick's descent.
    func row(at position: Double) -> Int {
        guard count > 0 else { return 0 }
        var index = 0
        var remaining = position
        var step = 1
        while step * 2 <= count { step *= 2 }
        while step > 0 {
            let next = index + step
            if next <= count, tree[next] <= remaining {
                index = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return min(index, count - 1)
    }
}
