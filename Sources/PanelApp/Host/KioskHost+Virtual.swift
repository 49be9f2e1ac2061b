import PanelDisplay
import PanelRefresh
import PanelRender

extension KioskHost {
    /// The kiosk in virtual time, for an app's tests and offline frames: the same runtime as on
    /// the panel, on `display` (by default a headless one of `configuration`'s
    /// `display.headless-size`), a clock at 0 that only a `VirtualTimeDriver` moves, nobody
    /// to notify. `fonts`: a font library to share (by default a new one); `views`: an app's own
    /// views instead of the configured list (whose source answers in no virtual time). What
    /// `views` returns is kept with the runtime (``PanelRuntime/app``): the app's controller
    /// lives as long as the views it made.
    ///
    /// ```swift
    /// let host = try KioskHost.virtual { scene in ShelfController(scene: scene) }
    /// let time = VirtualTimeDriver(host)
    /// host.start(at: 0)
    /// time.settle()
    /// ```
    public static func virtual<App>(configuration: Configuration = Configuration(), display: (any Display)? = nil, fonts: FontLibrary? = nil,
                                    notifier: any ServiceNotifier = SilentNotifier(),
                                    views: @escaping (Scene) throws -> App) throws -> KioskHost {
        try virtual(configuration: configuration, display: display, fonts: fonts, notifier: notifier) { _ in .views(build: { try views($0) }) }
    }

    /// The configured list in virtual time (its source answers in no virtual time), on
    /// `display` (by default a headless one of `display.headless-size`).
    public static func virtual(configuration: Configuration = Configuration(), display: (any Display)? = nil, fonts: FontLibrary? = nil,
                               notifier: any ServiceNotifier = SilentNotifier()) throws -> KioskHost {
        try virtual(configuration: configuration, display: display, fonts: fonts, notifier: notifier) { c in
            .list(source: { RunCommand.source(for: c, animator: $0, inline: true) })
        }
    }

    /// The configured list in virtual time over `source` (the commands' replays, demo and
    /// expected frames).
    static func virtual(configuration: Configuration, display: any Display, fonts: FontLibrary,
                        source: @escaping (Configuration, Animator) -> any ItemSource) throws -> KioskHost {
        try virtual(configuration: configuration, display: display, fonts: fonts, notifier: SilentNotifier()) { c in
            .list(source: { source(c, $0) })
        }
    }

    /// The one builder of a virtual-time host: `content` for each configuration the host runs.
    /// `backlights`: a folder standing for /sys/class/backlight (tests); nil: no backlight, so
    /// no test and no offline frame touches the machine's own.
    static func virtual(configuration: Configuration, display given: (any Display)?, fonts sharedFonts: FontLibrary?,
                        notifier: any ServiceNotifier, backlights: String? = nil,
                        content: @escaping (Configuration) -> PanelRuntime.Content) throws -> KioskHost {
        Log.name = configuration.appName
        let display = given ?? HeadlessDisplay(width: configuration.headlessSize.width, height: configuration.headlessSize.height)
        let fonts = try sharedFonts ?? FontLibrary()
        let clock = ManualClock()
        // Pictures and tap commands take no virtual time, as the data sources' answers do.
        func runInline(_ runtime: PanelRuntime) {
            runtime.session?.pictures?.runsInline = true
            if case .command(let command)? = runtime.session?.tapAction { command.runsInline = true }
        }
        let replace = { (c: Configuration, runtime: PanelRuntime) throws -> Bool in
            let built = try runtime.replaceContent(configuration: c, content: content(c))
            runInline(runtime)
            return built
        }
        let host = try KioskHost(configuration: configuration, display: display, clock: clock, backlightRoot: backlights,
                                 replaceContent: replace) { c in
            let runtime = try PanelRuntime(configuration: c, display: display, fonts: fonts, notifier: notifier, content: content(c),
                                           clock: clock, announcesList: false)
            runInline(runtime)
            return runtime
        }
        host.completesFramesOnTick = true
        return host
    }
}
