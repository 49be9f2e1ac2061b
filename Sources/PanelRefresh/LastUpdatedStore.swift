import Foundation

/// Keeps the time of the last completed refresh per key (MJRefresh kept it in
/// NSUserDefaults).
@MainActor
public protocol LastUpdatedStore: AnyObject {
    /// The recorded time, or nil when there is none (or the record is unreadable).
    func date(forKey key: String) -> Date?
    /// Records `date`; throws when it cannot be kept durably (it is still returned by
    /// `date(forKey:)` for the life of the store).
    func setDate(_ date: Date, forKey key: String) throws
}

/// A store that forgets on exit.
@MainActor
public final class InMemoryLastUpdatedStore: LastUpdatedStore {
    private var dates: [String: Date] = [:]

    public init() {}

    public func date(forKey key: String) -> Date? { dates[key] }
    public func setDate(_ date: Date, forKey key: String) throws { dates[key] = date }
}

/// Why the file store could not write.
public enum LastUpdatedStoreError: Error, Equatable, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotWrite(path, reason): return "cannot write last-updated store \(path): \(reason)"
        }
    }
}

/// A small JSON file of `{"key": seconds since 1970}`, at a location the caller chooses (the
/// service's StateDirectory). Written whole to a temporary file beside it and renamed over
/// it, so a crash or power cut leaves the old file or the new one, never half of one. A
/// missing, unreadable or corrupt file means "no record", never a crash.
@MainActor
public final class FileLastUpdatedStore: LastUpdatedStore {
    public let url: URL
    private var cache: [String: Date]?

    public init(url: URL) {
        self.url = url
    }

    public func date(forKey key: String) -> Date? { load()[key] }

    public func setDate(_ date: Date, forKey key: String) throws {
        var dates = load()
        dates[key] = date
        cache = dates
        let seconds = dates.mapValues { $0.timeIntervalSince1970 }
        do {
            let data = try JSONSerialization.data(withJSONObject: seconds, options: [.sortedKeys])
            // `.atomic` writes an auxiliary file and renames it over the target.
            try data.write(to: url, options: .atomic)
        } catch {
            throw LastUpdatedStoreError.cannotWrite(path: url.path, reason: String(describing: error))
        }
    }

    private func load() -> [String: Date] {
        if let cache { return cache }
        var dates: [String: Date] = [:]
        if let data = try? Data(contentsOf: url),
           let object = try? JSONSerialization.jsonObject(with: data),
           let table = object as? [String: Any] {
            for (key, value) in table {
                if let seconds = value as? Double, seconds.isFinite { dates[key] = Date(timeIntervalSince1970: seconds) }
            }
        }
        cache = dates
        return dates
    }
}
