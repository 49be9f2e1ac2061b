import FoundationEssentials
import Glibc
import PanelDisplay
import PanelInput
import PanelRefresh
import PanelRender

/// The host without a loop: the stage, its clock, the touchscreens, hotplug, the seat, signals,
/// what the loop watches for the program (``LoopSource``) and the work that leaves it
/// (``WorkExecutor``). Every entry takes the time of its event; ``RealTimeDriver`` calls them
/// from Dispatch sources with CLOCK_MONOTONIC, `VirtualTimeDriver` with virtual time. The
/// clock moves in one place (`arrive(at:)`); everything after it reads the clock. Entries never
/// nest: work that left the loop comes back at an entry of its own (``tick(at:)``).
///
/// An app makes one with ``panel(configuration:path:display:machine:)`` (or
/// ``virtual(configuration:display:fonts:notifier:backlights:machine:)`` in its tests) and shows its views with
/// ``show(views:)``, which hands its own object back typed. The kiosk program is one more user
/// of it, with the richest content.
///
/// The seams stay open for another backend: a display is any `Display`, touchscreens any
/// `EventSource` opened by the `TouchscreenSet`.
@MainActor
public final class KioskHost: TimeStepped {
    /// What lives as long as the process: the scene on the display, blanking, the statistics,
    /// the notifications, and the content it shows.
    public let stage: Stage
    /// The one clock of the host; moved only by `arrive(at:)`.
    public let clock: ManualClock
    /// The configuration in use (a reload compares the new one with it).
    public internal(set) var configuration: Configuration
    /// The file the configuration came from: SIGHUP reads it again when no ``onReload`` is set
    /// (nil: nothing to reload).
    public var configurationPath: String?
    /// The touchscreens (nil: touch comes only through `touch(_:at:)`).
    public let touchscreens: TouchscreenSet?
    /// Input hotplug (udev), when there is one.
    public let monitor: HotplugMonitor?
    /// DRM hotplug (udev), when the display is a card.
    public let displayMonitor: DisplayHotplugMonitor?
    /// Where frames go.
    public var display: any Display { stage.display }
    /// Where work that leaves the loop runs, and how it comes back.
    public var executor: any WorkExecutor { stage.executor }
    /// The executor of a host made by ``virtual(configuration:display:fonts:notifier:backlights:machine:)``:
    /// a test sets its ``VirtualExecutor/latency`` to choose when answers come. Nil on a panel.
    public internal(set) var virtualExecutor: VirtualExecutor?
    /// Seconds between frames while something moves and the display does not pace them (1/60).
    public var frameInterval: Double = 1.0 / 60
    /// Virtual time on a display whose frames complete by an event (a DRM card in memory): the
    /// frame in flight completes at the next tick, as a 60 Hz flip would, or at the time the
    /// display gives (`Display.frameDue`: a paced headless display).
    public var completesFramesOnTick = false
    /// Touchscreens logind paused, by device, opened again at its resume.
    var pausedInputs: [DeviceNumber: [String]] = [:]
    /// Touch frames still to come from a script (the live demo), in time order.
    private var script: ArraySlice<TouchFrame> = []
    /// The logind session the host controls, when it runs in one: the card and the
    /// touchscreens come from it, and it pauses and resumes them (`sessionEvents(at:)`).
    public var session: LogindSession?
    /// The host's VT on the groups path (standard input is a VT): switched by the host
    /// (SIGUSR2), restored at the end.
    public var terminal: VirtualTerminal?
    /// Whether another VT is in front: nothing is drawn and no touchscreen is read.
    public internal(set) var isPaused = false
    /// What the loop watches for the program, beside the touchscreens and the display.
    public private(set) var sources: [any LoopSource] = []
    /// Hears the screen's new size, points, after a window was resized or the panel came back
    /// in another mode; the views are laid out again already, nothing was rebuilt.
    public var onResize: ((Size) -> Void)?
    /// SIGHUP: the app's reload (the kiosk program reads its file again). Nil: the host reads
    /// ``configurationPath`` again (``reloadConfiguration()``), or says there is nothing to
    /// reload.
    public var onReload: (() -> Void)?
    /// Hears the start, before the content loads (the kiosk program wires its list's trace).
    public var onStart: (() -> Void)?
    /// SIGTERM and SIGINT, before the stage stops: what the app must end with it (the kiosk
    /// program says goodbye to its broker, closes its socket, ends its children).
    public var onStop: (() -> Void)?
    /// When the host was made, by its clock and by the calendar (the uptime's origin).
    private let startTime: Double
    /// When the host started, by the calendar as it stands now (a clock set after the start
    /// moves it with the rest).
    private var startDate: Date { clock.epoch.addingTimeInterval(startTime) }
    /// The calendar's offset from the clock's time, read at every entry (real time:
    /// ``MonotonicClock/calendarOffset``); nil: the clock's epoch stays as it was made (virtual
    /// time, where a test sets it).
    public var calendar: (@Sendable () -> Double)?
    /// Where the backlight the configuration names is looked for; nil: the host chooses none.
    public let backlightRoot: String?
    /// The blanking last said in the journal, to say it again only when it changes.
    var saidBlanking: (after: Double, backlight: String?)?
    /// Whether an entry is running: entries never nest (a debug build checks it).
    private var inEntry = false

