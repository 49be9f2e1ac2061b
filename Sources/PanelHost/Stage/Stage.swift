import FoundationEssentials
import Glibc
import PanelDisplay
import PanelInput
import PanelRefresh
import PanelRender

/// What lives as long as the process: a scene on a display, frames drawn by one presenter and
/// paced by the display's completions, the panel blanked when nobody uses it, frame timings
/// kept, the service manager kept informed (READY, STATUS, WATCHDOG). What it shows is its
/// ``content``: an app's views (``AppViews``) or the kiosk program's configured list, put on
/// and taken off by ``show(_:)``; a resize or a reload keeps the stage. Time, input and signals
/// come from a ``KioskHost`` stepped by ``RealTimeDriver`` or `VirtualTimeDriver`; nothing
/// here reads a clock.
@MainActor
public final class Stage {
    /// The UI: view tree, animator, touch dispatch, on the host's clock.
    public let scene: Scene
    /// Draws the scene's frames on `display`.
    public let presenter: FramePresenter
    /// Where READY=1, STATUS= and WATCHDOG=1 go (systemd's socket on a panel).
    public let notifier: any ServiceNotifier
    /// The display the frames go to.
    public let display: any Display
    /// Where work that leaves the loop runs (the host's).
    public let executor: any WorkExecutor
    /// The faces text is drawn with.
    public let fonts: FontLibrary
    /// The language, time zone and ids of the machine.
    public let machine: MachineEnvironment
    /// The host's clock.
    public let clock: ManualClock
    /// The machine's CLOCK_MONOTONIC for frame and command timings; nil in virtual time.
    public let stopwatch: (@Sendable () -> Double)?
    /// What the stage shows: nil before the first ``show(_:)``.
    public private(set) var content: (any StageContent)?
    /// Where headers keep their last-updated time: `state.directory`/last-updated.json.
    public private(set) var lastUpdatedStore: FileLastUpdatedStore
    /// The earliest date a set system clock shows (real time: ``MonotonicClock/programDate()``);
    /// a calendar before it is marked not set and its times are not saved. Nil: every date is
    /// taken as it is (virtual time, where the test sets the calendar).
    public var calendarFloor: Date? { didSet { lastUpdatedStore.earliest = calendarFloor } }
    /// The store failures logged so far, by cause: each is logged once.
    private(set) var reportedStoreCauses = Set<String>()
    /// The texts' language: `appearance.locale`, else the machine's.
    public private(set) var language: String
    /// Whether the first frame is on the glass (READY=1 was sent).
    public var isReady: Bool { scene.screen.framesPresented > 0 }
    /// Whether `stop()` ended it: no more frames.
    public private(set) var isStopped = false
    /// `display.blank-after`, seconds; 0: never.
    public private(set) var blankAfter: Double
    /// When the panel was last touched or what it shows changed, seconds of the clock.
    public private(set) var lastActivity: Double
    /// The touch that woke the panel: swallowed until its fingers lift.
    public private(set) var isSwallowingWakeTouch = false
    /// Turned off with the panel, when there is one.
    public private(set) var backlight: Backlight?
    private var reportedBacklightError = false
    /// The light over the day: its settings, and what the stage last made of them.
    var light = LightControl()
    /// The burn-in shift: its settings, the step it is at and when it moved.
    var shift = ShiftControl()
    /// Why the last reload was refused and when, until one is taken (``KioskHost/refuseReload(_:)``).
    public internal(set) var reloadRefused: (reason: String, at: Date)?
    /// Frame timings since the last report.
    public private(set) var statistics = FrameStatistics()
    private var statisticsSince: Double
    private var touchedSinceReport = false
    /// Seconds between timing reports while the panel is touched.
    public static let statisticsInterval = 60.0
    /// Where the stage stands, as STATUS, `ctl status` and the metrics say.
    public private(set) var state = HostStatus.State.starting
    /// When a finger last touched the stage (the frames the dispatcher got), seconds of the clock.
    public private(set) var lastTouch: Double?
    /// Frames presented and vertical blanks missed since the start.
    public private(set) var frames = 0, droppedFrames = 0
    /// Touch-to-glass times since the start, for the metrics' histogram.
    public private(set) var touchToGlass = LatencyHistogram()
    /// Sample-to-glass times of the frames that sampled a pan, since the start: from the time
    /// the frame took the finger's place at to the vblank that showed it.
    public private(set) var sampleToGlass = LatencyHistogram()
    /// When the stage was made, seconds of the clock.
    public let startTime: Double
    /// Whether "showing …" goes to the journal once (off where nobody reads a journal).
    private let announcesContent: Bool
    /// Whether the journal already has "showing …" for the content shown.
    private var announcedContent: Bool

