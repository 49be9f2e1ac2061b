import Glibc

/// The few number formats the project prints (traces, logs, evemu files, the last-updated
/// line), without Foundation's `String(format:)`: the program links FoundationEssentials only,
/// which has none, and these are also much cheaper. Each matches the printf conversion it
/// names, character for character.
public enum TextFormat {
    /// `%0Nd`: decimal, zero-padded to `width` with the sign counted ("-001").
    public static func padded<T: BinaryInteger>(_ value: T, _ width: Int) -> String {
        let digits = String(value.magnitude), sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - sign.count - digits.count)) + digits
    }

    /// `s` with backslash, double quote and line feed escaped, as Prometheus' label values want
    /// them; `json`: also carriage return, tab (`\r`, `\t`) and the other control characters
    /// (`\u00XX`), as a JSON string must have them (RFC 8259 section 7).
    public static func escaped(_ s: String, json: Bool = false) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r" where json: out += "\\r"
            case "\t" where json: out += "\\t"
            case _ where json && scalar.value < 0x20: out += "\\u" + hex(scalar.value, 4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `%0Nx`: lower-case hex, zero-padded to `width`.
    public static func hex<T: BinaryInteger>(_ value: T, _ width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// `%.Nf`: fixed-point with `decimals` digits (0 to 17), rounded as the C library does.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        let decimals = min(max(decimals, 0), 17)
        // 309 digits before the point at most (DBL_MAX), a sign, a point, the decimals, NUL.
        var buffer = [CChar](repeating: 0, count: 330)
        let written = withVaList([value]) { args in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.\(decimals)f", args) }
        }
        guard written > 0 else { return "nan" }
        return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A number without trailing zeros (at most 4 decimals; "0" for one that is not finite), so
    /// traces and logs compare as text.
    public static func number(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        var s = fixed(v + 0, decimals: 4)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }

    /// The text with white space (and, with `newlines`, line ends) removed at both ends.
    public static func trimmed<S: StringProtocol>(_ text: S, newlines: Bool = false) -> String {
        func blank(_ c: Character) -> Bool { c == " " || c == "\t" || (newlines && (c == "\n" || c == "\r" || c == "\r\n")) }
        guard let first = text.firstIndex(where: { !blank($0) }),
              let last = text.lastIndex(where: { !blank($0) }) else { return "" }
        return String(text[first...last])
    }
}
