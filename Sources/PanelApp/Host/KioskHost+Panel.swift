import Glibc
import PanelDisplay
import PanelInput
import PanelRefresh
import PanelRender

extension KioskHost {
    /// The kiosk on this machine: the display the configuration names, the touchscreens (given
    /// or found by udev), input and DRM hotplug, the backlight, systemd's notifications, the
    /// machine's language and time zone, on the real-time driver's clock. `content` is the
    /// configured list unless an app gives its own views. Start it with `RealTimeDriver(host).run()`.
    ///
    /// - Parameters:
    ///   - configuration: the whole configuration (display, input, data source, appearance).
    ///   - path: the configuration's file, read again on SIGHUP (nil: no reload).
    ///   - given: a display to use instead of the configured one (tests, a desktop window).
    ///   - views: an app's own views instead of the configured list. What it returns (the
    ///     app's controller, data source, delegate) is kept with the runtime
    ///     (``PanelRuntime/app``), so the app need not keep it in a global.
    public static func panel<App>(configuration: Configuration, path: String? = nil, display given: (any Display)? = nil,
                                  views: @escaping (Scene) throws -> App) throws -> KioskHost {
        try panel(configuration: configuration, path: path, display: given, content: { try views($0) })
    }

    /// The configured kiosk on this machine (what `panel-refresh run` runs): the list over the
    /// configured data source; the rest as ``panel(configuration:path:display:views:)``.
    public static func panel(configuration: Configuration, path: String? = nil, display given: (any Display)? = nil) throws -> KioskHost {
        try panel(configuration: configuration, path: path, display: given, content: nil)
    }

