/// The grid of a QR code being built: which modules are dark, and which belong to the
/// function patterns (finders, separators, timing, alignment, format and version
/// information) that data and masks leave alone (ISO/IEC 18004:2015, 6.3).
struct QRCodeMatrix: Sendable {
    /// Modules along a side.
    let size: Int
    /// Row-major: `y * size + x` is dark.
    var dark: [Bool]
    /// Row-major: `y * size + x` belongs to a function pattern.
    var reserved: [Bool]

    /// The function patterns of `version` drawn, the format and version areas reserved (the
    /// format's bits are drawn after the mask is chosen), every data module light.
    init(version: QRCodeVersion) {
        size = version.size
        dark = [Bool](repeating: false, count: size * size)
        reserved = dark
        // Timing patterns first: the finders and alignment patterns drawn after overwrite
        // where they cross them.
        for i in 0..<size {
            set(6, i, dark: i % 2 == 0)
            set(i, 6, dark: i % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] { finder(centreX: x, centreY: y) }
        // Every pair of centres but the three a finder already holds.
        let centres = version.alignmentCentres
        let first = centres.first, last = centres.last
        for cy in centres {
            for cx in centres where !(cx == first && (cy == first || cy == last)) && !(cx == last && cy == first) {
                alignment(centreX: cx, centreY: cy)
            }
        }
        // The format information's two copies, and the module that is always dark.
        for i in 0..<9 {
            reserve(8, i)
            reserve(i, 8)
        }
        for i in 0..<8 {
            reserve(size - 1 - i, 8)
            reserve(8, size - 1 - i)
        }
        set(8, size - 8, dark: true)
        if version.number >= 7 {
            // Version information: 18 bits beside each of the two far finders.
            let bits = Self.versionBits(version.number)
            for i in 0..<18 {
                let on = (bits >> i) & 1 == 1
                set(size - 11 + i % 3, i / 3, dark: on)
                set(i / 3, size - 11 + i % 3, dark: on)
            }
        }
    }

    /// The modules left for codewords and remainder bits.
    var dataModuleCount: Int { reserved.lazy.filter { !$0 }.count }

    /// Sets a function module.
    mutating func set(_ x: Int, _ y: Int, dark on: Bool) {
        dark[y * size + x] = on
        reserved[y * size + x] = true
    }

    private mutating func reserve(_ x: Int, _ y: Int) { reserved[y * size + x] = true }

    /// A finder (7×7 rings: dark, light, dark 3×3) and its light separator, clipped to the grid.
    private mutating func finder(centreX: Int, centreY: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = centreX + dx, y = centreY + dy
                guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                let ring = max(abs(dx), abs(dy))
                set(x, y, dark: ring != 2 && ring != 4)
            }
        }
    }

    /// An alignment pattern: 5×5 rings, dark, light, dark centre.
    private mutating func alignment(centreX: Int, centreY: Int) {
        for dy in -2...2 {
            for dx in -2...2 { set(centreX + dx, centreY + dy, dark: max(abs(dx), abs(dy)) != 1) }
        }
    }

    /// Lays `codewords` into the data modules, most significant bit first: two columns at a
    /// time from the right, up then down in turn, stepping over the vertical timing column
    /// (7.7.3). Modules past the last codeword stay light (the remainder bits).
    mutating func place(_ codewords: [UInt8]) {
        var bit = 0
        let total = codewords.count * 8
        var right = size - 1
        while right > 0 {
            if right == 6 { right = 5 }
            let upward = ((size - 1 - right) / 2) % 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !reserved[y * size + x] {
                    if bit < total {
                        dark[y * size + x] = (codewords[bit / 8] >> (7 - bit % 8)) & 1 == 1
                    }
                    bit += 1
                }
            }
            right -= 2
        }
    }

    /// Whether mask `pattern` (0-7, Table 10) inverts the data module at `x`, `y` (`x` the column).
    static func inverts(_ pattern: Int, x: Int, y: Int) -> Bool {
        switch pattern {
        case 0: (y + x) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (y + x) % 3 == 0
        case 4: (y / 2 + x / 3) % 2 == 0
        case 5: (y * x) % 2 + (y * x) % 3 == 0
        case 6: ((y * x) % 2 + (y * x) % 3) % 2 == 0
        default: ((y + x) % 2 + (y * x) % 3) % 2 == 0
        }
    }

    /// This grid with mask `pattern` applied to its data modules and its format information
    /// drawn for `level`.
    func masked(_ pattern: Int, level: QRCode.Correction) -> QRCodeMatrix {
        var out = self
        for y in 0..<size {
            for x in 0..<size where !reserved[y * size + x] && Self.inverts(pattern, x: x, y: y) {
                out.dark[y * size + x].toggle()
            }
        }
        let bits = Self.formatBits(level: level, mask: pattern)
        // Bit 14 (the most significant) is first along row 8 and last down column 8.
        for i in 0..<15 {
            let on = (bits >> i) & 1 == 1
            // Around the top-left finder: up column 8 for bits 0-7 (stepping over the
            // timing row), then along row 8 leftwards for bits 8-14.
            switch i {
            case 0...5: out.dark[i * size + 8] = on
            case 6: out.dark[7 * size + 8] = on
            case 7: out.dark[8 * size + 8] = on
            case 8: out.dark[8 * size + 7] = on
            default: out.dark[8 * size + 14 - i] = on
            }
            // The second copy: bits 0-7 along row 8 from the right edge, 8-14 down column 8
            // from below the dark module.
            if i < 8 { out.dark[8 * size + size - 1 - i] = on } else { out.dark[(size - 15 + i) * size + 8] = on }
        }
        return out
    }

    /// The 15 format bits: the level's two bits and the mask's three, a BCH(15, 5) remainder
    /// by x¹⁰ + x⁸ + x⁵ + x⁴ + x² + x + 1 (0x537), XORed with 0x5412 so no format is all light
    /// (7.9.1).
    static func formatBits(level: QRCode.Correction, mask: Int) -> Int {
        let data = level.formatBits << 3 | mask
        return (data << 10 | bchRemainder(data, generator: 0x537, degree: 10)) ^ 0x5412
    }

    /// The 18 version bits: the version's six and a BCH(18, 6) remainder by 0x1F25 (7.10).
    static func versionBits(_ version: Int) -> Int {
        version << 12 | bchRemainder(version, generator: 0x1F25, degree: 12)
    }

    /// The remainder of `data`·x^degree divided by `generator` over GF(2).
    private static func bchRemainder(_ data: Int, generator: Int, degree: Int) -> Int {
        var rest = data << degree
        // Subtract (XOR) the generator under the highest set bit until the rest is shorter.
        var top = Int.bitWidth - 1 - rest.leadingZeroBitCount
        while top >= degree {
            rest ^= generator << (top - degree)
            top = Int.bitWidth - 1 - rest.leadingZeroBitCount
        }
        return rest
    }
}
