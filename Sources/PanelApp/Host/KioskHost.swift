import FoundationEssentials
import Glibc
import PanelDisplay
import PanelInput
import PanelRefresh
import PanelRender

/// The kiosk without a loop: the runtime, its clock, the touchscreens, reload, hotplug and the
/// display's events. Every entry takes the time of its event; ``RealTimeDriver`` calls them
/// from Dispatch sources with CLOCK_MONOTONIC, `VirtualTimeDriver` with virtual time. The
/// clock moves in one place (`arrive(at:)`); everything after it reads the clock.
///
/// The seams stay open for another backend: a display is any `Display`, touchscreens any
/// `EventSource` opened by the `TouchscreenSet`.
@MainActor
public final class KioskHost: TimeStepped {
    /// The runtime in use: a new panel size resizes it, a reload reconfigures it and, when
    /// the list changed, gives it new content (`replaceContent`); it is built again only by a
    /// host made without `replaceContent`.
    public private(set) var runtime: PanelRuntime
    /// The one clock of the kiosk; moved only by `arrive(at:)`.
    public let clock: ManualClock
    /// The configuration in use (SIGHUP compares the new one with it).
    public private(set) var configuration: Configuration
    /// The file the configuration came from (SIGHUP reads it again); nil: no reload.
    public var configurationPath: String?
    /// Builds a runtime for a configuration on this display (the start).
    public let makeRuntime: (Configuration) throws -> PanelRuntime
    /// Gives the runtime the content of a reloaded configuration on the stage it has (its
    /// screen, frame driver, blanking and statistics stay) and says whether it built any
    /// (an app's views are kept); nil: such a reload builds a whole runtime with `makeRuntime`.
    public let replaceContent: ((Configuration, PanelRuntime) throws -> Bool)?
    /// The touchscreens (nil: touch comes only through `touch(_:at:)`).
    public let touchscreens: TouchscreenSet?
    /// Input hotplug (udev), when there is one.
    public let monitor: HotplugMonitor?
    /// DRM hotplug (udev), when the display is a card.
    public let displayMonitor: DisplayHotplugMonitor?
    /// Where frames go.
    public let display: any Display
    /// Seconds between frames while something moves and the display does not pace them (1/60).
    public var frameInterval: Double = 1.0 / 60
    /// Virtual time on a display whose frames complete by an event (a DRM card in memory): the
    /// frame in flight completes at the next tick, as a 60 Hz flip would, or at the time the
    /// display gives (`Display.frameDue`: a paced headless display).
    public var completesFramesOnTick = false
    /// Touchscreens logind paused, by device, opened again at its resume.
    private var pausedInputs: [DeviceNumber: [String]] = [:]
    /// Touch frames still to come from a script (the live demo), in time order.
    private var script: ArraySlice<TouchFrame> = []
    /// The logind session the kiosk controls, when it runs in one: the card and the
    /// touchscreens come from it, and it pauses and resumes them (`sessionEvents(at:)`).
    public var session: LogindSession?
    /// The kiosk's VT on the groups path (standard input is a VT): switched by the kiosk
    /// (SIGUSR2), restored at the end.
    public var terminal: VirtualTerminal?
    /// Whether another VT is in front: nothing is drawn and no touchscreen is read.
    public private(set) var isPaused = false
    /// Hears every runtime the host starts and every content a reload puts on it (a new list):
    /// the place to wire a trace or an app's views' handlers.
    public var onRuntime: ((PanelRuntime) -> Void)?
    /// The control socket `panel-refresh ctl` talks to, when there is one: the real-time
    /// driver watches its listener and connections, and its requests are answered here.
    public var control: ControlServer? {
        didSet { control?.onRequest = { [weak self] command, answer in self?.controlRequest(command, answer: answer) } }
    }
    /// The fleet's MQTT broker, when the configuration names one (`data.mqtt-url`): the
    /// real-time driver watches its socket; the list's messages refresh the session, and the
    /// panel's status goes there at every change.
    public var fleet: FleetLink? {
        didSet {
            fleet?.status = { [weak self] in self?.fleetStatus() ?? "{}" }
            fleet?.onList = { [weak self] in _ = self?.runtime.session?.refreshAutomatically() }
            fleet?.onTrigger = { [weak self] in
                Log.info("mqtt: a trigger's refresh")
                _ = self?.runtime.session?.refreshAutomatically()
            }
            fleet?.onCommand = { [weak self] command in
                Log.info("mqtt: \(command) asked")
                self?.controlRequest(command) { reply in
                    if case .error(let why) = reply { Log.warning("mqtt: \(command): \(why)") }
                }
            }
        }
    }
    /// Whether work a request leaves the loop for (a screenshot's PNG) is done at once
    /// (virtual time) instead of on a worker.
    public var answersInline = false
    /// When the host was made, by its clock and by the calendar (the uptime's origin).
    private let startTime: Double, startDate: Date
    /// When the metrics file is written next (`state.metrics-file`), seconds of the clock.
    private var nextMetricsWrite: Double?
    /// The metrics file's failures logged so far (each cause once).
    private var metricsFileFailures = Set<Int32>()

