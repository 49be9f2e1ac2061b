import FoundationEssentials
import Glibc
import PanelHost

/// What the kiosk tells the outside, computed in one place (`Kiosk.status()`) and rendered
/// in each form an operator reads: systemd's `STATUS=` line (the host's part says it),
/// `panel-refresh ctl status`'s JSON, the broker's status topic and the metrics (`ctl
/// metrics`, `state.metrics-file`). The host's part (``host``: the state, the display, the
/// frames) is read through as if it were the kiosk's own (`status.frames`).
@dynamicMemberLookup
public struct KioskStatus: Sendable {
    /// The host's part: the stage's state, the display, the touchscreens, the frames, the uptime.
    public var host: HostStatus
    /// The list's items.
    public var items: Int
    /// What the refreshes did since the list was made.
    public var refreshes: RefreshCounters
    /// Seconds since the last successful refresh (nil: none yet).
    public var dataAge: Double?
    /// When the next automatic refresh is due, by the calendar (nil: none is).
    public var nextRefresh: Date?
    /// Failed refreshes in a row.
    public var consecutiveFailures: Int
    /// Bytes of decoded row pictures in memory, and how often a wanted one was there or not.
    public var pictureCacheBytes: Int, pictureCacheHits: Int, pictureCacheMisses: Int
    /// When the list goes back to its start by itself (`appearance.home-after`), by the calendar; nil: it is there, or never.
    public var homeAt: Date?
    /// When an untouched board next moves on by a screen (`appearance.page-every`), by the calendar; nil: never.
    public var pageAt: Date?
    /// Rows the last refresh added, and those of them above the reader's place the chip counts.
    public var newRows = 0, newAbove = 0
    /// The panel's name (`panel.name`, else the host name) and the machine's host name.
    public var name = "", hostName = ""
    /// The program's version.
    public var version = ProgramVersion.current
    /// The broker link's state (connected, connecting, waiting), when there is a broker.
    public var brokerState: String? = nil
    /// What is wrong with the broker, while something is: a refused connection or publish, a
    /// lost connection being retried.
    public var brokerTrouble: String? = nil
    /// Connections made to the broker since the start (the first and every reconnection).
    public var brokerConnections = 0
    /// Seconds since the broker last sent a message (the list, a trigger, a command); nil: none yet, or no broker.
    public var brokerSilence: Double? = nil

    /// A host value, read through (`status.state`, `status.frames`).
    public subscript<T>(dynamicMember path: WritableKeyPath<HostStatus, T>) -> T {
        get { host[keyPath: path] }
        set { host[keyPath: path] = newValue }
    }

    /// The `STATUS=` text systemd shows (PanelHost's `HostStatus.statusLine`).
    public var statusLine: String { host.statusLine }

    /// `ctl status`: one JSON object (keys sorted), times as RFC 3339 UTC and seconds.
    public var json: String { json(retained: false) }

    /// What changes on its own from second to second: left out of the broker's retained
    /// status, which is published only when the panel's state changes (a zero there, as
    /// before, read as a panel just started).
    public static let changingKeys: Set<String> = [
        "uptime", "lastSuccessAge", "frames", "droppedFrames", "touchToGlassMs", "sampleToGlassMs", "residentBytes",
    ]

    /// The JSON; `retained`: the broker's retained status, without ``changingKeys`` (`started`
    /// says how long the panel has run).
    public func json(retained: Bool) -> String {
        func time(_ date: Date?) -> JSONValue { date.map { .string(Self.rfc3339($0)) } ?? .null }
        func seconds(_ value: Double?) -> JSONValue { value.map { .number(($0 * 1000).rounded() / 1000) } ?? .null }
        // Frames counted and their mean, milliseconds (the metrics hold the histograms).
        func latency(_ h: LatencyHistogram) -> JSONValue {
            .object(["frames": .integer(Int64(h.count)), "mean": h.mean.map { .number(($0 * 1e5).rounded() / 100) } ?? .null])
        }
        let object: [String: JSONValue] = [
            "name": .string(name),
            "host": .string(hostName),
            "state": .string(host.state.name),
            "reason": host.state.reason.map { .string($0) } ?? .null,
            "status": .string(statusLine),
            "items": .integer(Int64(items)),
            "newRows": .integer(Int64(newRows)),
            "homeAt": time(homeAt),
            "pageAt": time(pageAt),
            "newAbove": .integer(Int64(newAbove)),
            "lastSuccess": time(refreshes.lastSuccess),
            "clockSet": .bool(host.clockSet),
            "lastSuccessAge": seconds(dataAge),
            "lastError": refreshes.lastError.map { .string($0) } ?? .null,
            "nextRefresh": time(nextRefresh),
            "consecutiveFailures": .integer(Int64(consecutiveFailures)),
            "refreshes": .object(["ok": .integer(Int64(refreshes.changed)), "unchanged": .integer(Int64(refreshes.unchanged)),
                                  "failed": .integer(Int64(refreshes.failed))]),
            "notModified": .integer(Int64(refreshes.notModified)),
            "bytesFetched": .integer(Int64(refreshes.bytesFetched)),
            "display": .string(host.display),
            "touchscreens": .array(host.touchscreens.map { .string($0) }),
            "version": .string(version),
            "started": time(host.started),
            "uptime": seconds(host.uptime),
            "frames": .integer(Int64(host.frames)),
            "droppedFrames": .integer(Int64(host.droppedFrames)),
            "touchToGlassMs": latency(host.touchToGlass),
            "sampleToGlassMs": latency(host.sampleToGlass),
            "residentBytes": host.residentBytes.map { .integer(Int64($0)) } ?? .null,
            "light": .object([
                "state": .string(host.light.state), "brightness": .integer(Int64(host.light.brightness)),
                "off": host.light.off.map { .string($0.rawValue) } ?? .null,
                "brightnessSet": host.light.brightnessSet.map { .integer(Int64($0)) } ?? .null,
                "schedule": host.light.schedule.map { .string($0) } ?? .null, "scheduleOn": .bool(host.light.scheduleOn),
                "nextChange": time(host.light.nextChange),
            ]),
            "reloadRefused": host.reloadRefused.map { .object(["reason": .string($0.reason), "at": time($0.at)]) } ?? .null,
            "broker": brokerState.map { .object(["state": .string($0), "problem": brokerTrouble.map { .string($0) } ?? .null,
                                                 "connections": .integer(Int64(brokerConnections))]) } ?? .null,
        ]
        let shown = retained ? object.filter { !Self.changingKeys.contains($0.key) } : object
        return String(decoding: JSONValue.object(shown).encoded, as: UTF8.self)
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
