import CFriBidi

/// A paragraph's bidirectional levels (UAX #9, by FriBidi): which characters run right to left,
/// and the order a line of them is shown in.
struct Bidi {
    /// FriBidi's type of each character (kept for reordering lines).
    let types: [FriBidiCharType]
    /// The resolved embedding level of each character: even left to right, odd right to left.
    let levels: [FriBidiLevel]
    /// The paragraph's direction: its first strong character's, else the fallback's.
    let isRightToLeft: Bool
    /// The direction its characters are ordered in: the paragraph's, except that a paragraph
    /// with no strong character and no Arabic-Indic digit (a count, a time, a sign and a
    /// number in European digits) keeps its own order in a right-to-left UI: a badge's "+2"
    /// read "2+" in Arabic and Hebrew. It still aligns as the UI does (`isRightToLeft`). A
    /// number in Arabic-Indic digits ("٤٫٥٠ €") is written in the UI's direction, its sign after it.
    let ordersRightToLeft: Bool

    /// The levels of `scalars`; a paragraph with no strong character takes `rightToLeftWhenNeutral`.
    /// FriBidi failing (it allocates) leaves every character at the fallback's level.
    init(_ scalars: [UInt32], rightToLeftWhenNeutral: Bool) {
        let count = scalars.count
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: count)
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        var result: Int32 = -1
        if count > 0 {
            result = scalars.withUnsafeBufferPointer { text in
                panel_bidi_levels(text.baseAddress, FriBidiStrIndex(count), rightToLeftWhenNeutral ? 1 : 0,
                                  &types, &brackets, &levels)
            }
        }
        if result < 0 {
            levels = [FriBidiLevel](repeating: rightToLeftWhenNeutral ? 1 : 0, count: count)
            isRightToLeft = rightToLeftWhenNeutral
        } else {
            isRightToLeft = result == 1
        }
        var ordersRightToLeft = isRightToLeft
        let arabicDigits = scalars.contains { (0x0660...0x066C).contains($0) || (0x06F0...0x06F9).contains($0) }
        if rightToLeftWhenNeutral, result == 1, !arabicDigits {
            // Right to left from the fallback or from a strong character? Asked again with the
            // left-to-right fallback: still right to left means a strong character said so.
            var neutralLevels = [FriBidiLevel](repeating: 0, count: count)
            let again = scalars.withUnsafeBufferPointer { text in
                panel_bidi_levels(text.baseAddress, FriBidiStrIndex(count), 0, &types, &brackets, &neutralLevels)
            }
            if again == 0 {
                levels = neutralLevels
                ordersRightToLeft = false
            }
        }
        self.ordersRightToLeft = ordersRightToLeft
        self.types = types
        self.levels = levels
    }

    /// For each character of `range` (one line), its place from the left when shown: rules L1
    /// and L2 applied to that line alone. Indices outside the range are not set.
    func visualPositions(of range: Range<Int>) -> [Int: Int] {
        guard !range.isEmpty else { return [:] }
        var lineLevels = levels
        var map = [FriBidiStrIndex](repeating: 0, count: levels.count)
        for i in range { map[i] = FriBidiStrIndex(i) }
        let failed = types.withUnsafeBufferPointer { types in
            panel_bidi_reorder_line(types.baseAddress, FriBidiStrIndex(range.lowerBound), FriBidiStrIndex(range.count),
                                    ordersRightToLeft ? 1 : 0, &lineLevels, &map) != 0
        }
        var positions: [Int: Int] = [:]
        positions.reserveCapacity(range.count)
        for (place, i) in range.enumerated() {
            // Without FriBidi's order the line keeps its logical order (still readable for LTR).
            positions[failed ? i : Int(map[i])] = place
        }
        return positions
    }
}