    /// A stage on `display` for `configuration` (its display, input and limits keys), showing
    /// nothing until ``show(_:)``.
    /// - Parameters:
    ///   - configuration: the host's keys in use.
    ///   - display: where the frames go.
    ///   - fonts: the faces text is drawn with.
    ///   - notifier: where READY=1 and STATUS= go.
    ///   - clock: the host's clock.
    ///   - executor: where work that leaves the loop runs.
    ///   - stopwatch: the machine's CLOCK_MONOTONIC for frame timings (``MonotonicClock/stopwatch``
    ///     in real time); by default the clock's own time (virtual time: timings of 0).
    ///   - backlight: turned off with the panel, when there is one.
    ///   - machine: the language and time zone of the machine (read in one place:
    ///     ``MachineEnvironment/read()``); by default English and UTC.
    ///   - announcesContent: whether "showing …" goes to the journal once.
    public init(configuration: Configuration, display: any Display, fonts: FontLibrary, notifier: any ServiceNotifier,
                clock: ManualClock, executor: any WorkExecutor, stopwatch: (@Sendable () -> Double)? = nil,
                backlight: Backlight? = nil, machine: MachineEnvironment = .neutral, announcesContent: Bool = true) {
        (self.display, self.notifier, self.clock, self.executor, self.backlight) = (display, notifier, clock, executor, backlight)
        (self.fonts, self.machine, self.stopwatch) = (fonts, machine, stopwatch)
        (self.announcesContent, announcedContent) = (announcesContent, !announcesContent)
        blankAfter = configuration.blankAfter
        startTime = clock.now
        lastActivity = clock.now
        statisticsSince = clock.now
        language = configuration.locale ?? machine.language
        lastUpdatedStore = FileLastUpdatedStore(path: configuration.stateDirectory + "/last-updated.json")
        scene = Scene(size: Size(width: Double(display.width), height: Double(display.height)), clock: clock)
        scene.screen.textMeasurer = fonts
        // The rule before the screen's own sampling (kept for comparison) counts a period from
        // a frame's pass to the glass; the screen's own sampling needs only the frame's start.
        scene.dispatcher.presentationDelay = display.frameInterval ?? 1.0 / 60
        scene.dispatcher.pan.configuration.resamples = configuration.resample
        // Boxes on the glass are said in the journal, once per script, with what draws them.
        fonts.onUncovered = { script, scalar, advice, text in
            Log.warning("text: no installed face draws \(script) (\(WritingSystem.codePoint(scalar)) in \"\(text)\"): it shows as boxes; install \(advice)")
        }
        let renderer = Renderer(fonts: fonts)
        renderer.onError = { error in Log.event(.imageFailed, priority: 3, "image: \(error)") }
        let frameClock: () -> Double
        if let stopwatch { frameClock = stopwatch } else { frameClock = { [clock] in clock.now } }
        presenter = FramePresenter(screen: scene.screen, renderer: renderer, display: display, now: frameClock)
        presenter.onError = { [weak self] error in
            Log.event(.displayError, priority: 3, "display: \(error); drawing stops and is retried",
                      fields: ["PANEL_REFRESH_ERROR": "\(error)"])
            self?.tell(.cannotDraw(reason: "\(error)"))
        }
        presenter.onRecovery = { [weak self] in
            Log.event(.displayRecovered, priority: 6, "display: drawing again")
            self?.notifyShowing()
        }
        presenter.onFramePresented = { [weak self] timing in self?.framePresented(timing) }
        presenter.onFrameDrawn = { [weak self] in self?.content?.frameDrawn() }
        presenter.sampleTime = { [weak scene] in scene?.dispatcher.takeFrameSample() }
        // On a card, frames start late in the period (the learned window before their vblank).
        if display.pacesFrames {
            presenter.scheduler = FrameScheduler(period: display.frameInterval ?? 1.0 / 60, mode: configuration.frameWindow)
        }
        applyContentSettings(configuration)
        configureLight(configuration.light)
        configureShift(configuration.shift)
    }

