import FoundationEssentials
import PanelDisplay
import PanelRefresh
import PanelRender

extension KioskHost {
    /// The kiosk in virtual time, for an app's tests and offline frames: the same runtime as on
    /// the panel, on `display` (by default a headless one of `configuration`'s
    /// `display.headless-size`), a clock at 0 that only a `VirtualTimeDriver` moves, nobody
    /// to notify. `views`: an app's own views instead of the configured list.
    ///
    /// ```swift
    /// let host = try KioskHost.virtual(configuration: Configuration()) { scene in /* add views */ }
    /// let time = VirtualTimeDriver(host)
    /// host.start(at: 0)
    /// time.settle()
    /// ```
    public static func virtual(configuration: Configuration, display given: (any Display)? = nil,
                               notifier: any ServiceNotifier = SilentNotifier(),
                               views: ((Scene) throws -> Void)? = nil) throws -> KioskHost {
        let display = given ?? HeadlessDisplay(width: configuration.headlessSize.width, height: configuration.headlessSize.height)
        let fonts = try FontLibrary()
        let clock = ManualClock()
        let host = try KioskHost(configuration: configuration, display: display, clock: clock) { c in
            let content: PanelRuntime.Content = views.map { .views(build: $0) }
                ?? .list(source: { RunCommand.source(for: c, animator: $0, inline: true) })
            return try PanelRuntime(configuration: c, display: display, fonts: fonts, notifier: notifier, content: content,
                                    clock: clock, announcesList: false)
        }
        host.completesFramesOnTick = true
        return host
    }
}
