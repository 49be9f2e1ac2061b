import PanelHost

extension Kiosk {
    /// The kiosk on this machine (what `panel-refresh run` runs): the host on the panel
    /// (`KioskHost.panel(configuration:path:display:machine:)`), the configured list over
    /// its data source, the control socket, the fleet's broker when one is named, the metrics
    /// file; a child subreaper, so a data-source command's escaped descendants end with it.
    /// Start it with `RealTimeDriver(kiosk.host).run()`.
    /// - Parameters:
    ///   - configuration: the whole configuration (display, input, data source, appearance).
    ///   - path: the configuration's file, read again on SIGHUP (nil: no reload).
    ///   - given: a display to use instead of the configured one (tests, a desktop window).
    public static func panel(configuration: KioskConfiguration, path: String? = nil, display given: (any Display)? = nil) throws -> Kiosk {
        Log.name = configuration.appName
        // Descendants that escape a data-source command's group (a setsid daemon) come back to
        // the kiosk, which ends them with their refresh (ChildSupervisor).
        do { try ChildSupervisor.becomeSubreaper() } catch { Log.warning("cannot become the reaper of escaped children: \(error)") }
        let machine = MachineEnvironment.read()
        let c = machine.applied(to: configuration)
        let host = try KioskHost.panel(configuration: c.host, path: path, display: given, machine: machine)
        // The fleet's broker, when one is named: made once, kept across reloads (its list
        // feeds every list the kiosk shows).
        var fleet: FleetLink?
        do {
            if let settings = try FleetLink.settings(for: c, machineID: machine.machineID, name: Kiosk.panelName(c, machine: machine)) {
                fleet = FleetLink(settings, seed: machine.machineID, now: host.clock.now, executor: host.executor)
            }
        } catch {
            Log.error("mqtt: \(error); the panel runs without its broker")
        }
        // The control socket (panel-refresh ctl): a kiosk without one still runs, and says why.
        var control: ControlServer?
        if let socket = c.controlSocket {
            do {
                control = try ControlServer(path: socket)
                Log.info("control: panel-refresh ctl answers at \(socket)")
            } catch {
                Log.warning("control: no control socket: \(error)")
            }
        }
        let kiosk = try Kiosk(host: host, configuration: c, machine: machine, control: control, fleet: fleet, announces: true) { [fleet] c, animator, executor in
            RunCommand.source(for: c, animator: animator, executor: executor, mqtt: fleet?.list)
        }
        kiosk.configurationPath = path
        kiosk.endsProcessChildren = true
        return kiosk
    }

    /// The configured kiosk in virtual time, for replays, the demo, expected frames and the
    /// tests: the host of `KioskHost.virtual(configuration:display:fonts:notifier:backlights:machine:)`
    /// (its work off the loop on a virtual executor: a test chooses when answers come), the list
    /// over `source` (by default the configured one). No control socket; the broker's link only
    /// with `connectsBroker` (a test of a real broker in virtual time).
    /// - Parameters:
    ///   - configuration: the whole configuration, the host's keys and the kiosk's.
    ///   - display: where the frames go (by default the headless display at `display.headless-size`).
    ///   - fonts: a font library to share (by default a new one).
    ///   - notifier: where READY=1 and STATUS= go (by default nowhere).
    ///   - backlights: a folder standing for /sys/class/backlight (nil: no backlight is touched).
    ///   - machine: the machine as the kiosk sees it (by default English, UTC, no id).
    ///   - connectsBroker: whether the broker's link is made (a test of a real broker).
    ///   - announces: whether the journal hears "showing N items" and the list's changes.
    ///   - source: makes the list's data source for the configuration, on the scene's animator and the host's executor (nil: the configured one).
    public static func virtual(configuration: KioskConfiguration = KioskConfiguration(), display: (any Display)? = nil,
                               fonts: FontLibrary? = nil, notifier: any ServiceNotifier = SilentNotifier(), backlights: String? = nil,
                               machine: MachineEnvironment = .neutral, connectsBroker: Bool = false, announces: Bool = false,
                               source: ((KioskConfiguration, Animator, any WorkExecutor) -> any ItemSource)? = nil) throws -> Kiosk {
        let host = try KioskHost.virtual(configuration: configuration.host, display: display, fonts: fonts, notifier: notifier,
                                         backlights: backlights, machine: machine)
        var fleet: FleetLink?
        if connectsBroker, let settings = try FleetLink.settings(for: configuration, machineID: machine.machineID,
                                                                  name: Kiosk.panelName(configuration, machine: machine)) {
            fleet = FleetLink(settings, seed: machine.machineID, now: host.clock.now, executor: host.executor)
        }
        return try Kiosk(host: host, configuration: configuration, machine: machine, control: nil, fleet: fleet, announces: announces,
                         source: source ?? { [fleet] c, animator, executor in
                             RunCommand.source(for: c, animator: animator, executor: executor, mqtt: fleet?.list)
                         })
    }
}

extension MachineEnvironment {
    /// `configuration` with the folders systemd gives the unit: the state directory from
    /// `$STATE_DIRECTORY` and the picture cache from `$CACHE_DIRECTORY` when the file set
    /// none, the control socket in `$RUNTIME_DIRECTORY` (else `/run/panel-refresh`) unless
    /// the file said `none`.
    public func applied(to configuration: KioskConfiguration) -> KioskConfiguration {
        var c = configuration
        c.host = applied(to: c.host)
        if c.controlSocket == nil, !c.controlSocketDisabled {
            c.controlSocket = (runtimeDirectory ?? Self.defaultRuntimeDirectory) + "/control"
        }
        if c.cacheDirectory == nil, let cacheDirectory { c.cacheDirectory = cacheDirectory }
        return c
    }

    /// Where the control socket is without a `RuntimeDirectory=`: `/run/panel-refresh`.
    public static let defaultRuntimeDirectory = "/run/panel-refresh"
}