    // MARK: Content

    /// Shows `next` instead of what shows now: the content in use is taken off first (its
    /// views, the dispatcher's hold on them, its animations and timers, a touch in progress),
    /// then `next` is attached and drawn whole; frames, statistics, blanking, the backlight and
    /// READY stay. Throws what attaching throws: the stage then shows nothing.
    public func show(_ next: any StageContent) throws {
        clearContent()
        try put(next)
    }

    /// Attaches `next` to an empty stage (``clearContent()`` came first; an app's views are
    /// built between the two).
    func put(_ next: any StageContent) throws {
        try next.attach(to: self)
        content = next
        announcedContent = !announcesContent
        presenter.invalidate()
    }

    /// Takes the content off the stage, leaving it empty (``show(_:)`` does it first).
    public func clearContent() {
        scene.dispatcher.cancelAll(at: clock.now)
        (scene.dispatcher.scrollView, scene.dispatcher.onPan, scene.dispatcher.onPress, scene.dispatcher.onTap) = (nil, nil, nil, nil)
        content?.detach(from: self)
        content = nil
        for view in scene.screen.rootView.subviews { view.removeFromSuperview() }
        scene.animator.removeAll()
        presenter.renderer.imageSupplier = nil
        scene.screen.layoutDirection = .leftToRight
        presenter.invalidate()
    }

    /// What the stage takes from a configuration for whatever it shows: the renderer's
    /// picture limits, the language text is shaped in and where the last-updated time is kept.
    private func applyContentSettings(_ configuration: Configuration) {
        presenter.renderer.maxImagePixels = configuration.maxImagePixels
        presenter.renderer.imageCacheBytes = configuration.imageCacheBytes
        language = configuration.locale ?? machine.language
        // Text is shaped in the panel's language (its local forms of Han, Cyrillic and others);
        // an item's own `lang` overrides it per row.
        fonts.language = FontLibrary.languageTag(locale: language)
        let path = configuration.stateDirectory + "/last-updated.json"
        if path != lastUpdatedStore.path {
            lastUpdatedStore = FileLastUpdatedStore(path: path)
            lastUpdatedStore.earliest = calendarFloor
        }
    }

    /// Takes a reload's host keys in place: blanking (turned off, a blank panel wakes),
    /// resampling, the frame window, the renderer's limits, the language and the state
    /// directory; the backlight comes through ``use(backlight:)`` (the host looks it up). Returns whether the content
    /// took them in place too (``StageContent/reconfigure(_:)``); false: its owner builds it anew.
    @discardableResult
    public func reconfigure(_ configuration: Configuration) -> Bool {
        scene.dispatcher.pan.configuration.resamples = configuration.resample
        // The late start's window (a card's frames; a display without vblanks has no scheduler).
        presenter.scheduler?.mode = configuration.frameWindow
        blankAfter = configuration.blankAfter
        if blankAfter == 0 && display.isBlank && light.off == .idle { wake() }
        // The blank timer counts from now with its new length.
        lastActivity = clock.now
        configureLight(configuration.light)
        configureShift(configuration.shift)
        applyContentSettings(configuration)
        let kept = content?.reconfigure(configuration) ?? true
        pump()
        return kept
    }

    // MARK: Status

    /// Tells systemd (STATUS=) where the stage stands now, when that changed.
    public func tell(_ next: HostStatus.State) {
        state = next
        let line = "STATUS=" + status(display: display.summary, touchscreens: [], started: clock.date, uptime: 0).statusLine
        // The same news twice (a failure the source and the refresh's end both report) is said once.
        guard line != lastStatusLine else { return }
        lastStatusLine = line
        notifier.notify(line)
    }
    private var lastStatusLine = ""

