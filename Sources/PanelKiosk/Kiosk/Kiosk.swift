import FoundationEssentials
import Glibc
import PanelHost

/// The kiosk program on the host: the configured list as the stage's content, and what the
/// program adds around it as loop sources (its control socket, its fleet's broker, its metrics
/// file), its own configuration keys and reload, its status in every form an operator reads.
/// `panel-refresh run` makes one with ``panel(configuration:path:display:)``; replays, the
/// demo, expected frames and the tests with ``virtual(configuration:display:fonts:notifier:backlights:machine:connectsBroker:announces:source:)``.
/// It brokers between the fleet and the list in one place: the link's news reaches the list
/// here, and the list reads what it says of the broker itself (`KioskList.broker`).
@MainActor
public final class Kiosk {
    /// The host the kiosk runs on.
    public let host: KioskHost
    /// The configuration in use, with the machine's folders applied.
    public private(set) var configuration: KioskConfiguration
    /// The list on the stage now: a reload that changes what it is built from puts a new one
    /// there (the stage stays).
    public private(set) var list: KioskList
    /// The file the configuration came from (SIGHUP reads it again); nil: nothing to reload.
    public var configurationPath: String?
    /// The control socket `panel-refresh ctl` talks to, when there is one.
    public let control: ControlServer?
    /// The fleet's MQTT broker, when the configuration names one (`data.mqtt-url`).
    public let fleet: FleetLink?
    /// The metrics file (`state.metrics-file`), written every `state.metrics-seconds`.
    public let metrics: MetricsFile
    /// Hears every list the kiosk shows (the first at the start, each a reload builds) before
    /// it loads: the place to wire a trace.
    public var onList: ((KioskList) -> Void)?
    /// The machine's folders and ids.
    let machine: MachineEnvironment
    /// Whether the journal hears of the list's changes.
    let announces: Bool
    /// Whether this kiosk is the process's own (``panel(configuration:path:display:)``), so that
    /// its stop ends every data-source command still running in the process and what escaped
    /// them. A virtual kiosk leaves them: why, other kiosks of the same process (the tests run
    /// many at once) may have commands running that are not its to end.
    var endsProcessChildren = false
    /// Whether a screenshot is being encoded (another is answered "busy").
    private var takingScreenshot = false
    /// Makes a list's data source for a configuration.
    let makeSource: (KioskConfiguration, Animator, any WorkExecutor) -> any ItemSource
    /// The theme the file says (`theme auto` goes back to it; a reload reads it again).
    private var fileTheme: KioskConfiguration.Theme

    /// The kiosk for `configuration` on `host`: its list made and shown, its sources watched,
    /// its reload and stop given to the host. Throws what the list's appearance throws.
    init(host: KioskHost, configuration: KioskConfiguration, machine: MachineEnvironment, control: ControlServer?, fleet: FleetLink?,
         announces: Bool, source: @escaping (KioskConfiguration, Animator, any WorkExecutor) -> any ItemSource) throws {
        (self.host, self.configuration, self.machine, self.control, self.fleet) = (host, configuration, machine, control, fleet)
        (self.announces, makeSource) = (announces, source)
        fileTheme = configuration.theme
        metrics = MetricsFile(file: configuration.metricsFile, seconds: configuration.metricsSeconds)
        list = try KioskList.configured(configuration, on: host.stage, source: source, broker: fleet, announces: announces)
        try host.show(list)
        // The host holds what it watches and shows, not the kiosk: these reach it weakly, and
        // whoever made the kiosk keeps it as long as its host runs.
        metrics.render = { [weak self] in self.map { MetricsExposition.prometheus.render($0.status()) } ?? "" }
        for source in [control, fleet, metrics] as [(any LoopSource)?] { if let source { host.watch(source) } }
        control?.onRequest = { [weak self] command, answer in self?.request(command, answer: answer) }
        fleet?.status = { [weak self] in self?.fleetStatus() ?? "{}" }
        fleet?.onList = { [weak self] in _ = self?.list.refreshAutomatically() }
        fleet?.onTrigger = { [weak self] in
            Log.info("mqtt: a trigger's refresh")
            _ = self?.list.refreshAutomatically()
        }
        fleet?.onCommand = { [weak self] command in
            Log.info("mqtt: \(command.line) asked")
            self?.request(command) { [weak self] reply in
                switch reply {
                case .error(let why):
                    Log.warning("mqtt: \(command.line): \(why)")
                    self?.fleet?.reply("refused \(command.line): \(why)")
                case .ok(let payload) where command == .screenshot:
                    self?.fleet?.publishScreenshot(payload)
                case .ok:
                    self?.fleet?.reply("ok \(command.line)")
                }
            }
        }
        host.onStart = { [weak self] in
            guard let self else { return }
            self.onList?(self.list)
            self.metrics.schedule(from: self.host.clock.now)
        }
        host.onReload = { [weak self] in self?.reload() }
        host.onStop = { [weak self] in
            guard let self else { return }
            self.fleet?.stop()
            self.control?.close()
            // A data-source command still running, and what escaped its group, end with the
            // process's kiosk.
            if self.endsProcessChildren { ChildSupervisor.endAll() }
        }
    }