    private static func panel(configuration: Configuration, path: String?, display given: (any Display)?,
                              content views: ((Scene) throws -> Any)?) throws -> KioskHost {
        Log.name = configuration.appName
        Log.info("starting" + (path.map { " with \($0)" } ?? " with the built-in defaults"))
        // Descendants that escape a data-source command's group (a setsid daemon) come back to
        // the kiosk, which ends them with their refresh (ChildSupervisor).
        do { try ChildSupervisor.becomeSubreaper() } catch { Log.warning("cannot become the reaper of escaped children: \(error)") }
        // The one place the environment is read: $LANG, the time zone, the logind session.
        let environment = HostEnvironment.read()
        let (session, terminal) = given == nil ? seat(for: configuration, environment: environment) : (nil, nil)
        let display: any Display
        do {
            display = try given ?? RunCommand.display(for: configuration, session: session)
        } catch {
            terminal?.restore()
            throw error
        }
        Log.info("display \(display.width)x\(display.height): \(display.summary)")
        let clock = RealTimeDriver.makeClock()
        let fonts = try FontLibrary()
        let notifier = SystemdNotifier()
        // The fleet's broker, when one is named: made once, kept across reloads (its list
        // feeds every runtime's session).
        var fleet: FleetLink?
        do {
            if let settings = try FleetLink.settings(for: environment.applied(to: configuration), machineID: environment.machineID) {
                fleet = FleetLink(settings, seed: environment.machineID, now: clock.now)
            }
        } catch {
            Log.error("mqtt: \(error); the panel runs without its broker")
        }
        let content = { [fleet] (c: Configuration) -> PanelRuntime.Content in
            views.map { .views(build: $0) } ?? .list(source: { RunCommand.source(for: c, animator: $0, mqtt: fleet?.list) })
        }
        let makeRuntime = { (file: Configuration) throws -> PanelRuntime in
            let c = environment.applied(to: file)
            return try PanelRuntime(configuration: c, display: display, fonts: fonts, notifier: notifier, content: content(c),
                                    clock: clock, stopwatch: RealTimeDriver.stopwatch, host: environment)
        }
        let replaceContent = { (file: Configuration, runtime: PanelRuntime) throws -> Bool in
            let c = environment.applied(to: file)
            return try runtime.replaceContent(configuration: c, content: content(c))
        }
        // A desktop window has its own mouse and touch (the desktop's touchscreen comes
        // through the window system): evdev devices only when named.
        let ownInput = display is WindowDisplay
        // Touch follows the picture's turn, plus the sensor's own when it is mounted differently.
        let set = TouchscreenSet(explicitPaths: configuration.devices.isEmpty ? nil : configuration.devices,
                                 width: Double(display.width), height: Double(display.height),
                                 configuration: TouchAssembler.Configuration(positionAxes: configuration.positionAxes),
                                 mapping: configuration.touchMapping()) { path in
            // In a logind session the device comes from logind; else through the input group.
            guard let session else { return try EvdevDevice(path: path, requireDirect: false, grab: configuration.grab) }
            guard let number = DeviceNumber(path: path) else { throw InputError.cannotOpen(path: path, errno: ENODEV) }
            let taken: (fd: Int32, paused: Bool)
            do {
                taken = try session.takeDevice(number)
            } catch {
                Log.error("touchscreen \(path): \(error)")
                throw InputError.cannotOpen(path: path, errno: EACCES)
            }
            return try EvdevDevice(path: path, descriptor: taken.fd, requireDirect: false, grab: configuration.grab)
        }
        set.onError = { Log.error("touchscreen: \($0)") }
        var discovered: [TouchscreenInfo] = []
        do {
            if !ownInput { discovered = try TouchscreenDiscovery.list() }
        } catch {
            Log.warning("cannot ask udev for touchscreens: \(error)")
            discovered = []
        }
        set.start(discovered: discovered)
        if set.nodes.isEmpty && !ownInput { Log.warning("no touchscreen yet; waiting for one to appear") }
        for node in set.nodes { Log.info("touchscreen \(node)") }
        var monitor: HotplugMonitor?
        if !ownInput || !configuration.devices.isEmpty {
            do { monitor = try HotplugMonitor() } catch { Log.warning("no hotplug: \(error)") }
        }
        var displayMonitor: DisplayHotplugMonitor?
        if display.pacesFrames {
            do { displayMonitor = try DisplayHotplugMonitor() } catch { Log.warning("no display hotplug: \(error)") }
        }
        let host = try KioskHost(configuration: configuration, display: display, clock: clock, touchscreens: set, monitor: monitor,
                                 displayMonitor: displayMonitor, backlightRoot: "/sys/class/backlight", replaceContent: replaceContent,
                                 makeRuntime: makeRuntime)
        host.configurationPath = path
        host.fleet = fleet
        host.session = session
        host.terminal = terminal
        // The control socket (panel-refresh ctl): a kiosk without one still runs, and says why.
        if let socket = environment.applied(to: configuration).controlSocket {
            do {
                host.control = try ControlServer(path: socket)
                Log.info("control: panel-refresh ctl answers at \(socket)")
            } catch {
                Log.warning("control: no control socket: \(error)")
            }
        }
        if let interval = display.frameInterval { host.frameInterval = interval }
        return host
    }

    /// How the kiosk reaches the card and the touchscreens, said in the log: through logind
    /// when it runs in a session it can control (a unit with `PAMName=`), else through its
    /// groups (input, video) with its own VT switching when standard input is a VT. A window
    /// or the headless display needs neither.
    static func seat(for configuration: Configuration, environment: HostEnvironment) -> (LogindSession?, VirtualTerminal?) {
        guard [.auto, .drm, .fbdev].contains(configuration.backend) else { return (nil, nil) }
        do {
            if let session = try LogindSession.current(sessionID: environment.sessionID) {
                Log.info("seat: logind session \(session.id): the card and the touchscreens come from logind (TakeDevice), which pauses them on a VT switch")
                return (session, nil)
            }
            Log.info("seat: no logind session: the card and the touchscreens are opened through the groups (video, input)")
        } catch {
            Log.warning("seat: cannot control the logind session (\(error)); the card and the touchscreens are opened through the groups (video, input)")
        }
        do {
            let terminal = try VirtualTerminal()
            Log.info("VT: tty\(terminal.number) in graphics mode; switches to other VTs release the card (VT_PROCESS, SIGUSR2)")
            return (nil, terminal)
        } catch {
            Log.info("VT: none (\(error)); VT switches are not handled")
            return (nil, nil)
        }
    }
}