    /// Tells STATUS again from the state in use: the content's part of it changed (a broker's
    /// trouble, an item count), or something else was said meanwhile (``say(_:)``).
    public func contentStatusChanged() { tell(state) }

    /// Says `line` as STATUS for now (a reload refused), outside the states: the next news of
    /// the stage's own replaces it.
    public func say(_ line: String) {
        lastStatusLine = "STATUS=" + line
        notifier.notify(lastStatusLine)
    }

    /// What the stage tells the outside now (`KioskHost.status()` adds the touchscreens and the
    /// uptime).
    public func status(display summary: String, touchscreens: [String], started: Date, uptime: Double) -> HostStatus {
        let part = content?.contentStatus ?? ContentStatus(showing: "the panel")
        var status = HostStatus(state: state, showing: part.showing, notes: part.notes, storeTrouble: lastUpdatedStore.lastError.map { "\($0)" },
                                display: summary, touchscreens: touchscreens, uptime: uptime, started: started, now: clock.date,
                                clockSet: calendarFloor.map { clock.date >= $0 } ?? true,
                                frames: frames, droppedFrames: droppedFrames, touchToGlass: touchToGlass)
        status.sampleToGlass = sampleToGlass
        status.light = lightStatus
        status.reloadRefused = reloadRefused
        return status
    }

    /// STATUS after new content showed (a successful refresh, a recovery), with the store's
    /// trouble while it lasts; the journal's "showing …" the first time.
    public func notifyShowing() {
        tell(.showing)
        if !announcedContent {
            announcedContent = true
            Log.info("showing \(content?.contentStatus.showing ?? "the panel")")
        }
    }

    /// A failed save of the last-updated time: what shows goes on (the time stays in memory);
    /// the log says it once per cause, STATUS every time.
    public func lastUpdatedNotSaved(_ error: any Error) {
        let cause = (error as? LastUpdatedStoreError)?.cause ?? "\(error)"
        if reportedStoreCauses.insert(cause).inserted { Log.warning("\(error)") }
        notifyShowing()
    }

    // MARK: Frames and statistics

    private func framePresented(_ timing: FrameTiming) {
        if scene.screen.framesPresented == 1 { markReady() }
        content?.framePresented(timing)
        let dropped = statistics.dropped
        statistics.record(timing)
        frames += 1
        droppedFrames += max(0, statistics.dropped - dropped)
        if let latency = timing.latency, latency >= 0, latency < 60 { touchToGlass.record(latency) }
        if let latency = timing.sampleLatency, latency >= 0, latency < 60 { sampleToGlass.record(latency) }
        if timing.inputTime != nil { touchedSinceReport = true }
        if clock.now - statisticsSince >= Self.statisticsInterval {
            if touchedSinceReport { reportStatistics() } else { resetStatistics() }
        }
    }

    /// Logs the frame timings since the last report and starts a new window (every minute
    /// while touched; SIGUSR1).
    public func reportStatistics() {
        Log.info("frames: \(statistics.summary)")
        resetStatistics()
    }

    private func resetStatistics() {
        statistics.reset()
        statisticsSince = clock.now
        touchedSinceReport = false
    }

    /// The first frame is on the glass (the presenter's completion, the one place that knows).
    private func markReady() {
        notifier.notify("READY=1")
        // What shows may be in already (a file answers before the first frame).
        if state == .starting { tell(.ready) } else { tell(state) }
    }

    // MARK: The loop's entries

    /// Starts what the content loads and draws the first frame.
    public func start() {
        content?.start()
        pump()
    }

    /// Something happened that keeps the panel on (a touch, new data); `wakes`: and turns it
    /// on, unless it is off for the off hours (new data at night lights no empty hallway).
    public func activity(wakes: Bool) {
        lastActivity = clock.now
        if wakes && display.isBlank && light.off != .offHours { wake() }
    }

