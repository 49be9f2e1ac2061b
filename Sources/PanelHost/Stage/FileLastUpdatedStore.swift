import FoundationEssentials
import PanelGestures
import Glibc
import PanelInput
import PanelRefresh

/// Why the file store could not save: the file, the step that failed and its errno.
public enum LastUpdatedStoreError: Error, Equatable, CustomStringConvertible {
    /// `step` is the call that failed: unlink (of a stale temporary file), open, write, fsync,
    /// close or rename.
    case cannotWrite(path: String, step: String, errno: Int32)
    /// The time is before the system clock can have been set (``Stage/calendarFloor``):
    /// kept in memory, not written, so that a panel that booted at 1970 does not show 1970 at
    /// its next start. A clock set later moves it, and the next save writes it.
    case clockNotSet(path: String)

    /// The file and what went wrong, for the log and STATUS.
    public var description: String {
        switch self {
        case let .cannotWrite(path, step, code):
            return "cannot save the last-updated time to \(path): \(step): \(String(cString: strerror(code))) (errno \(code))"
        case let .clockNotSet(path):
            return "the last-updated time is not saved to \(path) while the system clock is not set"
        }
    }

    /// What makes two failures the same for the log: the file and the errno (a directory that
    /// is missing fails the same way at every refresh; a full disk is another cause).
    public var cause: String {
        switch self {
        case let .cannotWrite(path, _, code): return "\(path)|\(code)"
        case let .clockNotSet(path): return "\(path)|clock"
        }
    }
}

/// A small JSON file of `{"key": seconds since 1970}`, at a location the caller chooses (the
/// service's StateDirectory). Written whole to a temporary file beside it, flushed to disk and
/// renamed over it, so a crash or power cut leaves the old file or the new one, never half of
/// one. A missing, unreadable or corrupt file means "no record", never a crash; a failed save
/// throws with the errno and leaves the time in memory, so the header still shows it.
///
/// The file is the store's own and one shape only, a flat object of numbers
/// (`LastUpdatedFile`): the host reads and writes it without a JSON library, which an app
/// would otherwise link for this alone; the kiosk program's files written before read the same.
@MainActor
public final class FileLastUpdatedStore: LastUpdatedStore {
    /// The file the time is kept in.
    public let path: String
    /// A larger file is not ours (a record is a few dozen bytes per key): 64 KiB.
    static let maxBytes = 64 << 10
    /// The last save's failure; nil once a save works again.
    public private(set) var lastError: LastUpdatedStoreError?
    /// The earliest date a set clock shows (``Stage/calendarFloor``): a time before it is kept
    /// in memory, not saved; nil: every time is saved.
    public var earliest: Date?
    private var cache: [String: Date]?

    /// A store in `path` (nothing is read until asked).
    public init(path: String) {
        self.path = path
    }

    /// The time saved under `key` in the file, nil when there is none or the file is unreadable.
    public func date(forKey key: String) -> Date? { load()[key] }

    /// Saves `date` under `key` (written to a temporary file and renamed); throws when the file cannot be written, the time kept in memory.
    public func setDate(_ date: Date, forKey key: String) throws {
        var dates = load()
        dates[key] = date
        cache = dates
        if let earliest, date < earliest {
            lastError = .clockNotSet(path: path)
            throw LastUpdatedStoreError.clockNotSet(path: path)
        }
        do {
            try write(LastUpdatedFile.encode(dates.mapValues(\.timeIntervalSince1970)))
            lastError = nil
        } catch {
            lastError = error
            throw error
        }
    }

    /// The whole file replaced at once, flushed (`AtomicFile`).
    private func write(_ bytes: [UInt8]) throws(LastUpdatedStoreError) {
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw .cannotWrite(path: path, step: error.step, errno: error.errno)
        }
    }

    private func load() -> [String: Date] {
        if let cache { return cache }
        var dates: [String: Date] = [:]
        if let bytes = try? BoundedFile.read(path, limit: Self.maxBytes), let table = LastUpdatedFile.decode(bytes) {
            for (key, seconds) in table where seconds.isFinite { dates[key] = Date(timeIntervalSince1970: seconds) }
        }
        cache = dates
        return dates
    }
}

/// The last-updated file's one shape: a JSON object whose values are numbers,
/// `{"MJRefreshHeaderLastUpdatedTimeKey":1767268800.5}`, keys sorted. ``decode(_:)`` takes
/// exactly that grammar (RFC 8259's strings and numbers, white space anywhere JSON allows it)
/// and nothing else: any other file is no record.
enum LastUpdatedFile {
    /// The table as one line of JSON, keys sorted.
    static func encode(_ table: [String: Double]) -> [UInt8] {
        let members = table.sorted { $0.key < $1.key }.map { "\"" + TextFormat.escaped($0.key, json: true) + "\":\($0.value)" }
        return Array(("{" + members.joined(separator: ",") + "}").utf8)
    }

    /// The table a file holds, nil when it is not an object of numbers.
    static func decode(_ bytes: [UInt8]) -> [String: Double]? {
        var reader = Reader(bytes: bytes)
        return reader.object()
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[at]) { at += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        mutating func object() -> [String: Double]? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var table: [String: Double] = [:]
            if take(UInt8(ascii: "}")) { return end(table) }
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")), let value = number() else { return nil }
                table[key] = value
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
            return end(table)
        }

        /// The table when nothing but white space follows it.
        mutating func end(_ table: [String: Double]) -> [String: Double]? {
            skipSpace()
            return at == bytes.count ? table : nil
        }

        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() -> Bool {
                guard !raw.isEmpty else { return true }
                guard let text = String(validating: raw, as: UTF8.self) else { return false }
                scalars.append(contentsOf: text.unicodeScalars)
                raw.removeAll()
                return true
            }
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return flush() ? String(scalars) : nil
                case UInt8(ascii: "\\"):
                    guard flush(), at < bytes.count else { return nil }
                    let escape = bytes[at]
                    at += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{c}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        guard var value = hex4() else { return nil }
                        if (0xd800..<0xdc00).contains(value) {
                            // A high surrogate: its low one must follow.
                            guard take(UInt8(ascii: "\\")), at < bytes.count, bytes[at] == UInt8(ascii: "u") else { return nil }
                            at += 1
                            guard let low = hex4(), (0xdc00..<0xe000).contains(low) else { return nil }
                            value = 0x10000 + ((value - 0xd800) << 10) + (low - 0xdc00)
                        }
                        guard let scalar = Unicode.Scalar(value) else { return nil }
                        scalars.append(scalar)
                    default: return nil
                    }
                case 0..<0x20: return nil
                default: raw.append(byte)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard at + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16) else { return nil }
            at += 4
            return value
        }

        /// A JSON number (optional minus, digits, fraction, exponent).
        mutating func number() -> Double? {
            skipSpace()
            let start = at
            while at < bytes.count, (0x30...0x39).contains(bytes[at]) || [0x2d, 0x2b, 0x2e, 0x65, 0x45].contains(bytes[at]) { at += 1 }
            let text = String(decoding: bytes[start..<at], as: UTF8.self)
            guard !text.hasPrefix("+"), let value = ConfigurationValue.decimal(text) else { return nil }
            return value
        }
    }
}
