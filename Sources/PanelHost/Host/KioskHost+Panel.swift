import Glibc
import PanelDisplay
import PanelInput
import PanelRefresh
import PanelRender

extension KioskHost {
    /// The host on this machine: the display the configuration names (DRM, else fbdev, else a
    /// desktop window where a window system is), the touchscreens (given or found by udev),
    /// input and DRM hotplug, the seat (logind, else the VT), the backlight, systemd's
    /// notifications, the machine's language and time zone, on the real-time driver's clock
    /// and executor. It shows nothing until ``show(views:)``; start it with
    /// `RealTimeDriver(host).run()`, which takes the signals.
    ///
    /// An app pays for nothing else: no control socket, no child reaper, no HTTP, MQTT or JSON
    /// library (the kiosk program adds its own on top).
    ///
    /// - Parameters:
    ///   - configuration: the host's keys (display, input, locale, limits, state directory).
    ///   - path: the configuration's file, read again on SIGHUP (nil: no reload).
    ///   - given: a display to use instead of the configured one (tests, a desktop window).
    ///   - machine: the machine's environment (``MachineEnvironment/read()``, by default read now).
    public static func panel(configuration: Configuration, path: String? = nil, display given: (any Display)? = nil,
                             machine: MachineEnvironment? = nil) throws -> KioskHost {
        Log.name = configuration.appName
        Log.info("starting" + (path.map { " with \($0)" } ?? " with the built-in defaults"))
        // Before any work leaves the main thread: worker stacks that hold no 2 MiB page.
        do { try WorkerStacks.limit() } catch { Log.warning("\(error)") }
        // The one place the environment is read: $LANG, the time zone, the logind session.
        let machine = machine ?? MachineEnvironment.read()
        let configuration = machine.applied(to: configuration)
        let (session, terminal) = given == nil ? seat(for: configuration, machine: machine) : (nil, nil)
        let display: any Display
        do {
            display = try given ?? configuration.openDisplay(session: session, windowSystem: machine.windowSystem)
        } catch {
            terminal?.restore()
            throw error
        }
        Log.info("display \(display.width)x\(display.height): \(display.summary)")
        let clock = MonotonicClock.makeClock()
        let fonts = try FontLibrary()
        // A desktop window has its own mouse and touch (the desktop's touchscreen comes
        // through the window system): evdev devices only when named.
        let ownInput = display is WindowDisplay
        let set = touchscreens(for: configuration, display: display, session: session, ownInput: ownInput)
        var monitor: HotplugMonitor?
        if !ownInput || !configuration.devices.isEmpty {
            do { monitor = try HotplugMonitor() } catch { Log.warning("no hotplug: \(error)") }
        }
        var displayMonitor: DisplayHotplugMonitor?
        if display.pacesFrames {
            do { displayMonitor = try DisplayHotplugMonitor() } catch { Log.warning("no display hotplug: \(error)") }
        }
        let host = KioskHost(configuration: configuration, display: display, clock: clock, executor: RealTimeExecutor(), fonts: fonts,
                             notifier: SystemdNotifier(), machine: machine, touchscreens: set, monitor: monitor,
                             displayMonitor: displayMonitor, backlightRoot: "/sys/class/backlight", stopwatch: MonotonicClock.stopwatch)
        host.configurationPath = path
        host.calendar = MonotonicClock.calendarOffset
        // A clock set while the loop sleeps is an entry at once (the light's schedule follows it).
        if let watch = ClockSetWatch() { host.watch(watch) }
        host.stage.calendarFloor = MonotonicClock.programDate()
        host.session = session
        host.terminal = terminal
        if let interval = display.frameInterval { host.frameInterval = interval }
        return host
    }

    /// An app's views on this machine's panel: ``panel(configuration:path:display:machine:)``,
    /// then ``show(views:)``. What `views` returns (the app's controller, data source,
    /// delegate) is kept as long as the views, so the app need not keep it in a global; an app
    /// that wants it back calls the two itself.
    public static func panel<App>(configuration: Configuration, path: String? = nil, display given: (any Display)? = nil,
                                  views: (Scene) throws -> App) throws -> KioskHost {
        let host = try panel(configuration: configuration, path: path, display: given)
        try host.show(views: views)
        return host
    }

    /// The touchscreens: the ones named, else every one udev reports (none for a desktop
    /// window, whose touch comes through the window system), each opened through logind when
    /// there is a session, else through the input group. Touch follows the picture's turn,
    /// plus the sensor's own when it is mounted differently.
    private static func touchscreens(for configuration: Configuration, display: any Display, session: LogindSession?,
                                     ownInput: Bool) -> TouchscreenSet {
        let set = TouchscreenSet(explicitPaths: configuration.devices.isEmpty ? nil : configuration.devices,
                                 width: Double(display.width), height: Double(display.height),
                                 configuration: TouchAssembler.Configuration(positionAxes: configuration.positionAxes),
                                 mapping: configuration.touchMapping()) { path in
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
        }
        set.start(discovered: discovered)
        if set.nodes.isEmpty && !ownInput { Log.warning("no touchscreen yet; waiting for one to appear") }
        for node in set.nodes { Log.info("touchscreen \(node)") }
        return set
    }

    /// How the host reaches the card and the touchscreens, said in the log: through logind
    /// when it runs in a session it can control (a unit with `PAMName=`), else through its
    /// groups (input, video) with its own VT switching when standard input is a VT. A window
    /// or the headless display needs neither.
    static func seat(for configuration: Configuration, machine: MachineEnvironment) -> (LogindSession?, VirtualTerminal?) {
        guard [.auto, .drm, .fbdev].contains(configuration.backend) else { return (nil, nil) }
        do {
            if let session = try LogindSession.current(sessionID: machine.sessionID) {
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