    /// Touch frames from the input devices (the entry that brought them draws at its end). On
    /// a blank panel the first touch only wakes it: its frames go nowhere until every finger
    /// of it has lifted, so it is neither a tap nor a pan.
    public func handle(_ frames: [TouchFrame]) {
        guard !frames.isEmpty, !isStopped else { return }
        activity(wakes: false)
        for frame in frames {
            if display.isBlank {
                wake()
                isSwallowingWakeTouch = true
                Log.info("woke the panel; the touch that woke it is not passed on")
            }
            if isSwallowingWakeTouch {
                if frame.active.isEmpty { isSwallowingWakeTouch = false }
                continue
            }
            presenter.noteInput(at: frame.timestamp)
            lastTouch = clock.now
            scene.dispatcher.handle(frame)
        }
    }

    /// The end of every entry: blanking when it is due, the content's own due work, then a
    /// frame if something changed and none is in flight; READY=1 once the first frame is on
    /// the panel (the display's completion).
    public func pump() {
        guard !isStopped else { return }
        if followLight() { return }
        followShift()
        content?.tick(at: clock.now)
        presenter.drawFrame()
    }

    /// A frame reached the panel (the display's event, after its completion ran): the next
    /// frame if anything still moves.
    public func frameCompleted() { pump() }

    /// When the loop must run `pump()` next (seconds of the clock), nil when nothing waits:
    /// the program then sleeps until input.
    public var nextWakeUp: Double? {
        var wakes: [Double] = []
        // What moves is stepped by frames, and frames start late in the period (the
        // presenter's scheduler): an animation due now waits for its frame's start.
        let drawing = !display.isBlank && !display.isPaused
        func frame(_ at: Double) -> Double { drawing ? presenter.frameStart(at: max(at, scene.clock.now)) : at }
        if let animation = scene.animator.nextWakeUp { wakes.append(frame(animation)) }
        if let light = nextLightChange { wakes.append(light) }
        if let shift = nextShift { wakes.append(shift) }
        if let due = content?.nextWakeUp { wakes.append(due) }
        // A frame is due now (or at its start), unless one is in flight (its completion pumps)
        // or a failed present waits for its retry. (While the panel is off only the frame
        // pass runs.)
        if scene.screen.needsFrame && !presenter.inFlight {
            wakes.append(frame(max(scene.clock.now, presenter.retryAt ?? 0)))
        }
        return wakes.min()
    }

    /// Nothing moves and nothing waits to be drawn (asked only when it matters: it walks the
    /// animations).
    public var isIdle: Bool {
        scene.animator.nextWakeUp == nil && !scene.screen.needsFrame && !presenter.inFlight
    }

    /// From the watchdog timer, which runs on the loop: a hung loop stops pinging.
    public func watchdog() { notifier.notify("WATCHDOG=1") }

    /// The display took a new size (a window resized, a panel back in another mode): the
    /// scene is laid out again at it and drawn whole. Nothing is rebuilt: the content, the
    /// list's position, an app's views and what they hold stay as they were.
    public func resize(width: Int, height: Int) {
        let size = Size(width: Double(width), height: Double(height))
        guard size != scene.screen.size else { return }
        scene.screen.resize(to: size)
        content?.resized(to: size)
        presenter.invalidate()
        pump()
    }

    /// The backlight blanking uses from now on.
    func replaceBacklight(with chosen: Backlight?) {
        backlight = chosen
        reportedBacklightError = false
    }

    /// The backlight on or off; a failure is logged once per backlight.
    func switchBacklight(on: Bool) {
        guard let backlight else { return }
        do {
            try on ? backlight.on() : backlight.off()
        } catch {
            reportBacklight(error)
        }
    }

    /// A backlight that cannot be read or written: logged once per backlight.
    func reportBacklight(_ error: any Error) {
        if !reportedBacklightError { Log.warning("\(error)") }
        reportedBacklightError = true
    }

    /// SIGTERM/SIGINT: no more frames; the display restores what it changed.
    public func stop() {
        guard !isStopped else { return }
        isStopped = true
        notifier.notify("STOPPING=1")
        // The backlight as the stage found it (lit, at its level).
        do { try backlight?.restore() } catch { reportBacklight(error) }
        display.close()
    }
}
