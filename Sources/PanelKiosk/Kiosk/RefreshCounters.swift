import FoundationEssentials
import PanelHost

/// What the list's refreshes of the first page did since the list was made: the metrics'
/// counts and `ctl status`'s last success and error.
public struct RefreshCounters: Sendable, Equatable {
    /// Refreshes that brought new items.
    public var changed = 0
    /// Refreshes that succeeded with nothing new (an HTTP 304, an unchanged file or output).
    public var unchanged = 0
    /// Refreshes that failed.
    public var failed = 0
    /// Answers that were HTTP 304 Not Modified (next pages included).
    public var notModified = 0
    /// Bytes fetched over HTTP for the list (headers and bodies as sent; next pages included).
    public var bytesFetched = 0
    /// When the last refresh succeeded, by the kiosk's calendar (nil: none yet).
    public var lastSuccess: Date?
    /// When the last refresh succeeded, seconds of the kiosk's clock.
    public var lastSuccessTime: Double?
    /// Why the last failed refresh failed (kept after later successes: the last error there was).
    public var lastError: String?

    /// Counts of nothing.
    public init() {}
}
