import CSystemd
import Glibc

/// Tells the service manager how the program is doing (sd_notify): READY=1, WATCHDOG=1,
/// STATUS=..., STOPPING=1.
@MainActor
public protocol ServiceNotifier: AnyObject {
    /// Sends one assignment ("READY=1", "STATUS=...").
    func notify(_ assignment: String)
    /// The watchdog interval systemd asked for (WatchdogSec), seconds; nil when none.
    var watchdogInterval: Double? { get }
}

/// sd_notify through libsystemd; does nothing when not started by systemd (no NOTIFY_SOCKET).
@MainActor
public final class SystemdNotifier: ServiceNotifier {
    /// A notifier for $NOTIFY_SOCKET (nothing when it is unset).
    public init() {}

    /// sd_notify(3) of `assignment`.
    public func notify(_ assignment: String) {
        // STATUS is readable by anyone (`systemctl status`): no URL's password goes there.
        _ = sd_notify(0, Redaction.redact(assignment))
    }

    /// $WATCHDOG_USEC as seconds, when systemd set it for this process.
    public var watchdogInterval: Double? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return Double(microseconds) / 1_000_000
    }
}
