import PanelHost

/// The 64-bit FNV-1a hash (Fowler, Noll and Vo; offset basis 0xcbf29ce484222325, prime
/// 0x100000001b3): file names for cached answers and pictures, and the fingerprint that tells a
/// data source's unchanged answer. Fast and stable across runs and machines (Swift's `Hasher`
/// is seeded per process); not a defence against a server that makes collisions on purpose,
/// which is why every cached file also names what it holds.
enum FNV1a {
    /// The hash of `bytes`.
    static func hash<S: Sequence>(_ bytes: S) -> UInt64 where S.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// The hash of `bytes` as 16 hex digits.
    static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let hex = String(hash(bytes), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
