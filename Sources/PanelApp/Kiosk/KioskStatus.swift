import FoundationEssentials
import Glibc

/// What the kiosk tells the outside, computed in one place (`KioskHost.status()`) and rendered
/// in each form an operator reads: systemd's `STATUS=` line, `panel-refresh ctl status`'s JSON
/// and the metrics (`ctl metrics`, `state.metrics-file`).
public struct KioskStatus: Sendable {
    /// Where the kiosk stands.
    public enum State: Sendable, Equatable {
        /// Before the first frame is on the glass.
        case starting
        /// The first frame is on the glass; the list's first page has not come yet.
        case ready
        /// Showing the list (or an app's views).
        case showing
        /// A refresh of the list is under way.
        case refreshing
        /// The last refresh failed; the list on screen stays.
        case failed(reason: String)
        /// The panel is off (touch to wake).
        case blank
        /// Another VT is in front, or logind paused the card.
        case paused(reason: String)
        /// The panel went away; input and data go on.
        case disconnected
        /// Frames cannot be presented; drawing is retried.
        case cannotDraw(reason: String)

        /// One word for the JSON and the metrics' label.
        public var name: String {
            switch self {
            case .starting: return "starting"
            case .ready: return "ready"
            case .showing: return "showing"
            case .refreshing: return "refreshing"
            case .failed: return "failed"
            case .blank: return "blank"
            case .paused: return "paused"
            case .disconnected: return "disconnected"
            case .cannotDraw: return "cannot-draw"
            }
        }

        /// Every state's name, for the metrics' state set.
        public static let names = ["starting", "ready", "showing", "refreshing", "failed", "blank", "paused", "disconnected", "cannot-draw"]

        /// The reason a state carries, if it carries one.
        public var reason: String? {
            switch self {
            case .failed(let reason), .paused(let reason), .cannotDraw(let reason): return reason
            case .starting, .ready, .showing, .refreshing, .blank, .disconnected: return nil
            }
        }
    }

    /// Where the kiosk stands.
    public var state: State
    /// What is shown: "N items", or "the panel" for an app's own views.
    public var showing: String
    /// The list's items (0 for an app's views).
    public var items: Int
    /// What the refreshes did since the runtime started.
    public var refreshes: RefreshCounters
    /// Seconds since the last successful refresh (nil: none yet).
    public var dataAge: Double?
    /// When the next automatic refresh is due, by the calendar (nil: none is).
    public var nextRefresh: Date?
    /// Failed refreshes in a row.
    public var consecutiveFailures: Int
    /// The trouble with the last-updated store, while there is some.
    public var storeTrouble: String?
    /// The display, as the log names it.
    public var display: String
    /// The touchscreens' nodes in use.
    public var touchscreens: [String]
    /// The program's version.
    public var version = ProgramVersion.current
    /// Seconds since the kiosk started.
    public var uptime: Double
    /// When the kiosk started, by the calendar.
    public var started: Date
    /// When this was computed, by the calendar.
    public var now: Date
    /// Frames presented since the runtime started, and the vertical blanks missed.
    public var frames: Int, droppedFrames: Int
    /// Touch-to-glass times of the frames that answered a touch, since the runtime started.
    public var touchToGlass: LatencyHistogram
    /// Bytes of decoded row pictures in memory, and how often a wanted one was there or not.
    public var pictureCacheBytes: Int, pictureCacheHits: Int, pictureCacheMisses: Int
    /// The process's resident memory, bytes (nil where /proc cannot say).
    public var residentBytes: Int?
    /// The broker link's state (connected, connecting, waiting), when there is a broker.
    public var brokerState: String? = nil
    /// What is wrong with the broker, while something is: a refused connection or publish, a
    /// lost connection being retried.
    public var brokerTrouble: String? = nil