    /// A host over a new stage on `display` for `configuration`, showing nothing until
    /// ``show(_:)`` or ``show(views:)``.
    /// - Parameters:
    ///   - configuration: the host's keys.
    ///   - display: where the frames go.
    ///   - clock: the host's one clock, moved only by its entries.
    ///   - executor: where work that leaves the loop runs (``RealTimeExecutor`` or ``VirtualExecutor``).
    ///   - fonts: the faces text is drawn with.
    ///   - notifier: where READY=1, STATUS= and STOPPING=1 go.
    ///   - machine: the machine's language, time zone and window system.
    ///   - touchscreens: the touchscreens read (nil: none; touch comes through ``touch(_:at:)``).
    ///   - monitor: udev's input hotplug (nil: none).
    ///   - displayMonitor: udev's DRM hotplug (nil: none).
    ///   - backlightRoot: where the backlight the configuration names is looked for
    ///     (`/sys/class/backlight` on the panel; nil: none is ever touched, as in virtual time).
    ///   - stopwatch: the machine's clock for frame timings (nil: the host's, virtual time).
    ///   - announcesContent: whether "showing …" goes to the journal once.
    public init(configuration: Configuration, display: any Display, clock: ManualClock, executor: any WorkExecutor,
                fonts: FontLibrary, notifier: any ServiceNotifier, machine: MachineEnvironment = .neutral,
                touchscreens: TouchscreenSet? = nil, monitor: HotplugMonitor? = nil, displayMonitor: DisplayHotplugMonitor? = nil,
                backlightRoot: String? = nil, stopwatch: (@Sendable () -> Double)? = nil, announcesContent: Bool = true) {
        self.configuration = configuration
        self.clock = clock
        self.touchscreens = touchscreens
        self.monitor = monitor
        self.displayMonitor = displayMonitor
        self.backlightRoot = backlightRoot
        startTime = clock.now
        stage = Stage(configuration: configuration, display: display, fonts: fonts, notifier: notifier, clock: clock,
                      executor: executor, stopwatch: stopwatch, machine: machine, announcesContent: announcesContent)
        chooseBacklight(for: configuration, current: nil)
    }

    // MARK: Content

    /// Shows `content` on the stage instead of what shows now (``Stage/show(_:)``) and returns it.
    @discardableResult
    public func show<Content: StageContent>(_ content: Content) throws -> Content {
        try stage.show(content)
        return content
    }

    /// Shows an app's own views: `build` adds them to the scene's root view (and may set the
    /// dispatcher's scroll view); what it returns (the app's controller, its data source and
    /// delegate, which the views hold weakly) is kept with them and handed back, typed.
    @discardableResult
    public func show<App>(views build: (Scene) throws -> App) throws -> App {
        stage.clearContent()
        let app = try build(stage.scene)
        try stage.put(AppViews(app: app, views: stage.scene.screen.rootView.subviews))
        return app
    }

    /// Watches `source` from now on (the real-time driver follows its descriptors and
    /// deadline; its entries are ``readable(_:_:at:)``, ``writable(_:_:at:)`` and ``tick(at:)``).
    public func watch(_ source: any LoopSource) {
        guard !sources.contains(where: { $0 === source }) else { return }
        sources.append(source)
    }

    /// Stops watching `source` (its descriptors' watches are cancelled, then released).
    public func unwatch(_ source: any LoopSource) { sources.removeAll { $0 === source } }