    /// What a signal asks of the driver.
    public enum SignalOutcome: Sendable, Equatable {
        /// Handled; the loop goes on.
        case handled
        /// The kiosk stopped: the driver ends the process with this code.
        case exit(Int32)
    }

    /// A host over a runtime built by `makeRuntime` from `configuration`. `backlightRoot`: where
    /// the backlight the configuration names is looked for (`/sys/class/backlight` on the
    /// panel; nil: none is ever touched, as in virtual time and the tests). `replaceContent`:
    /// how a reload that changes the list puts the new one on the runtime's stage.
    public init(configuration: Configuration, display: any Display, clock: ManualClock,
                touchscreens: TouchscreenSet? = nil, monitor: HotplugMonitor? = nil, displayMonitor: DisplayHotplugMonitor? = nil,
                backlightRoot: String? = nil, replaceContent: ((Configuration, PanelRuntime) throws -> Bool)? = nil,
                makeRuntime: @escaping (Configuration) throws -> PanelRuntime) throws {
        self.replaceContent = replaceContent
        self.configuration = configuration
        self.display = display
        self.clock = clock
        self.touchscreens = touchscreens
        self.monitor = monitor
        self.displayMonitor = displayMonitor
        self.backlightRoot = backlightRoot
        self.makeRuntime = makeRuntime
        startTime = clock.now
        startDate = clock.date
        runtime = try makeRuntime(configuration)
        runtime.onWake = { [weak self] in self?.onWake?() }
        chooseBacklight(for: configuration, on: runtime, current: nil)
    }

    /// Where the backlight a configuration names is looked for; nil: the host chooses none, and
    /// a runtime keeps the one it was made with.
    public let backlightRoot: String?
    /// The blanking last said in the journal, to say it again only when it changes.
    private var saidBlanking: (after: Double, backlight: String?)?

    /// Gives `target` the backlight `c` blanks with, chosen at the start and at each reload (the
    /// one in use, `current`, kept when it is the same entry, with the brightness it
    /// remembers); the blanking is said when it changed. Without `backlightRoot`, nothing.
    private func chooseBacklight(for c: Configuration, on target: PanelRuntime, current: Backlight?) {
        guard let backlightRoot else { return }
        let chosen = Backlight.chosen(for: c, current: current, root: backlightRoot)
        let now = (after: c.blankAfter, backlight: chosen?.path)
        if c.blankAfter > 0, saidBlanking.map({ $0 != now }) ?? true {
            Log.info("blanking after \(c.blankAfter) s idle; backlight: \(chosen?.path ?? "none")")
        }
        saidBlanking = now
        target.use(backlight: chosen)
    }

    /// Hears that the runtime's off-loop work changed what shows (`PanelRuntime.onWake`): the
    /// real-time driver runs an entry for it.
    public var onWake: (() -> Void)?

    /// The one place the kiosk's clock moves: to the time of the event being handled.
    private func arrive(at time: Double) { clock.advance(to: time) }

