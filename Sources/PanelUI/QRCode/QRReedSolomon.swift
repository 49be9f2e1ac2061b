/// Reed–Solomon error correction over GF(2⁸) as QR codes use it (ISO/IEC 18004:2015, 7.5.2):
/// the field's reducing polynomial is x⁸ + x⁴ + x³ + x² + 1 (0x11D), its generator α = 2, and a
/// block's `n` error-correction codewords are the remainder of the data (times xⁿ) divided by
/// (x − α⁰)(x − α¹)…(x − αⁿ⁻¹).
enum QRReedSolomon {
    /// αⁱ for i in 0..<255, and again, so a product's log sum (at most 508) needs no modulo.
    private static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 512)
        var value = 1
        for i in 0..<255 {
            table[i] = UInt8(value)
            table[i + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()

    /// log_α(v) for v in 1...255 (index 0 unused: 0 has no logarithm).
    private static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for i in 0..<255 { table[Int(exponents[i])] = i }
        return table
    }()

    /// The product of `a` and `b` in the field.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0, b != 0 else { return 0 }
        return exponents[logarithms[Int(a)] + logarithms[Int(b)]]
    }

    /// The generator polynomial of degree `degree`, its coefficients from xⁿ⁻¹ down to x⁰
    /// (the leading 1 of xⁿ left out, as the division never needs it).
    static func generator(degree: Int) -> [UInt8] {
        // Start from 1 and multiply by (x − αⁱ) for each i; subtraction is XOR in GF(2⁸).
        var poly: [UInt8] = [1]
        var root: UInt8 = 1
        for _ in 0..<degree {
            var next = [UInt8](repeating: 0, count: poly.count + 1)
            for (i, c) in poly.enumerated() {
                next[i] ^= c
                next[i + 1] ^= multiply(c, root)
            }
            poly = next
            root = multiply(root, 2)
        }
        return Array(poly.dropFirst())
    }

    /// The `degree` error-correction codewords of `data`, in the order they are sent.
    static func remainder(of data: some Collection<UInt8>, degree: Int) -> [UInt8] {
        let divisor = generator(degree: degree)
        var rest = [UInt8](repeating: 0, count: degree)
        for byte in data {
            // Long division one codeword at a time: the leading term leaves, the divisor
            // times it is subtracted from what stays.
            let factor = byte ^ rest[0]
            rest.removeFirst()
            rest.append(0)
            for i in 0..<degree { rest[i] ^= multiply(divisor[i], factor) }
        }
        return rest
    }
}
