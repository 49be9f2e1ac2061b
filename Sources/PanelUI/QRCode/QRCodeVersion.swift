/// What a QR code's version fixes: its size, where its alignment patterns go, and how its
/// codewords split into error-correction blocks at each level (ISO/IEC 18004:2015, 6.1, 6.3.6,
/// Table 9 and Annex E).
struct QRCodeVersion: Sendable {
    /// 1 to 40.
    let number: Int
    /// Every codeword the symbol holds: the modules no pattern takes, in whole bytes (the
    /// 0 to 7 left over are remainder bits, light before the mask). Counted once, when the
    /// version is made: the encoder asks it of each version it tries, and again of the one it uses.
    private(set) var totalCodewords = 0

    /// Version `number` (1-40), its codewords counted on its function patterns.
    init(number: Int) {
        self.number = number
        totalCodewords = QRCodeMatrix(version: self).dataModuleCount / 8
    }

    /// Modules along a side: 21 for version 1, 4 more for each version after it.
    var size: Int { 17 + 4 * number }

    /// Error-correction codewords in each block, by level (L, M, Q, H) and version
    /// (index 0 unused): Table 9 of the standard.
    private static let correctionPerBlock: [[Int]] = [
        [0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
        [0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    ]

    /// Error-correction blocks, by level (L, M, Q, H) and version (index 0 unused): Table 9.
    private static let blockCounts: [[Int]] = [
        [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
        [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
        [0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
        [0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
    ]

    /// Error-correction codewords in each of the blocks at `level`.
    func correctionPerBlock(_ level: QRCode.Correction) -> Int { Self.correctionPerBlock[level.tableRow][number] }

    /// How many blocks the codewords split into at `level`.
    func blockCount(_ level: QRCode.Correction) -> Int { Self.blockCounts[level.tableRow][number] }

    /// Codewords left for data at `level`.
    func dataCodewords(_ level: QRCode.Correction) -> Int {
        totalCodewords - correctionPerBlock(level) * blockCount(level)
    }

    /// Bits of the byte mode's character count: 8 up to version 9, 16 after (Table 3).
    var byteCountBits: Int { number <= 9 ? 8 : 16 }

    /// The rows (and columns) of the alignment patterns' centres (Annex E): none in version
    /// 1; from version 2, 6 and then `number / 7 + 1` more, evenly spaced back from the side
    /// 7 modules in, the spacing rounded up to an even number. Version 32 alone spaces them
    /// 26 apart, below what that rule gives (28), as Annex E's table has it.
    var alignmentCentres: [Int] {
        guard number > 1 else { return [] }
        let count = number / 7 + 2
        let last = size - 7
        let spread = Double(last - 6) / Double(count - 1)
        let step = number == 32 ? 26 : 2 * Int((spread / 2).rounded(.up))
        return [6] + (1..<count).reversed().map { last - ($0 - 1) * step }
    }
}
