import PanelRefresh

/// A notifier that tells nobody (expected frames, tests).
@MainActor
public final class SilentNotifier: ServiceNotifier {
    /// A notifier for nobody.
    public init() {}
    /// Drops the assignment.
    public func notify(_ assignment: String) {}
    /// No watchdog.
    public var watchdogInterval: Double? { nil }
}