    /// Loads the first page and draws the first frame (`KioskHost.start(at:loading:)`).
    public func start(at time: Double, loading: Bool = true) { host.start(at: time, loading: loading) }

    // MARK: Status

    /// The panel's name: `panel.name`, else the machine's host name, else "panel".
    public var panelName: String { Self.panelName(configuration, machine: machine) }

    /// The name `configuration` gives the panel on `machine`.
    nonisolated static func panelName(_ configuration: KioskConfiguration, machine: MachineEnvironment) -> String {
        configuration.panelName ?? (machine.hostName.isEmpty ? "panel" : machine.hostName)
    }

    /// What the kiosk tells the outside now: the host's part, the list's, the broker's.
    public func status(memory: Bool = true) -> KioskStatus {
        let clock = host.clock
        let counters = list.counters
        var status = KioskStatus(host: host.status(memory: memory), items: list.items.count, refreshes: counters,
                           dataAge: counters.lastSuccessTime.map { clock.now - $0 },
                           nextRefresh: list.nextAutomaticRefresh.map { clock.date.addingTimeInterval($0 - clock.now) },
                           consecutiveFailures: list.schedule?.failures ?? 0, pictureCacheBytes: list.pictures?.bytesUsed ?? 0,
                           pictureCacheHits: list.pictures?.hits ?? 0, pictureCacheMisses: list.pictures?.misses ?? 0,
                           brokerState: fleet?.stateName, brokerTrouble: fleet?.problem)
        if let fleet {
            status.brokerConnections = fleet.connections
            status.brokerSilence = fleet.lastMessage.map { clock.now - $0 }
        }
        (status.newRows, status.newAbove) = (list.lastNewRows, list.newAbove)
        (status.name, status.hostName) = (panelName, machine.hostName)
        status.homeAt = list.nextHome.map { clock.date.addingTimeInterval($0 - clock.now) }
        status.pageAt = list.nextPage.map { clock.date.addingTimeInterval($0 - clock.now) }
        return status
    }

    /// The status the fleet's broker keeps for the panel: `ctl status`'s JSON without what
    /// changes every second (``KioskStatus/changingKeys``: the uptime, the data's age, the
    /// memory, the frame counts), so it is published when the panel's state changes, not on
    /// every round; `started` stands for the uptime.
    private func fleetStatus() -> String { status(memory: false).json(retained: true) }

    // MARK: Requests (the control socket, the broker's commands)

