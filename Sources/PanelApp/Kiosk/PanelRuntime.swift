import FoundationEssentials
import Dispatch
import Glibc
import PanelDisplay
import PanelInput
import PanelRefresh
import PanelRender

/// The kiosk as a time driver sees it: a scene on a display, frames paced by the display's
/// completions, the panel blanked when nobody uses it, frame timings kept, the service manager
/// kept informed. Its content is the configured list (a ``PanelSession`` over the configured
/// data source) or an app's own views. Time, input and signals come from a ``KioskHost``
/// stepped by ``RealTimeDriver`` or `VirtualTimeDriver`; nothing here reads a clock.
@MainActor
public final class PanelRuntime {
    /// The UI: view tree, animator, touch dispatch, on the host's clock.
    public let scene: Scene
    /// The list and its refresh components, when the content is the configured list; nil for
    /// an app's own views. A reload that changes the list puts a new one here
    /// (``replaceContent(configuration:content:)``); the stage around it stays.
    public internal(set) var session: PanelSession?
    /// Draws the scene's frames on `display`.
    public let driver: FrameDriver
    /// Where READY=1, STATUS= and WATCHDOG=1 go (systemd's socket in the program).
    public let notifier: any ServiceNotifier
    /// Whether the first frame is on the glass (READY=1 was sent).
    public var isReady: Bool { scene.screen.framesPresented > 0 }
    /// Whether `stop()` or `retire()` ended it: no more frames.
    public private(set) var isStopped = false
    /// The display the frames go to.
    public let display: any Display
    /// Where the header's last-updated time is kept: `state.directory`/last-updated.json.
    public internal(set) var lastUpdatedStore: FileLastUpdatedStore
    /// The store failures logged so far, by cause: each is logged once.
    private(set) var reportedStoreCauses = Set<String>()
    /// `display.blank-after`, seconds; 0: never.
    public private(set) var blankAfter: Double
    /// When the list was last touched or changed, seconds of the clock.
    public private(set) var lastActivity: Double
    /// The touch that woke the panel: swallowed until its fingers lift.
    public private(set) var isSwallowingWakeTouch = false
    /// Turned off with the panel, when there is one.
    public private(set) var backlight: Backlight?
    private var reportedBacklightError = false
    /// Frame timings since the last report.
    public private(set) var statistics = FrameStatistics()
    private var statisticsSince: Double
    private var touchedSinceReport = false
    /// Seconds between timing reports while the panel is touched.
    public static let statisticsInterval = 60.0
    let clock: ManualClock
    /// Where the kiosk stands, as STATUS, `ctl status` and the metrics say (`KioskStatus`).
    public private(set) var state = KioskStatus.State.starting
    /// When a finger last touched the list (the frames the dispatcher got), seconds of the clock.
    public private(set) var lastTouch: Double?
    /// `refresh.quiet-after-touch`: seconds after the last touch before a due automatic refresh runs.
    public private(set) var quietAfterTouch: Double
    /// Frames presented and vertical blanks missed since the start, and their touch-to-glass times.
    public private(set) var frames = 0, droppedFrames = 0
    /// Touch-to-glass times since the start, for the metrics' histogram.
    public private(set) var touchToGlass = LatencyHistogram()
    /// When this runtime started, seconds of the clock.
    public let startTime: Double
    /// `state.metrics-file` and `state.metrics-seconds`: where the host writes the metrics, how often.
    public private(set) var metricsSettings: (file: String?, seconds: Double)

    /// What an app's `views` closure returned, kept as long as the runtime: its controller,
    /// data source and delegate, which the views hold weakly (as UIKit does), need no global.
    public internal(set) var app: Any?
    /// The faces text is drawn with, shared with the host.
    let fonts: FontLibrary
    /// The language and time zone of the machine.
    let host: HostEnvironment
    /// The machine's CLOCK_MONOTONIC for frame and command timings; nil in virtual time.
    let stopwatch: (@Sendable () -> Double)?

    /// What the runtime shows.
    public enum Content {
        /// The configured list: `source` builds its data source on the scene's animator.
        case list(source: (Animator) -> any ItemSource)
        /// An app's own views: `build` adds them to the scene's root view (and may set the
        /// dispatcher's scroll view); what it returns (the app's controller, its data source
        /// and delegate) is kept as ``app``.
        case views(build: (Scene) throws -> Any)
    }