    // MARK: Entries, each with its event's time

    /// Loads the first page and draws the first frame; `loading` false: the list keeps what
    /// it shows (replays and the headless demo begin from a full list).
    public func start(at time: Double, loading: Bool = true) {
        arrive(at: time)
        wire(runtime)
        onRuntime?(runtime)
        runtime.start(loading: loading)
        scheduleMetrics(first: true)
    }

    /// Plays `frames` as if they came from a touchscreen, each at its time stamp (the live
    /// demo's script under the real-time driver).
    public func schedule(_ frames: [TouchFrame]) {
        script = ArraySlice((Array(script) + frames).sorted { $0.timestamp < $1.timestamp })
    }

    /// Whether scripted touch frames are still to come.
    public var hasScript: Bool { !script.isEmpty }

    /// A touchscreen's descriptor is readable: its frames go to the runtime. Returns false when
    /// the device went away (the driver stops watching it).
    @discardableResult
    public func touchscreenReadable(_ node: String, at time: Double) -> Bool {
        arrive(at: time)
        guard let touchscreens else { return false }
        runtime.handle(touchscreens.read(node: node, now: clock.now))
        guard touchscreens.input(for: node) != nil else {
            Log.warning("\(node) went away; waiting for it to come back")
            return false
        }
        return true
    }

    /// Input hotplug: devices come and go (the driver then watches the nodes in use).
    public func inputHotplug(at time: Double) {
        arrive(at: time)
        guard let monitor, let touchscreens else { return }
        for change in monitor.receive() {
            runtime.handle(touchscreens.handle(change, now: clock.now))
            if case .added(let info) = change, touchscreens.input(for: info.node) != nil {
                Log.info("using \(info.node) (\(info.name))")
            }
        }
    }

    /// The display's descriptor is readable: frames complete, the next is drawn. A desktop
    /// window's events are touches (to the runtime) and resizes (the UI is laid out again at
    /// the new size, as for a panel back in another mode).
    public func displayEvents(at time: Double) {
        arrive(at: time)
        do { try display.handleEvents() } catch { Log.error("display events: \(error)") }
        let touches = display.takeTouches(now: clock.now)
        if !touches.isEmpty { runtime.handle(touches) }
        if !isLaidOut(width: display.width, height: display.height) {
            Log.info("display: now \(display.width)x\(display.height) (\(display.summary))")
            layOut(width: display.width, height: display.height)
            return
        }
        runtime.frameCompleted()
    }

    /// Whether the runtime's UI is laid out at `width`×`height` pixels.
    private func isLaidOut(width: Int, height: Int) -> Bool {
        Double(width) == runtime.scene.screen.size.width && Double(height) == runtime.scene.screen.size.height
    }

    /// The UI laid out again at a new picture size (a window resized, a panel back in another
    /// mode), the touchscreens mapped to it: the runtime and what it shows stay.
    private func layOut(width: Int, height: Int) {
        touchscreens?.resize(width: Double(width), height: Double(height))
        runtime.resize(width: width, height: height)
        onResize?(runtime.scene.screen.size)
    }

    /// Hears the screen's new size, points, after a window was resized or the panel came back
    /// in another mode; the views are laid out again already, nothing was rebuilt.
    public var onResize: ((Size) -> Void)?

    /// A DRM uevent: the panel went away, came back, or came back in another mode (then the
    /// UI is laid out again at the new size).
    public func displayHotplug(at time: Double) {
        arrive(at: time)
        guard let displayMonitor, displayMonitor.receive() else { return }
        let generation = display.eventDescriptorGeneration
        let probe = display.reprobe()
        if display.eventDescriptorGeneration != generation {
            Log.info("display: the card came back as a new device (\(display.summary))")
        }
        if case .connected(let width, let height) = probe, !isLaidOut(width: width, height: height) {
            Log.info("display: the panel is back at \(width)x\(height) (\(display.summary))")
            layOut(width: width, height: height)
        } else {
            runtime.displayProbed(probe)
        }
    }