    /// One request of `ctl` (or the broker's command topic), answered on the loop; a
    /// screenshot's encoding off it, its answer at an entry of its own.
    func request(_ command: ControlCommand, answer: @escaping @MainActor (ControlReply) -> Void) {
        func text(_ line: String) -> ControlReply { .ok(Array((line + "\n").utf8)) }
        switch command {
        case .status:
            answer(text(status().json))
        case .metrics(let format):
            answer(.ok(Array(format.render(status()).utf8)))
        case .refresh:
            Log.info("control: refresh asked")
            // As the timer's refresh: in refresh.auto-style, the reader's place kept.
            answer(list.refreshAutomatically() ? text("refreshing") : text("a refresh is under way already"))
        case .blank:
            answer(host.stage.blankNow() ? text("blank") : text(host.display.isBlank ? "blank already" : "cannot blank"))
        case .wake:
            answer(host.stage.wakeUp() ? text("awake") : text("awake already"))
        case .brightness(let percent):
            host.stage.setBrightness(percent)
            let light = host.stage.lightStatus
            let until = host.stage.lightSettings.night != nil ? " until the night hours begin or end" : ""
            answer(text(percent.map { "brightness \($0) %" + until } ?? "brightness as configured: \(light.off == nil ? "\(light.brightness) %" : "off")"))
        case .interval(let seconds):
            let range = configuration.mqttIntervalRange
            if let seconds, !range.contains(Double(seconds)) {
                return answer(.error("\(seconds) s is outside mqtt.interval-range (\(TextFormat.number(range.lowerBound))-\(TextFormat.number(range.upperBound)) s)"))
            }
            // Until a reload, which takes the file's refresh.every again.
            var set = configuration
            if let seconds { set.refreshEvery = Double(seconds) }
            list.apply(refreshKeys: set)
            answer(text(seconds.map { "refreshing every \($0) s until a reload" } ?? "refreshing as configured (\(TextFormat.number(configuration.refreshEvery)) s)"))
        case .theme(let theme):
            // A new list of those colours on the same stage, as a reload makes one; the running
            // configuration holds the theme, so a reload of the file brings the file's back.
            var fresh = configuration
            fresh.theme = theme ?? fileTheme
            guard fresh.theme != configuration.theme else { return answer(text("the theme is \(fresh.theme.rawValue) already")) }
            do {
                try install(KioskList.configured(fresh, on: host.stage, source: makeSource, broker: fleet, announces: announces))
                configuration = fresh
            } catch {
                return answer(.error("cannot show the \(fresh.theme.rawValue) theme: \(error)"))
            }
            answer(text("the \(fresh.theme.rawValue) theme until a reload"))
        case .identify(let seconds):
            // A blank panel is lit for it: the person who asked is looking for this one.
            host.stage.wakeUp()
            let lines = ["host \(machine.hostName.isEmpty ? "(none)" : machine.hostName)"] + NetworkAddresses.current()
                + ["panel-refresh \(ProgramVersion.current)"] + (fleet.map { ["client id \($0.settings.connection.clientID)"] } ?? [])
            list.showIdentity(title: panelName, lines: lines, until: host.clock.now + Double(seconds))
            Log.info("identify: the panel's name and addresses shown for \(seconds) s")
            answer(text("showing \(panelName)'s name, host and addresses for \(seconds) s"))
        case .schedule(let on):
            host.stage.followSchedule(on)
            let schedule = host.stage.lightSettings.scheduleText
            answer(text(schedule == nil ? "no schedule is configured (display.night, display.off-hours)"
                        : on ? "following the schedule: \(schedule ?? "")" : "schedule suspended: lit at the day's level at all hours"))
        case .screenshot:
            // One at a time: each holds a copy of the glass and its encoder's buffers (16 at once
            // at 4K peaked at 619 MB and stalled the loop 6.5 s copying them).
            guard !takingScreenshot else { return answer(.error("busy: a screenshot is being taken; ask again when it is done")) }
            // The glass is dark (or another session has the card): the buffer still holds the
            // last lit frame, which is not what anyone in the room sees.
            if host.display.isBlank { return answer(.error("the panel is blank: the glass shows nothing (ctl wake, or a touch, lights it)")) }
            if host.display.isPaused { return answer(.error("the panel is paused: another session has the display, and the glass is not this kiosk's")) }
            guard let snapshot = host.display.glassSnapshot() else { return answer(.error("nothing is on the glass yet")) }
            takingScreenshot = true
            host.executor.execute(in: nil, {
                Result { () throws -> [UInt8] in try PNG.encode(snapshot) }
            }, then: { [weak self] result in
                self?.takingScreenshot = false
                switch result {
                case .success(let png): answer(.ok(png))
                case .failure(let error): answer(.error("cannot encode the screenshot: \(error)"))
                }
                // The copy and the encoder's buffers are freed; their pages go back to the
                // system (about 170 MB stayed resident after 16 at 1080p).
                FreedMemory.giveBack()
            })
        }
    }

    /// Puts `rebuilt` on the stage in place of the list shown (a reload's new list, `theme`'s),
    /// tells `onList` and starts it; throws what showing it throws, the list in use kept.
    private func install(_ rebuilt: KioskList) throws {
        try host.show(rebuilt)
        list = rebuilt
        onList?(rebuilt)
        rebuilt.start()
    }

