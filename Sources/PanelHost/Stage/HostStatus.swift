import FoundationEssentials

/// What the host tells the outside, computed in one place (``KioskHost/status(memory:)``):
/// systemd's `STATUS=` line here; the kiosk program renders it with its own part as
/// `ctl status`'s JSON and the metrics.
public struct HostStatus: Sendable {
    /// Where the stage stands.
    public enum State: Sendable, Equatable {
        /// Before the first frame is on the glass.
        case starting
        /// The first frame is on the glass; what shows has not come yet (a list's first page).
        case ready
        /// Showing the content.
        case showing
        /// A refresh of what shows is under way.
        case refreshing
        /// The last refresh failed; what shows stays.
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

    /// Where the stage stands.
    public var state: State
    /// What is shown: "N items", or "the panel" for an app's own views.
    public var showing: String
    /// What the content says after it (``ContentStatus/notes``).
    public var notes: [String]
    /// The trouble with the last-updated store, while there is some.
    public var storeTrouble: String?
    /// The display, as the log names it.
    public var display: String
    /// The touchscreens' nodes in use.
    public var touchscreens: [String]
    /// Seconds since the host started.
    public var uptime: Double
    /// When the host started, by the calendar.
    public var started: Date
    /// When this was computed, by the calendar.
    public var now: Date
    /// Whether the system clock has been set: the calendar is not before the program was made
    /// (``Stage/calendarFloor``). While it is not, the times said are on a calendar that
    /// starts at 1970, and they move when the clock is set.
    public var clockSet = true
    /// Frames presented since the start, and the vertical blanks missed.
    public var frames: Int, droppedFrames: Int
    /// Touch-to-glass times of the frames that answered a touch, since the start.
    public var touchToGlass: LatencyHistogram
    /// Sample-to-glass times of the frames that sampled a pan, since the start.
    public var sampleToGlass = LatencyHistogram()
    /// The process's resident memory, bytes (nil where /proc cannot say, or not asked).
    public var residentBytes: Int? = nil
    /// How the panel is lit (``Stage/lightStatus``).
    public var light = LightStatus()
    /// Why the last reload was refused and when, while the configuration in use is older than
    /// the file (nil: the last reload was taken, or none was asked).
    public var reloadRefused: (reason: String, at: Date)? = nil

    /// The `STATUS=` text systemd shows (`systemctl status`), as it has always read:
    /// "showing 20 items", "refreshing", "last refresh failed: ...", "panel blank (touch to
    /// wake); 20 items", "paused (why); 20 items", "panel disconnected; 20 items", "cannot draw: ...".
    public var statusLine: String {
        switch state {
        case .starting: return "starting"
        case .ready: return "showing \(showing)"
        case .showing: return "showing \(showing)" + ([storeTrouble].compactMap { $0 } + notes).map { "; \($0)" }.joined()
        // While the first page waits, what keeps it waiting ("broker: the broker refused the
        // connection: Not authorized"): it said only "refreshing".
        case .refreshing: return "refreshing" + notes.map { "; \($0)" }.joined()
        case .failed(let reason): return "last refresh failed: \(reason)"
        case .blank where light.off == .offHours: return "panel off for the off hours (touch to light it); \(showing)"
        case .blank: return "panel blank (touch to wake); \(showing)"
        case .paused(let why): return "paused (\(why)); \(showing)"
        case .disconnected: return "panel disconnected; \(showing)"
        case .cannotDraw(let reason): return "cannot draw: \(reason)"
        }
    }
}

/// Touch-to-glass times counted into fixed buckets since the start: the metrics' histogram
/// (the frame statistics' percentiles cover one minute at a time).
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
    /// The times' mean, seconds (nil before the first).
    public var mean: Double? { count > 0 ? sum / Double(count) : nil }

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