    // MARK: Entries, each with its event's time

    /// The one place the host's clock moves: to the time of the event being handled; and the
    /// start of an entry, which never begins inside another.
    func arrive(at time: Double) {
        assert(!inEntry, "a host entry began inside another")
        clock.advance(to: time)
        followCalendar()
    }

    /// The calendar as the system clock says now: the clock's epoch follows it, and a step of
    /// a second or more (the clock was set) is told to the stage, whose content moves the
    /// times it took on the old calendar. The calendar was read once at the start: a panel
    /// started with its clock at 1970 kept reporting 1970 after NTP set it.
    func followCalendar() {
        guard let calendar else { return }
        let epoch = calendar()
        let step = epoch - clock.epoch.timeIntervalSince1970
        guard step != 0 else { return }
        clock.epoch = Date(timeIntervalSince1970: epoch)
        if abs(step) >= 1 {
            Log.info("the system clock was set: the calendar moved \(TextFormat.number(step)) s"
                     + (stage.calendarFloor.map { clock.date < $0 } == true ? "; it is still before the program was made (not set)" : ""))
            stage.calendarStepped(by: step)
        }
    }

    /// Runs `body` as an entry at `time`: the clock arrives, `body` runs, the stage draws.
    func entry(at time: Double, _ body: () -> Void) {
        arrive(at: time)
        inEntry = true
        body()
        inEntry = false
        stage.pump()
    }

    /// Loads what the content loads and draws the first frame; `loading` false: the content
    /// keeps what it shows (replays and the headless demo begin from a full list).
    public func start(at time: Double, loading: Bool = true) {
        entry(at: time) {
            onStart?()
            if loading { stage.content?.start() }
        }
    }

    /// Plays `frames` as if they came from a touchscreen, each at its time stamp (the live
    /// demo's script under the real-time driver).
    public func schedule(_ frames: [TouchFrame]) {
        script = ArraySlice((Array(script) + frames).sorted { $0.timestamp < $1.timestamp })
    }

    /// Whether scripted touch frames are still to come.
    public var hasScript: Bool { !script.isEmpty }

    /// A touchscreen's descriptor is readable: its frames go to the stage. Returns false when
    /// the device went away (the driver stops watching it).
    @discardableResult
    public func touchscreenReadable(_ node: String, at time: Double) -> Bool {
        var present = false
        entry(at: time) {
            guard let touchscreens else { return }
            stage.handle(touchscreens.read(node: node, now: clock.now))
            present = touchscreens.input(for: node) != nil
            if !present { Log.warning("\(node) went away; waiting for it to come back") }
        }
        return present
    }

    /// Input hotplug: devices come and go (the driver then watches the nodes in use).
    public func inputHotplug(at time: Double) {
        entry(at: time) {
            guard let monitor, let touchscreens else { return }
            for change in monitor.receive() {
                stage.handle(touchscreens.handle(change, now: clock.now))
                if case .added(let info) = change, touchscreens.input(for: info.node) != nil {
                    Log.info("using \(info.node) (\(info.name))")
                }
            }
        }
    }

    /// The display's descriptor is readable: frames complete, the next is drawn. A desktop
    /// window's events are touches (to the stage) and resizes (the UI is laid out again at
    /// the new size, as for a panel back in another mode).
    public func displayEvents(at time: Double) {
        entry(at: time) {
            do { try display.handleEvents() } catch { Log.error("display: events: \(error)") }
            let touches = display.takeTouches(now: clock.now)
            if !touches.isEmpty { stage.handle(touches) }
            if !isLaidOut(width: display.width, height: display.height) {
                Log.info("display: now \(display.width)x\(display.height) (\(display.summary))")
                layOut(width: display.width, height: display.height)
            }
        }
    }

    /// Asks the display for `width`×`height` pixels (a headless one takes them: an app's test
    /// of another size, an offline frame) and lays the UI out again at them, as for a resized
    /// window: ``onResize`` hears it. A panel or a window keeps its size.
    public func resize(width: Int, height: Int, at time: Double) {
        entry(at: time) {
            guard display.resize(width: width, height: height), !isLaidOut(width: display.width, height: display.height) else { return }
            layOut(width: display.width, height: display.height)
        }
    }

