/// A QR code (Model 2, ISO/IEC 18004:2015) of some bytes in byte mode: the modules a reader's
/// camera decodes back to them. The smallest version (1-40) that holds the bytes at the asked
/// level is used, with the mask the standard's penalty score prefers.
///
/// Text goes in as UTF-8. Text beyond ASCII is marked so with the ECI designator 26 (7.4.2):
/// without it a reader guesses the bytes' encoding, and zbar read the UTF-8 "ü" of "Küche" as
/// the Chinese "羹" (IdentifyTests). The code holds no quiet zone: whoever draws it leaves 4
/// light modules around it (``QRCodeView`` does).
public struct QRCode: Sendable, Hashable {
    /// How much of the symbol may be lost (dirt, glare, a crease) and still be read.
    public enum Correction: Sendable, Hashable, CaseIterable {
        /// About 7 % of the codewords.
        case low
        /// About 15 %: the usual choice for a screen.
        case medium
        /// About 25 %.
        case quartile
        /// About 30 %.
        case high

        /// The row of the standard's tables, which lists L, M, Q, H in that order.
        var tableRow: Int {
            switch self {
            case .low: 0
            case .medium: 1
            case .quartile: 2
            case .high: 3
            }
        }

        /// The level's two bits in the format information (Table 12: L 01, M 00, Q 11, H 10).
        var formatBits: Int {
            switch self {
            case .low: 1
            case .medium: 0
            case .quartile: 3
            case .high: 2
            }
        }
    }

    /// Why bytes could not become a QR code.
    public enum EncodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// More bytes than version 40 holds at the level; `limit` is how many it holds.
        case tooLong(bytes: Int, limit: Int)

        /// A sentence for the journal.
        public var description: String {
            switch self {
            case .tooLong(let bytes, let limit): "\(bytes) bytes do not fit a QR code at this level (at most \(limit))"
            }
        }
    }

    /// The version, 1 to 40.
    public let version: Int
    /// The level of error correction.
    public let correction: Correction
    /// The mask chosen (0-7).
    public let mask: Int
    /// Modules along a side: 21 to 177.
    public let size: Int
    /// Row-major, `y * size + x` dark.
    private let modules: [Bool]

    /// The QR code of `text`'s UTF-8 bytes, marked as UTF-8 when any is beyond ASCII.
    public init(text: String, correction: Correction = .medium) throws(EncodingError) {
        let bytes = Array(text.utf8)
        try self.init(bytes: bytes, correction: correction, mask: nil, utf8: bytes.contains { $0 >= 0x80 })
    }

    /// The QR code of `bytes` at `correction`, in the smallest version that holds them;
    /// `mask` forces one of the eight masks (0-7; outside, the nearest of them: tests, and
    /// readers' own checks), nil lets the penalty score choose.
    public init(bytes: [UInt8], correction: Correction = .medium, mask: Int? = nil) throws(EncodingError) {
        try self.init(bytes: bytes, correction: correction, mask: mask, utf8: false)
    }

    /// `utf8`: an ECI of 26 (UTF-8) comes first, 12 bits.
    private init(bytes: [UInt8], correction: Correction, mask: Int?, utf8: Bool) throws(EncodingError) {
        let header = utf8 ? 12 : 0
        guard let version = (1...40).lazy.map(QRCodeVersion.init(number:)).first(where: { Self.fits(bytes.count, header: header, in: $0, at: correction) }) else {
            throw .tooLong(bytes: bytes.count, limit: Self.byteCapacity(version: 40, correction: correction) - (header + 7) / 8)
        }
        let data = Self.dataCodewords(bytes, utf8: utf8, version: version, level: correction)
        let codewords = Self.interleaved(data, version: version, level: correction)
        var grid = QRCodeMatrix(version: version)
        grid.place(codewords)
        let candidates = mask.map { [min(max($0, 0), 7)] } ?? Array(0..<8)
        // The lowest score wins; a tie goes to the lower mask, so a given text always draws alike.
        let scored = candidates.map { ($0, grid.masked($0, level: correction)) }
        let best = scored.min { $0.1.penalty < $1.1.penalty } ?? scored[0]
        (self.version, self.correction, self.mask, size, modules) = (version.number, correction, best.0, grid.size, best.1.dark)
    }

    /// Whether the module in column `x`, row `y` is dark; outside the symbol, light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }

    /// How many bytes version `version` (1-40) holds at `correction` in byte mode.
    public static func byteCapacity(version: Int, correction: Correction) -> Int {
        let v = QRCodeVersion(number: min(max(version, 1), 40))
        // The mode (4 bits) and the count come before the bytes.
        return (v.dataCodewords(correction) * 8 - 4 - v.byteCountBits) / 8
    }

    /// Whether `count` bytes after `header` bits fit `version` at `level`.
    private static func fits(_ count: Int, header: Int, in version: QRCodeVersion, at level: Correction) -> Bool {
        count < 1 << version.byteCountBits && header + 4 + version.byteCountBits + 8 * count <= version.dataCodewords(level) * 8
    }

    /// The data codewords (7.4): for UTF-8, the ECI mode 0111 and designator 26; the byte
    /// mode 0100, the count, the bytes; up to four 0 bits of terminator, 0 bits to the byte,
    /// then 0xEC and 0x11 in turn to the capacity.
    private static func dataCodewords(_ bytes: [UInt8], utf8: Bool, version: QRCodeVersion, level: Correction) -> [UInt8] {
        let capacity = version.dataCodewords(level)
        var bits = BitBuffer()
        if utf8 {
            bits.append(0b0111, count: 4)
            bits.append(26, count: 8)
        }
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: version.byteCountBits)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        bits.append(0, count: min(4, capacity * 8 - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var out = bits.bytes
        var pad: UInt8 = 0xEC
        while out.count < capacity {
            out.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return out
    }

    /// The data split into the version's blocks (the later ones a codeword longer when they do
    /// not divide evenly), each block's error correction computed, then all of it sent
    /// column-wise: the first codeword of each block, then the second… data before
    /// correction (7.6).
    private static func interleaved(_ data: [UInt8], version: QRCodeVersion, level: Correction) -> [UInt8] {
        let blocks = version.blockCount(level), eccLength = version.correctionPerBlock(level)
        let shortLength = data.count / blocks, longBlocks = data.count % blocks
        var dataBlocks: [ArraySlice<UInt8>] = []
        var start = 0
        for b in 0..<blocks {
            let length = shortLength + (b >= blocks - longBlocks ? 1 : 0)
            dataBlocks.append(data[start..<(start + length)])
            start += length
        }
        let eccBlocks = dataBlocks.map { QRReedSolomon.remainder(of: $0, degree: eccLength) }
        var out: [UInt8] = []
        out.reserveCapacity(data.count + blocks * eccLength)
        for i in 0...shortLength {
            for block in dataBlocks where i < block.count { out.append(block[block.startIndex + i]) }
        }
        for i in 0..<eccLength {
            for block in eccBlocks { out.append(block[i]) }
        }
        return out
    }
}

/// Bits appended most significant first, read back as bytes.
private struct BitBuffer {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    /// Appends the low `count` bits of `value`.
    mutating func append(_ value: Int, count n: Int) {
        for i in stride(from: n - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> i) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }
}