    /// A signal read from the signal pipe: SIGHUP reloads, SIGUSR1 reports frame timings,
    /// anything else stops the kiosk.
    public func signal(_ number: Int32, at time: Double) -> SignalOutcome {
        arrive(at: time)
        switch number {
        case SIGHUP:
            reload()
            return .handled
        case SIGUSR1:
            runtime.reportStatistics()
            return .handled
        case SIGUSR2:
            // The VT's switch signal (VT_PROCESS); without a VT a stray one, ignored.
            terminalSwitched()
            return .handled
        default:
            Log.info("stopping")
            runtime.stop()
            fleet?.stop()
            control?.close()
            terminal?.restore()
            // A data-source command still running, and what escaped its group, end with us.
            ChildSupervisor.endAll()
            return .exit(0)
        }
    }

    // MARK: The control socket and the metrics

    /// What the kiosk tells the outside now: the runtime's part, the touchscreens, the uptime
    /// and (unless `memory` is false) the process's memory.
    public func status(memory: Bool = true) -> KioskStatus {
        var status = runtime.status(display: display.summary, touchscreens: touchscreens?.nodes ?? [], started: startDate,
                                    uptime: clock.now - startTime)
        if memory { status.residentBytes = ProcessMemory.residentBytes() }
        status.brokerState = fleet?.stateName
        return status
    }

    /// Writes what the glass shows as a PNG at `path` (what `ctl screenshot` answers: the
    /// headless picture, a card's scanned-out buffer turned as the glass is), for an app's
    /// tests and support tickets; an error when nothing is on the glass yet.
    public func savePNG(to path: String) throws {
        guard let snapshot = display.glassSnapshot() else {
            throw RenderError.png(path: path, message: "nothing is on the glass yet: no frame was presented")
        }
        try AtomicFile.write(try PNG.encode(snapshot), to: path, durable: false)
    }

    /// What a runtime gets of the host: a tap that publishes goes through the broker's link.
    private func wire(_ runtime: PanelRuntime) {
        guard configuration.tapAction == .publish, let session = runtime.session else { return }
        session.tapAction = .publish { [weak self] item in self?.fleet?.publishTap(item) ?? "not published: no broker" }
    }

    /// The status the fleet's broker keeps for the panel: `ctl status`'s JSON without what
    /// changes every second (the uptime, the data's age, the memory, the frame counts), so it is published when
    /// the panel's state changes, not on every round.
    private func fleetStatus() -> String {
        var s = status(memory: false)
        (s.uptime, s.dataAge, s.frames, s.droppedFrames) = (0, nil, 0, 0)
        return s.json
    }

    /// The broker's socket is readable.
    public func fleetReadable(at time: Double) {
        arrive(at: time)
        fleet?.readable(at: clock.now)
        if let fleet { runtime.brokerTrouble = fleet.problem }
        runtime.pump()
    }

    /// The broker's socket is writable.
    public func fleetWritable(at time: Double) {
        arrive(at: time)
        fleet?.writable(at: clock.now)
    }

    /// The control socket's listener is readable: connections are accepted.
    public func controlAcceptable(at time: Double) {
        arrive(at: time)
        control?.acceptPending(now: clock.now)
    }

    /// A control connection is readable: its request is read, and answered when whole.
    public func controlReadable(_ fd: Int32, at time: Double) {
        arrive(at: time)
        control?.readable(fd, now: clock.now)
        runtime.pump()
    }

    /// A control connection is writable: more of its answer goes.
    public func controlWritable(_ fd: Int32, at time: Double) {
        arrive(at: time)
        control?.writable(fd, now: clock.now)
    }

