import FoundationEssentials
import PanelRefresh
import Glibc
import PanelInput

/// What the program takes from the machine it runs on: the language ($LANG) and the local
/// time's offset from UTC ($TZ, else /etc/localtime, through the C library's `localtime_r`).
/// Read once, by the program's `main` (`read()`), and handed down; nothing below reads the
/// environment, so tests, replays and expected frames are the same on every machine
/// (`neutral`).
public struct HostEnvironment: Sendable {
    /// A locale code as in $LANG ("de_DE.UTF-8"); `appearance.locale` wins over it.
    public var language: String
    /// Seconds east of UTC at a moment (daylight saving included).
    public var utcOffset: @Sendable (Date) -> Int
    /// `$STATE_DIRECTORY`'s first path, set by systemd for the unit's `StateDirectory=`; nil
    /// outside a unit. `state.directory` in the configuration wins over it.
    public var stateDirectory: String?
    /// `$CACHE_DIRECTORY`'s first path, set by systemd for the unit's `CacheDirectory=`: where
    /// fetched pictures are kept. `state.cache-directory` wins over it.
    public var cacheDirectory: String?
    /// `$XDG_SESSION_ID`: the logind session pam_systemd opened for the unit (`PAMName=`);
    /// nil without one (then the process's own session, if any, is asked of logind).
    public var sessionID: String?
    /// The machine's id (`/etc/machine-id`, machine-id(5)); `$PANEL_REFRESH_MACHINE_ID` stands
    /// for it where many kiosks share one machine (a fleet simulated on one host). It seeds
    /// the refresh schedule's phase and jitter, so each panel of a fleet has its own; empty
    /// where none is known.
    public var machineID = ""
    /// `$RUNTIME_DIRECTORY`'s first path (the unit's `RuntimeDirectory=`): where the control
    /// socket goes; `state.control-socket` wins over it.
    public var runtimeDirectory: String?

    /// A host of `language` ($LANG), `stateDirectory` ($STATE_DIRECTORY) and a local time offset in seconds for a date.
    public init(language: String, stateDirectory: String? = nil, utcOffset: @escaping @Sendable (Date) -> Int) {
        (self.language, self.utcOffset, self.stateDirectory) = (language, utcOffset, stateDirectory)
    }

    /// `configuration` with its state directory from `$STATE_DIRECTORY` when the file did not set one.
    public func applied(to configuration: Configuration) -> Configuration {
        var c = configuration
        if !c.stateDirectoryIsSet, let stateDirectory { c.stateDirectory = stateDirectory }
        if c.controlSocket == nil, !c.controlSocketDisabled {
            c.controlSocket = (runtimeDirectory ?? Self.defaultRuntimeDirectory) + "/control"
        }
        if c.cacheDirectory == nil, let cacheDirectory { c.cacheDirectory = cacheDirectory }
        return c
    }

    /// Where the control socket is without a `RuntimeDirectory=`: `/run/panel-refresh`.
    public static let defaultRuntimeDirectory = "/run/panel-refresh"

    /// English and UTC: what every command but `run` and the live demo uses.
    public static let neutral = HostEnvironment(language: "en", utcOffset: { _ in 0 })

    /// The running process's $LANG and the C library's local time.
    public static func read() -> HostEnvironment {
        tzset()
        let language = getenv("LANG").map { String(cString: $0) } ?? "en"
        // systemd joins several StateDirectory= (CacheDirectory=) paths with colons; ours is the first.
        func directory(_ variable: String) -> String? {
            getenv(variable).map { String(cString: $0) }
                .flatMap { $0.split(separator: ":").first.map(String.init) }
                .flatMap { $0.hasPrefix("/") ? $0 : nil }
        }
        let state = directory("STATE_DIRECTORY")
        var host = HostEnvironment(language: language.isEmpty ? "en" : language, stateDirectory: state, utcOffset: { date in
            var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
            var parts = tm()
            guard localtime_r(&seconds, &parts) != nil else { return 0 }
            return Int(parts.tm_gmtoff)
        })
        host.cacheDirectory = directory("CACHE_DIRECTORY")
        host.sessionID = getenv("XDG_SESSION_ID").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        host.runtimeDirectory = directory("RUNTIME_DIRECTORY")
        if let given = getenv("PANEL_REFRESH_MACHINE_ID").map({ String(cString: $0) }), !given.isEmpty {
            host.machineID = given
        } else if let bytes = try? BoundedFile.read("/etc/machine-id", limit: 256) {
            host.machineID = TextFormat.trimmed(String(decoding: bytes, as: UTF8.self), newlines: true)
        }
        return host
    }

    /// The header's "Updated: today 14:05" in local time.
    public var lastUpdatedFormatter: LastUpdatedFormatter { LastUpdatedFormatter(utcOffset: utcOffset) }
}