    // MARK: Reload

    /// SIGHUP: the file read again. Only what its changed keys reach is rebuilt: a list whose
    /// data source, rows, appearance, locale or limits changed is made anew on the same stage
    /// (made first: a refused reload leaves the list in use untouched); `[refresh]`, blanking,
    /// the backlight, resampling and the metrics file are taken in place, the list and the
    /// reader's place kept; the display, input and broker settings apply at the next start.
    /// STATUS goes on saying where the kiosk stands; the journal says what was applied.
    func reload() {
        guard let path = configurationPath else {
            Log.info("reload: no configuration file: nothing to reload")
            return
        }
        let fresh: KioskConfiguration
        do {
            fresh = machine.applied(to: try KioskConfiguration.load(path: path))
        } catch {
            host.refuseReload(error)
            // The running configuration stays, and the list is refreshed all the same.
            _ = list.refreshAutomatically()
            return
        }
        if fresh.brokerSettings != configuration.brokerSettings {
            // The link is made once, at the start: its connection, will and subscriptions.
            Log.warning("reload: the broker's settings (data.mqtt-*, [mqtt], refresh.trigger-*) apply at the next start")
        }
        let changed = fresh.changedKeys(from: configuration)
        var rebuilt: KioskList?
        if !changed.isDisjoint(with: KioskConfiguration.listKeys) {
            do {
                rebuilt = try KioskList.configured(fresh, on: host.stage, source: makeSource, broker: fleet, announces: announces)
            } catch {
                host.refuseReload(error)
                return
            }
        }
        configuration = fresh
        fileTheme = fresh.theme
        metrics.reconfigure(file: fresh.metricsFile, seconds: fresh.metricsSeconds, now: host.clock.now)
        let kept = host.reconfigure(fresh.host)
        if rebuilt == nil && !kept {
            // The host's keys reach the list (its language): made anew after all.
            rebuilt = try? KioskList.configured(fresh, on: host.stage, source: makeSource, broker: fleet, announces: announces)
        }
        var said = "reloaded \(path)"
        if let rebuilt {
            do {
                try install(rebuilt)
            } catch {
                host.refuseReload(error)
                return
            }
            said += ": a new list on the same stage (the display, blanking and the statistics kept)"
        } else {
            list.apply(refreshKeys: fresh)
            said += changed.isEmpty ? ": nothing changed" : ": " + changed.sorted().joined(separator: ", ") + " applied; the list and its place kept"
            // SIGHUP refreshes the list as well, as the timer's refresh does (the place kept):
            // configuration.md says so, and a reload that changed only [refresh] had stopped.
            if list.refreshAutomatically() { said += "; refreshing" }
        }
        Log.info(said)
    }
}

extension KioskConfiguration {
    /// The keys a list is built from: a reload that changes one of them makes a new list.
    /// The rest are the host's (blanking, the backlight and resampling in place; the display
    /// and input at the next start), the list's in place (``KioskList/keysInPlace``), the
    /// metrics file's (in place), or the broker's and the control socket's (the next start).
    public static let listKeys: Set<String> = {
        let elsewhere: Set<String> = KioskList.keysInPlace.union(["state.metrics-file", "state.metrics-seconds", "state.control-socket",
                                                                 "refresh.trigger-topic", "refresh.trigger-jitter"])
        return Set(keys.filter { key in
            !["input", "display", "mqtt"].contains(key.section) && !key.qualified.hasPrefix("data.mqtt-")
        }.map(\.qualified)).subtracting(elsewhere)
    }()

    /// What the broker's link is made from, to tell a reload that changed it.
    var brokerSettings: [String] {
        [mqttBroker?.description, mqttTopic, mqttUser, mqttPasswordFile, mqttClientID, mqttCAFile, mqttStatusTopic, mqttTapTopic,
         mqttCommandTopic, refreshTriggerTopic, "\(mqttCommands)", "\(refreshTriggerJitter)", "\(mqttStaleAfter)", "\(source == .mqtt)",
         "\(mqttDiscovery)", mqttDiscoveryPrefix, panelName]
            .map { $0 ?? "-" }
    }
}