    /// One request of `ctl`, answered on the loop (a screenshot's encoding off it).
    private func controlRequest(_ command: ControlCommand, answer: @escaping @MainActor (ControlReply) -> Void) {
        func text(_ line: String) -> ControlReply { .ok(Array((line + "\n").utf8)) }
        switch command {
        case .status:
            answer(text(status().json))
        case .metrics(let format):
            answer(.ok(Array(format.render(status()).utf8)))
        case .refresh:
            guard let session = runtime.session else { return answer(.error("the kiosk shows an app's views: there is no list to refresh")) }
            Log.info("control: refresh asked")
            answer(session.reload() ? text("refreshing") : text("a refresh is under way already"))
        case .blank:
            answer(runtime.blankNow() ? text("blank") : text(display.isBlank ? "blank already" : "cannot blank"))
        case .wake:
            answer(runtime.wakeUp() ? text("awake") : text("awake already"))
        case .screenshot:
            guard let snapshot = display.glassSnapshot() else { return answer(.error("nothing is on the glass yet")) }
            Background.run(inline: answersInline, {
                Result { () throws -> [UInt8] in try PNG.encode(snapshot) }
            }, then: { [weak self] result in
                switch result {
                case .success(let png): answer(.ok(png))
                case .failure(let error): answer(.error("cannot encode the screenshot: \(error)"))
                }
                // The answer is ready off the loop's own entries: the loop's sources follow it.
                self?.onWake?()
            })
        }
    }

    /// Sets when the metrics file is written next: at once after the start, then every
    /// `state.metrics-seconds`.
    private func scheduleMetrics(first: Bool = false) {
        let c = runtime.metricsSettings
        guard c.file != nil else { nextMetricsWrite = nil; return }
        nextMetricsWrite = clock.now + (first ? 0 : c.seconds)
    }

