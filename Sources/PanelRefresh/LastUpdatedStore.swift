import FoundationEssentials
import Glibc

/// Keeps the time of the last completed refresh per key (MJRefresh kept it in
/// NSUserDefaults). The core holds only the in-memory store; the program keeps the time in a
/// file (PanelHost's `FileLastUpdatedStore`), since the core does no I/O.
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

    /// A store with no time saved.
    public init() {}

    /// The time kept under `key`, nil when none.
    public func date(forKey key: String) -> Date? { dates[key] }
    /// Keeps `date` under `key` (never fails).
    public func setDate(_ date: Date, forKey key: String) throws { dates[key] = date }
}
