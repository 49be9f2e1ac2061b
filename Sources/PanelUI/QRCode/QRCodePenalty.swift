/// The score by which a QR encoder picks one of the eight masks: the lower, the easier the
/// symbol is for a reader (ISO/IEC 18004:2015, 7.8.3, Table 11). Every mask decodes; the
/// score only avoids patterns that confuse a reader's search for the finders.
extension QRCodeMatrix {
    /// Table 11's weights: N1 for a run of five like modules (and one more per module past
    /// five), N2 for each 2×2 block of one colour, N3 for each finder-like 1:1:3:1:1 run
    /// beside four light modules, N4 for each 5 % the dark share strays from half.
    static let runWeight = 3, blockWeight = 3, finderWeight = 40, balanceWeight = 10

    /// The whole score of this grid as it is (masked, its format drawn).
    var penalty: Int {
        var score = 0
        for line in 0..<size {
            score += linePenalty { dark[line * size + $0] }
            score += linePenalty { dark[$0 * size + line] }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let c = dark[y * size + x]
                if dark[y * size + x + 1] == c, dark[(y + 1) * size + x] == c, dark[(y + 1) * size + x + 1] == c {
                    score += Self.blockWeight
                }
            }
        }
        let darkCount = dark.lazy.filter { $0 }.count
        // Each whole 5 % step away from 50 % dark.
        let strayPercent = abs(darkCount * 100 - size * size * 50) / (size * size)
        score += strayPercent / 5 * Self.balanceWeight
        return score
    }

    /// Rules 1 and 3 along one row or column, `module(i)` its i-th module. Outside the grid
    /// is the light quiet zone, so a finder-like run at the edge counts too.
    private func linePenalty(_ module: (Int) -> Bool) -> Int {
        var score = 0
        var run = 0
        var previous: Bool?
        for i in 0..<size {
            let m = module(i)
            if m == previous { run += 1 } else { (run, previous) = (1, m) }
            if run == 5 { score += Self.runWeight } else if run > 5 { score += 1 }
        }
        // 1011101 with 0000 before or after it, each place it starts.
        let finder: [Bool] = [true, false, true, true, true, false, true]
        func at(_ i: Int) -> Bool { (0..<size).contains(i) ? module(i) : false }
        for start in 0...(size - 7) {
            guard (0..<7).allSatisfy({ at(start + $0) == finder[$0] }) else { continue }
            let lightBefore = (1...4).allSatisfy { !at(start - $0) }
            let lightAfter = (7..<11).allSatisfy { !at(start + $0) }
            if lightBefore { score += Self.finderWeight }
            if lightAfter { score += Self.finderWeight }
        }
        return score
    }
}