    /// Whether the stage's UI is laid out at `width`×`height` pixels.
    private func isLaidOut(width: Int, height: Int) -> Bool {
        Double(width) == stage.scene.screen.size.width && Double(height) == stage.scene.screen.size.height
    }

    /// The UI laid out again at a new picture size (a window resized, a panel back in another
    /// mode), the touchscreens mapped to it: the stage and what it shows stay.
    private func layOut(width: Int, height: Int) {
        touchscreens?.resize(width: Double(width), height: Double(height))
        stage.resize(width: width, height: height)
        onResize?(stage.scene.screen.size)
    }

    /// A DRM uevent: the panel went away, came back, or came back in another mode (then the
    /// UI is laid out again at the new size).
    public func displayHotplug(at time: Double) {
        entry(at: time) {
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
                stage.displayProbed(probe)
            }
        }
    }

    /// A watched source's descriptor is readable.
    public func readable(_ source: any LoopSource, _ descriptor: Int32, at time: Double) {
        entry(at: time) { source.readable(descriptor, at: clock.now) }
    }

    /// A watched source's descriptor is writable.
    public func writable(_ source: any LoopSource, _ descriptor: Int32, at time: Double) {
        entry(at: time) { source.writable(descriptor, at: clock.now) }
    }

    /// Touch frames from elsewhere than the touchscreens (a recording played in virtual time).
    public func touch(_ frames: [TouchFrame], at time: Double) {
        entry(at: time) { stage.handle(frames) }
    }

    /// The watchdog timer (it runs on the loop: a hung loop stops pinging).
    public func watchdog() { stage.watchdog() }

    /// The service manager's watchdog period, seconds, when it asks for pings.
    public var watchdogInterval: Double? { stage.notifier.watchdogInterval }

    // MARK: Status

    /// What the host tells the outside now: the stage's part with the content's, the
    /// touchscreens, the uptime and (unless `memory` is false) the process's memory.
    public func status(memory: Bool = true) -> HostStatus {
        var status = stage.status(display: display.summary, touchscreens: touchscreens?.nodes ?? [], started: startDate,
                                  uptime: clock.now - startTime)
        if memory { status.residentBytes = ProcessMemory.residentBytes() }
        return status
    }

    /// Writes what the glass shows as a PNG at `path` (the headless picture, a card's
    /// scanned-out buffer turned as the glass is), for an app's tests and support tickets; an
    /// error when nothing is on the glass yet.
    public func savePNG(to path: String) throws {
        guard let snapshot = display.glassSnapshot() else {
            throw RenderError.png(path: path, message: "nothing is on the glass yet: no frame was presented")
        }
        try AtomicFile.write(try PNG.encode(snapshot), to: path, durable: false)
    }

    // MARK: TimeStepped

    /// The host's time, seconds.
    public var now: Double { clock.now }

    /// When the stage, the script, a source or work off the loop needs the loop next; nil:
    /// sleep until an event.
    public var nextWakeUp: Double? {
        // A frame that reaches the glass at its time (a paced headless display) holds the
        // next one back: what moves waits for it, as it waits for a flip on a card.
        let inFlight = completesFramesOnTick && display.isFrameInFlight
        let due = inFlight ? display.frameDue : nil
        let completion = inFlight ? max(clock.now, due ?? clock.now) : nil
        var wakes = [stage.nextWakeUp.map { max($0, due ?? $0) }, script.first?.timestamp, completion, executor.nextArrival]
        for source in sources { wakes.append(source.nextDeadline) }
        return wakes.compactMap { $0 }.min()
    }

    /// When work that left the loop comes back (an entry at exactly that time).
    public var nextArrival: Double? { executor.nextArrival }

    /// The timer: work that came back, scripted touches that are due, what the sources have
    /// due, then animations, blanking and frames.
    public func tick(at time: Double) {
        entry(at: time) {
            if completesFramesOnTick && display.isFrameInFlight {
                // The display says whether the frame is done (a paced one waits for its time).
                do { try display.handleEvents() } catch { Log.error("display: events: \(error)") }
                if !display.isFrameInFlight { stage.frameCompleted() }
            }
            executor.deliver(upTo: clock.now)
            var due: [TouchFrame] = []
            while let next = script.first, next.timestamp <= clock.now {
                due.append(next)
                script = script.dropFirst()
            }
            if !due.isEmpty { stage.handle(due) }
            for source in sources { source.tick(at: clock.now) }
        }
    }
}
