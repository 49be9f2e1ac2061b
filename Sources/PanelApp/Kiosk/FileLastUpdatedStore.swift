import FoundationEssentials
import Glibc
import PanelInput
import PanelRefresh

/// Why the file store could not save: the file, the step that failed and its errno.
public enum LastUpdatedStoreError: Error, Equatable, CustomStringConvertible {
    /// `step` is the call that failed: unlink (of a stale temporary file), open, write, fsync,
    /// close or rename.
    case cannotWrite(path: String, step: String, errno: Int32)

    /// The file and what went wrong, for the log and STATUS.
    public var description: String {
        switch self {
        case let .cannotWrite(path, step, code):
            return "cannot save the last-updated time to \(path): \(step): \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    /// What makes two failures the same for the log: the file and the errno (a directory that
    /// is missing fails the same way at every refresh; a full disk is another cause).
    public var cause: String {
        switch self {
        case let .cannotWrite(path, _, code): return "\(path)|\(code)"
        }
    }
}

/// A small JSON file of `{"key": seconds since 1970}`, at a location the caller chooses (the
/// service's StateDirectory). Written whole to a temporary file beside it, flushed to disk and
/// renamed over it, so a crash or power cut leaves the old file or the new one, never half of
/// one. A missing, unreadable or corrupt file means "no record", never a crash; a failed save
/// throws with the errno and leaves the time in memory, so the header still shows it.
@MainActor
public final class FileLastUpdatedStore: LastUpdatedStore {
    /// The file the time is kept in.
    public let path: String
    /// A larger file is not ours (a record is a few dozen bytes per key): 64 KiB.
    static let maxBytes = 64 << 10
    /// The last save's failure; nil once a save works again.
    public private(set) var lastError: LastUpdatedStoreError?
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
        let seconds = JSONValue.object(dates.mapValues { .number($0.timeIntervalSince1970) })
        do {
            try write(seconds.encoded)
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
        if let bytes = try? BoundedFile.read(path, limit: Self.maxBytes),
           case .object(let table)? = try? JSONValue.parse(bytes) {
            for (key, value) in table {
                if let seconds = value.double, seconds.isFinite { dates[key] = Date(timeIntervalSince1970: seconds) }
            }
        }
        cache = dates
        return dates
    }
}