    /// The configured list over `source`.
    /// - Parameters:
    ///   - configuration: the whole configuration (appearance, blanking, limits, state).
    ///   - display: where frames go.
    ///   - fonts: the faces text is drawn with.
    ///   - notifier: where READY=1 and STATUS= go.
    ///   - source: builds the data source on the scene's animator.
    ///   - clock: the host's clock.
    ///   - backlight: turned off with the panel, when there is one.
    ///   - stopwatch: the machine's CLOCK_MONOTONIC for frame timings (``RealTimeDriver/stopwatch``
    ///     in real time); by default the clock's own time (virtual time: timings of 0).
    ///   - host: the language and time zone of the machine (the program reads them in main);
    ///     by default English and UTC.
    ///   - announcesList: whether "showing N items" goes to the journal once, and each later
    ///     refresh that changed the list a `list-changed` line (off where nobody reads one).
    public convenience init(configuration: Configuration, display: any Display, fonts: FontLibrary, notifier: any ServiceNotifier,
                            source: @escaping (Animator) -> any ItemSource, clock: ManualClock, stopwatch: (@Sendable () -> Double)? = nil,
                            backlight: Backlight? = nil, host: HostEnvironment = .neutral, announcesList: Bool = true) throws {
        try self.init(configuration: configuration, display: display, fonts: fonts, notifier: notifier, content: .list(source: source),
                      clock: clock, stopwatch: stopwatch, backlight: backlight, host: host, announcesList: announcesList)
    }

    /// A runtime showing `content`; the other parameters are the list initializer's.
    public init(configuration: Configuration, display: any Display, fonts: FontLibrary, notifier: any ServiceNotifier,
                content: Content, clock: ManualClock, stopwatch: (@Sendable () -> Double)? = nil,
                backlight: Backlight? = nil, host: HostEnvironment = .neutral, announcesList: Bool = true) throws {
        self.display = display
        announcedList = !announcesList
        announcesChanges = announcesList
        (self.notifier, self.clock, self.backlight) = (notifier, clock, backlight)
        blankAfter = configuration.blankAfter
        quietAfterTouch = configuration.quietAfterTouch
        metricsSettings = (configuration.metricsFile, configuration.metricsSeconds)
        startTime = clock.now
        lastActivity = clock.now
        statisticsSince = clock.now
        scene = Scene(size: Size(width: Double(display.width), height: Double(display.height)), clock: clock)
        scene.screen.textMeasurer = fonts
        // The pan is sampled for a frame one period before it reaches the glass.
        scene.dispatcher.presentationDelay = display.frameInterval ?? 1.0 / 60
        scene.dispatcher.pan.configuration.resamples = configuration.resample
        // Boxes on the glass are said in the journal, once per script, with what draws them.
        fonts.onUncovered = { script, scalar, advice, text in
            Log.warning("text: no installed face draws \(script) (\(WritingSystem.codePoint(scalar)) in \"\(text)\"): it shows as boxes; install \(advice)")
        }
        lastUpdatedStore = FileLastUpdatedStore(path: configuration.stateDirectory + "/last-updated.json")
        (self.fonts, self.host, self.stopwatch) = (fonts, host, stopwatch)
        let renderer = Renderer(fonts: fonts)
        renderer.onError = { error in Log.event(.imageFailed, priority: 3, "image: \(error)") }
        let frameClock: () -> Double
        if let stopwatch { frameClock = stopwatch } else { frameClock = { [clock] in clock.now } }
        driver = FrameDriver(screen: scene.screen, renderer: renderer, display: display, now: frameClock)
        driver.onError = { [weak self] error in
            Log.event(.displayError, priority: 3, "display: \(error); drawing stops and is retried",
                      fields: ["PANEL_REFRESH_ERROR": "\(error)"])
            self?.tell(.cannotDraw(reason: "\(error)"))
        }
        driver.onRecovery = { [weak self] in
            Log.event(.displayRecovered, priority: 6, "display: drawing again")
            self?.notifyShowing()
        }
        driver.onFramePresented = { [weak self] timing in self?.framePresented(timing) }
        driver.onFrameDrawn = { [weak self] in self?.session?.frameDrawn() }
        try install(content, configuration)
    }

    /// What STATUS says is on show: the list's item count, or that the app's views are.
    private var showing: String {
        guard let session else { return "the panel" }
        return "\(session.items.count) items"
    }

    /// Something happened that keeps the panel on (a touch, new data); `wakes`: and turns it on.
    func activity(wakes: Bool) {
        lastActivity = clock.now
        if wakes && display.isBlank { wake() }
    }

