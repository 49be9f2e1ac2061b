import FoundationEssentials
import PanelRefresh
import Glibc
import PanelInput

/// What the host takes from the machine it runs on: the language ($LANG), the local time's
/// offset from UTC ($TZ, else /etc/localtime, through the C library's `localtime_r`), the
/// folders systemd gives the unit, the logind session, whether a window system is there.
/// Read once (`read()`, by ``KioskHost/panel(configuration:path:display:machine:)``) and handed
/// down; nothing below reads the environment, so tests, replays and expected frames are the
/// same on every machine (`neutral`).
public struct MachineEnvironment: Sendable {
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
    /// `$RUNTIME_DIRECTORY`'s first path (the unit's `RuntimeDirectory=`): where the kiosk
    /// program's control socket goes; `state.control-socket` wins over it.
    public var runtimeDirectory: String?
    /// Whether a window system is there (`$DISPLAY` or `$WAYLAND_DISPLAY` set): `display.backend
    /// = auto` then falls back to a desktop window when there is no panel.
    public var windowSystem = false
    /// The machine's host name (gethostname(2)); empty where it has none.
    public var hostName = ""

    /// A machine of `language` ($LANG), `stateDirectory` ($STATE_DIRECTORY) and a local time offset in seconds for a date.
    public init(language: String, stateDirectory: String? = nil, utcOffset: @escaping @Sendable (Date) -> Int) {
        (self.language, self.utcOffset, self.stateDirectory) = (language, utcOffset, stateDirectory)
    }

    /// `configuration` with its state directory from `$STATE_DIRECTORY` when the file did not set one.
    public func applied(to configuration: Configuration) -> Configuration {
        var c = configuration
        if !c.stateDirectoryIsSet, let stateDirectory { c.stateDirectory = stateDirectory }
        return c
    }

    /// English and UTC: what tests, replays and offline frames use.
    public static let neutral = MachineEnvironment(language: "en", utcOffset: { _ in 0 })

    /// The running process's environment and the C library's local time.
    public static func read() -> MachineEnvironment {
        tzset()
        let language = getenv("LANG").map { String(cString: $0) } ?? "en"
        // systemd joins several StateDirectory= (CacheDirectory=) paths with colons; ours is the first.
        func directory(_ variable: String) -> String? {
            getenv(variable).map { String(cString: $0) }
                .flatMap { $0.split(separator: ":").first.map(String.init) }
                .flatMap { $0.hasPrefix("/") ? $0 : nil }
        }
        let state = directory("STATE_DIRECTORY")
        var machine = MachineEnvironment(language: language.isEmpty ? "en" : language, stateDirectory: state, utcOffset: { date in
            var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
            var parts = tm()
            guard localtime_r(&seconds, &parts) != nil else { return 0 }
            return Int(parts.tm_gmtoff)
        })
        machine.cacheDirectory = directory("CACHE_DIRECTORY")
        machine.sessionID = getenv("XDG_SESSION_ID").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        machine.runtimeDirectory = directory("RUNTIME_DIRECTORY")
        machine.windowSystem = [getenv("DISPLAY"), getenv("WAYLAND_DISPLAY")].contains { $0.map { $0.pointee != 0 } ?? false }
        var name = [CChar](repeating: 0, count: 256)
        if gethostname(&name, name.count - 1) == 0 {
            machine.hostName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        if let given = getenv("PANEL_REFRESH_MACHINE_ID").map({ String(cString: $0) }), !given.isEmpty {
            machine.machineID = given
        } else if let bytes = try? BoundedFile.read("/etc/machine-id", limit: 256) {
            machine.machineID = TextFormat.trimmed(String(decoding: bytes, as: UTF8.self), newlines: true)
        }
        return machine
    }

    /// The header's "Updated: today 14:05" in local time.
    public var lastUpdatedFormatter: LastUpdatedFormatter { LastUpdatedFormatter(utcOffset: utcOffset) }
}