    /// Writes the metrics file when it is due (whole, to a temporary file renamed over it, so
    /// the textfile collector never reads half of it).
    private func writeMetricsIfDue() {
        guard let due = nextMetricsWrite, clock.now >= due, let path = runtime.metricsSettings.file else { return }
        scheduleMetrics()
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(Array(MetricsExposition.prometheus.render(status()).utf8), to: path, durable: false)
        } catch {
            if metricsFileFailures.insert(error.errno).inserted {
                Log.warning("metrics: cannot write \(path): \(error.step): \(String(cString: strerror(error.errno)))")
            }
        }
    }

    // MARK: Seat: VT switches and logind's pauses

    /// The VT's switch signal: away (stop drawing and reading, drop DRM master, let the switch
    /// go on) or back (take them again, draw a full frame).
    private func terminalSwitched() {
        guard let terminal else { return }
        let outcome = terminal.switchSignal(stopDrawing: { pause("another VT is in front") },
                                            startDrawing: { resume("a stray SIGUSR2: no switch was pending") })
        switch outcome {
        case .released: Log.info("VT \(terminal.number) switched away: not drawing, DRM master dropped, touchscreens closed")
        case .acquired: resume("VT \(terminal.number) is in front again")
        case .none: break
        }
    }

    /// logind's session has events: a paused or resumed card or touchscreen.
    public func sessionEvents(at time: Double) {
        arrive(at: time)
        guard let session else { return }
        for event in session.receive() {
            switch event {
            case let .pause(number, kind):
                if number.major == DeviceNumber.drmMajor {
                    pause("logind paused the card \(number) (\(kind))")
                } else if number.major == DeviceNumber.inputMajor, let touchscreens {
                    // (Its descriptor may have been revoked and read as gone already: then
                    // the set has forgotten it, and the resume finds it again.)
                    let nodes = touchscreens.nodes(of: number)
                    runtime.handle(touchscreens.suspend(nodes, now: clock.now))
                    Log.info("touchscreen \(number) paused by logind (\(kind))")
                    pausedInputs[number] = nodes
                }
                // "pause" waits for the answer before logind goes on; "force" and "gone" do not.
                if kind == "pause" { session.pauseComplete(number) }
            case let .resume(number, fd):
                if number.major == DeviceNumber.drmMajor {
                    // The same open card as the kiosk's own descriptor, master again.
                    Glibc.close(fd)
                    resume("logind resumed the card \(number)")
                } else if number.major == DeviceNumber.inputMajor {
                    // A new descriptor (the old one was revoked): opened through it.
                    session.keep(fd, for: number)
                    resumeTouchscreen(number)
                } else {
                    Glibc.close(fd)
                }
            }
        }
    }

    /// A touchscreen logind resumed, opened again through the descriptor it gave. One whose
    /// revoked descriptor was read as gone before the pause arrived is looked up by udev.
    private func resumeTouchscreen(_ number: DeviceNumber) {
        guard let touchscreens else { return }
        let nodes = pausedInputs.removeValue(forKey: number) ?? []
        touchscreens.resume(nodes)
        if nodes.isEmpty {
            let found = ((try? TouchscreenDiscovery.list()) ?? []).filter { DeviceNumber(path: $0.node) == number }
            for info in found { runtime.handle(touchscreens.handle(.added(info), now: clock.now)) }
        }
        let open = touchscreens.nodes(of: number)
        Log.info("touchscreen \(number) resumed by logind: " + (open.isEmpty ? "not opened again" : open.joined(separator: ", ")))
    }

    /// Stops drawing (DRM master given up) and reading the touchscreens (their contacts end
    /// cancelled); the UI goes on in memory.
    private func pause(_ why: String) {
        guard !isPaused else { return }
        isPaused = true
        display.pause()
        // Under logind each touchscreen is paused by its own event.
        if session == nil, let touchscreens { runtime.handle(touchscreens.suspend(now: clock.now)) }
        runtime.displayPaused(why)
    }

    /// Draws again: DRM master back, the mode set, a full frame; the touchscreens opened again.
    private func resume(_ why: String) {
        guard isPaused else { return }
        isPaused = false
        display.resume()
        if session == nil { touchscreens?.resume() }
        runtime.displayResumed(why)
    }

    /// The watchdog timer (it runs on the loop: a hung loop stops pinging).
    public func watchdog() { runtime.watchdog() }

    /// The service manager's watchdog period, seconds, when it asks for pings.
    public var watchdogInterval: Double? { runtime.notifier.watchdogInterval }

    // MARK: TimeStepped

    /// The kiosk's time, seconds.
    public var now: Double { clock.now }

    /// When the runtime or the script needs the loop next; nil: sleep until an event.
    public var nextWakeUp: Double? {
        // A frame that reaches the glass at its time (a paced headless display) holds the
        // next one back: what moves waits for it, as it waits for a flip on a card.
        let inFlight = completesFramesOnTick && display.isFrameInFlight
        let due = inFlight ? display.frameDue : nil
        let completion = inFlight ? max(clock.now, due ?? clock.now) : nil
        return [runtime.nextWakeUp.map { max($0, due ?? $0) }, script.first?.timestamp, completion,
                control?.nextDeadline, nextMetricsWrite, fleet?.nextDeadline]
            .compactMap { $0 }.min()
    }

    /// The timer: scripted touches that are due, then animations, blanking and frames.
    public func tick(at time: Double) {
        arrive(at: time)
        if completesFramesOnTick && display.isFrameInFlight {
            // The display says whether the frame is done (a paced one waits for its time).
            do { try display.handleEvents() } catch { Log.error("display events: \(error)") }
            if !display.isFrameInFlight { runtime.frameCompleted() }
        }
        var due: [TouchFrame] = []
        while let next = script.first, next.timestamp <= clock.now {
            due.append(next)
            script = script.dropFirst()
        }
        if !due.isEmpty { runtime.handle(due) }
        control?.expire(now: clock.now)
        fleet?.tick(at: clock.now)
        if let fleet { runtime.brokerTrouble = fleet.problem }
        if let fleet, let session = runtime.session, fleet.list != nil {
            // The broker's silence said over the list once it outlasts mqtt.stale-after, by the
            // calendar time it was last reached.
            session.offlineSince = fleet.offlineSince(now: clock.now).map { clock.date.addingTimeInterval($0 - clock.now) }
        }
        writeMetricsIfDue()
        runtime.pump()
    }

    /// Touch frames from elsewhere than the touchscreens (a recording played in virtual time).
    public func touch(_ frames: [TouchFrame], at time: Double) {
        arrive(at: time)
        runtime.handle(frames)
    }

    // MARK: Reload

    @discardableResult
    private func replaceRuntime(with fresh: Configuration) -> Bool {
        do {
            let next = try makeRuntime(fresh)
            chooseBacklight(for: fresh, on: next, current: runtime.backlight)
            runtime.retire()
            runtime = next
            runtime.onWake = { [weak self] in self?.onWake?() }
            configuration = fresh
            wire(runtime)
            onRuntime?(runtime)
            runtime.start()
            scheduleMetrics(first: true)
            return true
        } catch {
            refuseReload(error)
            return false
        }
    }

    /// The stage's settings of `fresh` (blanking, the backlight, the quiet time, the metrics
    /// file) on the runtime in use.
    private func applyInPlace(_ fresh: Configuration) {
        runtime.reconfigure(fresh)
        chooseBacklight(for: fresh, on: runtime, current: runtime.backlight)
        configuration = fresh
        scheduleMetrics(first: true)
    }

    private func refuseReload(_ error: any Error) {
        Log.event(.reloadRefused, priority: 3, "reload: \(error); keeping the configuration in use",
                  fields: ["PANEL_REFRESH_ERROR": "\(error)"])
        runtime.notifier.notify("STATUS=reload refused: \(error); keeping the configuration in use")
    }

    /// SIGHUP: a new session (data source, rows, appearance, locale) on the same display and
    /// touchscreens. A bad file keeps the configuration in use.
    private func reload() {
        guard let path = configurationPath else {
            Log.warning("reload: no configuration file to read")
            return
        }
        let fresh: Configuration
        do {
            fresh = try Configuration.load(path: path)
        } catch {
            refuseReload(error)
            return
        }
        if fresh.devices != configuration.devices || fresh.rotation != configuration.rotation
            || fresh.displayRotation != configuration.displayRotation
            || fresh.backend != configuration.backend || fresh.card != configuration.card {
            Log.warning("reload: input and display settings apply at the next start")
        }
        if fresh.brokerSettings != configuration.brokerSettings {
            // The link is made once, at the start: its connection, will and subscriptions.
            Log.warning("reload: the broker's settings (data.mqtt-*, [mqtt], refresh.trigger-*) apply at the next start")
        }
        let changed = fresh.changedKeys(from: configuration)
        var said = "reloaded \(path)"
        if changed.isSubset(of: PanelRuntime.stageKeys) {
            // Nothing the UI is built from changed: the runtime takes the new settings in place.
            applyInPlace(fresh)
            said += changed.isEmpty ? ": nothing changed" : ": " + changed.sorted().joined(separator: ", ") + " applied; the list and the views kept"
        } else if let replaceContent {
            let built: Bool
            do {
                built = try replaceContent(fresh, runtime)
            } catch {
                refuseReload(error)
                return
            }
            applyInPlace(fresh)
            if built {
                wire(runtime)
                onRuntime?(runtime)
                runtime.start()
            }
            said += built ? ": a new list on the same stage (the display, blanking and the statistics kept)"
                : ": the app's views kept; the rest applied around them"
        } else {
            guard replaceRuntime(with: fresh) else { return }
        }
        Log.info(said)
        runtime.notifier.notify("STATUS=reloaded the configuration")
    }
}

extension TouchscreenSet {
    /// The nodes in use that are the device `number` (logind names devices by number).
    fileprivate func nodes(of number: DeviceNumber) -> [String] { nodes.filter { DeviceNumber(path: $0) == number } }
}

extension Configuration {
    /// What the broker's link is made from, to tell a reload that changed it.
    fileprivate var brokerSettings: [String] {
        [mqttBroker?.description, mqttTopic, mqttUser, mqttPasswordFile, mqttClientID, mqttCAFile, mqttStatusTopic, mqttTapTopic,
         mqttCommandTopic, refreshTriggerTopic, "\(mqttCommands)", "\(refreshTriggerJitter)", "\(mqttStaleAfter)", "\(source == .mqtt)"]
            .map { $0 ?? "-" }
    }
}