    private func framePresented(_ timing: FrameTiming) {
        if scene.screen.framesPresented == 1 { markReady() }
        session?.framePresented(renderSeconds: timing.renderSeconds)
        let dropped = statistics.dropped
        statistics.record(timing)
        frames += 1
        droppedFrames += max(0, statistics.dropped - dropped)
        if let latency = timing.latency, latency >= 0, latency < 60 { touchToGlass.record(latency) }
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

    /// What is wrong with the fleet's broker, while something is (the host sets it from its
    /// link): said in STATUS= and `ctl status` beside the list.
    public var brokerTrouble: String? {
        didSet { if brokerTrouble != oldValue { tell(state) } }
    }

    /// Tells systemd (STATUS=) where the kiosk stands now, when that changed.
    func tell(_ next: KioskStatus.State) {
        state = next
        let line = "STATUS=" + status(display: display.summary, touchscreens: [], started: clock.date, uptime: 0).statusLine
        // The same news twice (a failure the source and the refresh's end both report) is said once.
        guard line != lastStatusLine else { return }
        lastStatusLine = line
        notifier.notify(line)
    }
    private var lastStatusLine = ""

    /// What the kiosk tells the outside now (`KioskHost.status()` adds the host's part: the
    /// touchscreens and the uptime).
    public func status(display summary: String, touchscreens: [String], started: Date, uptime: Double) -> KioskStatus {
        let counters = session?.counters ?? RefreshCounters()
        let next = session?.nextAutomaticRefresh.map { clock.date.addingTimeInterval($0 - clock.now) }
        return KioskStatus(state: state, showing: showing, items: session?.items.count ?? 0, refreshes: counters,
                           dataAge: counters.lastSuccessTime.map { clock.now - $0 }, nextRefresh: next,
                           consecutiveFailures: session?.schedule?.failures ?? 0, storeTrouble: lastUpdatedStore.lastError.map { "\($0)" },
                           display: summary, touchscreens: touchscreens, uptime: uptime, started: started, now: clock.date,
                           frames: frames, droppedFrames: droppedFrames, touchToGlass: touchToGlass,
                           pictureCacheBytes: session?.pictures?.bytesUsed ?? 0, pictureCacheHits: session?.pictures?.hits ?? 0,
                           pictureCacheMisses: session?.pictures?.misses ?? 0, residentBytes: nil, brokerTrouble: brokerTrouble)
    }

    /// Turns the panel off now (`ctl blank`), as blanking after `display.blank-after` does: a
    /// touch, `wakeUp()` or new data turns it on again. False when it is off already.
    @discardableResult
    public func blankNow() -> Bool {
        guard !display.isBlank, !isStopped else { return false }
        blank()
        return display.isBlank
    }

    /// Turns the panel on now (`ctl wake`); false when it is on already.
    @discardableResult
    public func wakeUp() -> Bool {
        guard display.isBlank, !isStopped else { return false }
        wake()
        pump()
        return true
    }

    /// Panel and backlight off; STATUS says so.
    private func blank() {
        do {
            try display.setBlank(true)
        } catch {
            Log.error("display: cannot blank: \(error)")
            // Without blanking, do not try again at every wake-up: wait a whole period.
            lastActivity = clock.now
            return
        }
        switchBacklight(on: false)
        if blankAfter > 0 && clock.now >= lastActivity + blankAfter {
            Log.info("blanked the panel after \(TraceEvent.number(blankAfter)) s without touch or data change")
        } else {
            Log.info("blanked the panel (asked)")
        }
        tell(.blank)
    }

    /// The keys a runtime takes without being built again (`reconfigure`): blanking, the
    /// backlight, the quiet time after a touch, resampling and the metrics file. A reload that changes
    /// only these keeps the list, its position, an open page and an app's views.
    public nonisolated static let stageKeys: Set<String> = ["display.blank-after", "display.backlight", "refresh.quiet-after-touch", "input.resample",
                                                             "state.metrics-file", "state.metrics-seconds"]

    /// Takes `configuration`'s blanking, quiet time and metrics settings, as a fresh start
    /// would, without building anything again: blanking turned off wakes a blank panel. (The
    /// backlight it names comes through `use(backlight:)`: the host looks it up.)
    public func reconfigure(_ configuration: Configuration) {
        scene.dispatcher.pan.configuration.resamples = configuration.resample
        blankAfter = configuration.blankAfter
        quietAfterTouch = configuration.quietAfterTouch
        metricsSettings = (configuration.metricsFile, configuration.metricsSeconds)
        if blankAfter == 0 && display.isBlank { wake() }
        // The blank timer counts from now with its new length.
        lastActivity = clock.now
        pump()
    }

    /// Blanks with `chosen` from now on (the host chooses it for each configuration): one
    /// replaced while the panel is blank gets its light back, and the new one goes off.
    public func use(backlight chosen: Backlight?) {
        guard chosen !== backlight else { return }
        if display.isBlank { switchBacklight(on: true) }
        backlight = chosen
        reportedBacklightError = false
        if display.isBlank { switchBacklight(on: false) }
    }

    /// Panel and backlight on; the next frame draws everything.
    private func wake() {
        do {
            try display.setBlank(false)
        } catch {
            Log.error("display: cannot wake: \(error)")
        }
        switchBacklight(on: true)
        driver.invalidate()
        lastActivity = clock.now
        notifyShowing()
    }

    private func switchBacklight(on: Bool) {
        guard let backlight else { return }
        do {
            try on ? backlight.on() : backlight.off()
        } catch {
            if !reportedBacklightError { Log.warning("\(error)") }
            reportedBacklightError = true
        }
    }

    /// Whether the journal already has "showing N items"; set from the start where nobody reads
    /// a journal (`expected-frame` renders offline).
    var announcedList: Bool

    /// STATUS after a successful refresh, with the store's trouble while it lasts.
    func notifyShowing() {
        tell(.showing)
        // The journal says when the list first appears; later refreshes only change STATUS.
        if !announcedList {
            announcedList = true
            Log.info("showing \(showing)")
        }
    }

    /// Whether refreshes that changed the list are told to the journal.
    let announcesChanges: Bool
    /// The session's count of changing refreshes, and its item count, when the journal last
    /// heard of them.
    var changesAnnounced = (refreshes: 0, items: 0)

    /// One `list-changed` line per refresh that changed the list after the first (a kiosk that
    /// refreshes by itself shows in its journal when its list moved; unchanged answers, 304s
    /// among them, say nothing: every 60 s they would be most of the journal).
    func announceChange(_ session: PanelSession) {
        guard announcesChanges, session.counters.changed != changesAnnounced.refreshes else { return }
        if changesAnnounced.refreshes > 0 {
            Log.event(.listChanged, priority: 6, "refresh: the list changed: \(session.items.count) items (\(changesAnnounced.items) before)",
                      fields: ["PANEL_REFRESH_ITEMS": "\(session.items.count)"])
        }
        changesAnnounced = (session.counters.changed, session.items.count)
    }

    /// A failed save of the last-updated time: the list and the refresh go on (the time stays
    /// in memory); the log says it once per cause, STATUS every time.
    func lastUpdatedNotSaved(_ error: any Error) {
        let cause = (error as? LastUpdatedStoreError)?.cause ?? "\(error)"
        if reportedStoreCauses.insert(cause).inserted { Log.warning("\(error)") }
        notifyShowing()
    }

    func chain(_ first: ((RefreshState, RefreshState) -> Void)?, _ second: @escaping (RefreshState, RefreshState) -> Void)
        -> (RefreshState, RefreshState) -> Void {
        { first?($0, $1); second($0, $1) }
    }

    /// Loads the first page (the list) and draws the first frame; `loading` false: the
    /// list keeps what it shows (a replay or demo that begins from a full list).
    public func start(loading: Bool = true) {
        if loading { session?.start() }
        pump()
    }

    /// Touch frames from the input devices. On a blank panel the first touch only wakes it:
    /// its frames go nowhere until every finger of it has lifted, so it is neither a tap nor
    /// a pan.
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
            driver.noteInput(at: frame.timestamp)
            lastTouch = clock.now
            scene.dispatcher.handle(frame)
        }
        pump()
    }

    /// Draws a frame if something changed and none is in flight; READY=1 once the first frame
    /// is on the panel (the display's completion).
    public func pump() {
        guard !isStopped else { return }
        if blankAfter > 0, !display.isBlank, !display.isPaused, clock.now >= lastActivity + blankAfter, isIdle {
            blank()
            return
        }
        if let session, let due = session.nextAutomaticRefresh, clock.now >= due, autoRefreshHold == nil {
            session.refreshAutomatically()
        }
        driver.drawFrame()
        // The list has stopped: what evicted pictures freed goes back to the system (asked
        // first: whether all is idle costs a walk of the animations every frame).
        if let pictures = session?.pictures, pictures.holdsFreedMemory, isIdle { pictures.returnFreedMemory() }
    }

    /// What keeps a due automatic refresh waiting.
    private enum Hold {
        /// Something that ends with an input of its own: a finger lifts, a page closes, the
        /// panel wakes, the refresh under way ends.
        case untilEvent
        /// The quiet after the last touch, until this time.
        case until(Double)
    }

    /// Why a due automatic refresh may not run now; nil: it may. Nobody has the list change
    /// under a finger, a page or the second floor, or on a dark panel (it runs when the panel
    /// wakes).
    private var autoRefreshHold: Hold? {
        guard let session else { return .untilEvent }
        if display.isBlank || scene.dispatcher.isTouching || session.detailPage != nil || session.isRefreshing { return .untilEvent }
        if session.header.state == .twoLevel || session.header.state == .releaseToTwoLevel { return .untilEvent }
        if let lastTouch, clock.now < lastTouch + quietAfterTouch { return .until(lastTouch + quietAfterTouch) }
        return nil
    }

    /// A frame reached the panel (the display's event, after its completion ran): the next
    /// frame if anything still moves.
    public func frameCompleted() { pump() }

    /// The first frame is on the glass (the frame driver's completion, the one place that knows).
    private func markReady() {
        notifier.notify("READY=1")
        // The first page may be in already (a file answers before the first frame).
        if state == .starting { tell(.ready) } else { tell(state) }
    }

    /// Hears that work done off the loop changed what shows (a page or a picture arrived, a
    /// load failed): the real-time driver, whose timer sleeps while nothing moves, runs an
    /// entry to draw it. (In virtual time such work answers inline, within an entry.)
    public var onWake: (() -> Void)?

    /// When the loop must run `pump()` next (monotonic seconds), nil when nothing waits: the
    /// program then sleeps until input.
    public var nextWakeUp: Double? {
        var wakes: [Double] = []
        if let animation = scene.animator.nextWakeUp { wakes.append(animation) }
        if blankAfter > 0 && !display.isBlank { wakes.append(lastActivity + blankAfter) }
        if let due = session?.nextAutomaticRefresh {
            switch autoRefreshHold {
            case nil: wakes.append(due)
            case .until(let quiet)?: wakes.append(max(due, quiet))
            case .untilEvent?: break
            }
        }
        // A frame is due now, unless one is in flight (its completion pumps) or a failed
        // present waits for its retry. (While the panel is off only the frame pass runs.)
        if scene.screen.needsFrame && !driver.inFlight {
            wakes.append(max(scene.clock.now, driver.retryAt ?? 0))
        }
        return wakes.min()
    }

    /// Nothing moves and nothing waits to be drawn.
    private var isIdle: Bool {
        scene.animator.nextWakeUp == nil && !scene.screen.needsFrame && !driver.inFlight
    }

    /// The display after a hotplug event: gone (drawing stops; input and data go on) or back
    /// at the same size (a full frame). Back at another size, the host also calls
    /// ``resize(width:height:)``.
    public func displayProbed(_ probe: DisplayProbe) {
        switch probe {
        case .unchanged: break
        case .disconnected:
            Log.warning("display: the panel went away; input and data go on")
            tell(.disconnected)
        case .connected:
            Log.info("display: the panel is back (\(display.summary))")
            driver.invalidate()
            driver.retryNow()
            notifyShowing()
            pump()
        }
    }

    /// Another VT is in front: nothing reaches the glass until `displayResumed`; the list,
    /// its data and its animations go on in memory.
    public func displayPaused(_ why: String) {
        Log.info("display paused: \(why)")
        tell(.paused(reason: why))
    }

    /// The kiosk's VT is in front again: a full frame at once.
    public func displayResumed(_ why: String) {
        Log.info("display resumed: \(why)")
        driver.invalidate()
        driver.retryNow()
        notifyShowing()
        pump()
    }

    /// From the watchdog timer, which runs on the loop: a hung loop stops pinging.
    public func watchdog() { notifier.notify("WATCHDOG=1") }

    /// The display took a new size (a window resized, a panel back in another mode): the
    /// scene is laid out again at it and drawn whole. Nothing is rebuilt: the list, its
    /// position, an app's views and what they hold stay as they were.
    public func resize(width: Int, height: Int) {
        let size = Size(width: Double(width), height: Double(height))
        guard size != scene.screen.size else { return }
        scene.screen.resize(to: size)
        // The list, an open page and its dim follow by their masks; the status and the banner
        // are placed by the session.
        session?.layoutStatus()
        driver.invalidate()
        pump()
    }

    /// Stops drawing without touching the display: another runtime takes over (a reload).
    public func retire() { isStopped = true }

    /// SIGTERM/SIGINT: no more frames; the display restores what it changed.
    public func stop() {
        guard !isStopped else { return }
        isStopped = true
        notifier.notify("STOPPING=1")
        if display.isBlank { switchBacklight(on: true) }
        display.close()
    }
}
