import PanelDisplay
import PanelRefresh
import PanelRender

extension KioskHost {
    /// The host in virtual time, for an app's tests and offline frames: the same stage as on
    /// the panel, on `display` (by default a headless one of `configuration`'s
    /// `display.headless-size`), a clock at 0 that only a `VirtualTimeDriver` moves, work off
    /// the loop on a ``VirtualExecutor`` (its answers come when the test says), nobody to
    /// notify. `fonts`: a font library to share (by default a new one); `backlights`: a folder
    /// standing for /sys/class/backlight (nil: no backlight, so no test touches the machine's);
    /// `machine`: the machine as the tests see it (by default English, UTC, no id).
    ///
    /// ```swift
    /// let host = try KioskHost.virtual()
    /// let shelf = try host.show { scene in ShelfController(scene: scene) }
    /// let time = VirtualTimeDriver(host)
    /// host.start(at: 0)
    /// time.settle()
    /// ```
    public static func virtual(configuration: Configuration = Configuration(), display given: (any Display)? = nil,
                               fonts sharedFonts: FontLibrary? = nil, notifier: any ServiceNotifier = SilentNotifier(),
                               backlights: String? = nil, machine: MachineEnvironment = .neutral) throws -> KioskHost {
        Log.name = configuration.appName
        let display = given ?? HeadlessDisplay(width: configuration.headlessSize.width, height: configuration.headlessSize.height)
        let clock = ManualClock()
        let executor = VirtualExecutor(clock: clock)
        let host = KioskHost(configuration: configuration, display: display, clock: clock, executor: executor,
                             fonts: try sharedFonts ?? FontLibrary(), notifier: notifier, machine: machine, backlightRoot: backlights,
                             announcesContent: false)
        host.completesFramesOnTick = true
        host.virtualExecutor = executor
        return host
    }

    /// An app's views in virtual time: ``virtual(configuration:display:fonts:notifier:backlights:machine:)``,
    /// then ``show(views:)``; what `views` returns is kept as long as the views.
    public static func virtual<App>(configuration: Configuration = Configuration(), display: (any Display)? = nil, fonts: FontLibrary? = nil,
                                    notifier: any ServiceNotifier = SilentNotifier(), views: (Scene) throws -> App) throws -> KioskHost {
        let host = try virtual(configuration: configuration, display: display, fonts: fonts, notifier: notifier)
        try host.show(views: views)
        return host
    }
}