    /// The `STATUS=` text systemd shows (`systemctl status`), as it has always read:
    /// "showing 20 items", "refreshing", "last refresh failed: ...", "panel blank (touch to
    /// wake); 20 items", "paused (why); 20 items", "panel disconnected; 20 items", "cannot draw: ...".
    public var statusLine: String {
        switch state {
        case .starting: return "starting"
        case .ready: return "showing the list"
        case .showing: return "showing \(showing)" + (storeTrouble.map { "; \($0)" } ?? "") + (brokerTrouble.map { "; broker: \($0)" } ?? "")
        case .refreshing: return "refreshing"
        case .failed(let reason): return "last refresh failed: \(reason)"
        case .blank: return "panel blank (touch to wake); \(showing)"
        case .paused(let why): return "paused (\(why)); \(showing)"
        case .disconnected: return "panel disconnected; \(showing)"
        case .cannotDraw(let reason): return "cannot draw: \(reason)"
        }
    }

    /// `ctl status`: one JSON object (keys sorted), times as RFC 3339 UTC and seconds.
    public var json: String {
        func time(_ date: Date?) -> JSONValue { date.map { .string(Self.rfc3339($0)) } ?? .null }
        func seconds(_ value: Double?) -> JSONValue { value.map { .number(($0 * 1000).rounded() / 1000) } ?? .null }
        let object: [String: JSONValue] = [
            "state": .string(state.name),
            "reason": state.reason.map { .string($0) } ?? .null,
            "status": .string(statusLine),
            "items": .integer(Int64(items)),
            "lastSuccess": time(refreshes.lastSuccess),
            "lastSuccessAge": seconds(dataAge),
            "lastError": refreshes.lastError.map { .string($0) } ?? .null,
            "nextRefresh": time(nextRefresh),
            "consecutiveFailures": .integer(Int64(consecutiveFailures)),
            "refreshes": .object(["ok": .integer(Int64(refreshes.changed)), "unchanged": .integer(Int64(refreshes.unchanged)),
                                  "failed": .integer(Int64(refreshes.failed))]),
            "notModified": .integer(Int64(refreshes.notModified)),
            "bytesFetched": .integer(Int64(refreshes.bytesFetched)),
            "display": .string(display),
            "touchscreens": .array(touchscreens.map { .string($0) }),
            "version": .string(version),
            "uptime": seconds(uptime),
            "frames": .integer(Int64(frames)),
            "droppedFrames": .integer(Int64(droppedFrames)),
            "residentBytes": residentBytes.map { .integer(Int64($0)) } ?? .null,
            "broker": brokerState.map { .object(["state": .string($0), "problem": brokerTrouble.map { .string($0) } ?? .null]) } ?? .null,
        ]
        return String(decoding: JSONValue.object(object).encoded, as: UTF8.self)
    }

    /// `date` as RFC 3339 in UTC, to the second ("2026-12-03T09:30:22Z"), by the C library's
    /// `gmtime_r` and `strftime` (a time before 1970 or past the year 9999 as the C library
    /// writes it).
    static func rfc3339(_ date: Date) -> String {
        guard var seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)) else { return "" }
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "" }
        var text = [CChar](repeating: 0, count: 64)
        let count = strftime(&text, text.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: text.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Touch-to-glass times counted into fixed buckets since the runtime started: the metrics'
/// histogram (the frame statistics' percentiles cover one minute at a time).
public struct LatencyHistogram: Sendable, Equatable {
    /// The buckets' upper bounds, seconds: around one and two 60 Hz periods (16.7, 33.3 ms),
    /// where a panel's answer to a finger lies, and out to a second.
    public static let bounds: [Double] = [0.005, 0.010, 0.0167, 0.025, 0.0333, 0.050, 0.075, 0.100, 0.250, 0.500, 1.0]
    /// Times at or below each bound (not cumulative); the last counts those above every bound.
    public private(set) var counts = [Int](repeating: 0, count: LatencyHistogram.bounds.count + 1)
    /// The times' sum, seconds.
    public private(set) var sum = 0.0
    /// Times counted.
    public var count: Int { counts.reduce(0, +) }

    /// No times.
    public init() {}

    /// Counts one time, seconds.
    public mutating func record(_ seconds: Double) {
        guard seconds.isFinite, seconds >= 0 else { return }
        let index = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        counts[index] += 1
        sum += seconds
    }
}
