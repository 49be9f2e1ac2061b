import Foundation
import PanelDisplay
import PanelInput
import PanelRefresh
import PanelRender

/// The kiosk as the run loop sees it: a session on a display, frames paced by the display's
/// completions, the service manager kept informed. Input, timers and signals are wired by the
/// caller (the program's Dispatch loop; tests call the same methods directly).
@MainActor
public final class PanelRuntime {
    public let scene: Scene
    public let session: PanelSession
    public let driver: FrameDriver
    public let notifier: any ServiceNotifier
    public private(set) var isReady = false
    public private(set) var isStopped = false
    public let display: any Display
    /// Where the header's last-updated time is kept: `state.directory`/last-updated.json.
    public let lastUpdatedStore: FileLastUpdatedStore
    /// The store failures logged so far, by cause: each is logged once.
    private(set) var reportedStoreCauses = Set<String>()

    public init(configuration: Configuration, display: any Display, fonts: FontLibrary, notifier: any ServiceNotifier,
                source: (Animator) -> any ItemSource, clock: ManualClock) throws {
        self.display = display
        self.notifier = notifier
        scene = Scene(size: Size(width: Double(display.width), height: Double(display.height)), clock: clock)
        scene.screen.textMeasurer = fonts
        let localizer = RefreshLocalizer(language: RefreshLanguage(code: configuration.locale
            ?? ProcessInfo.processInfo.environment["LANG"] ?? "en"))
        session = PanelSession(scene: scene, source: source(scene.animator), pageSize: configuration.pageSize, localizer: localizer,
                               header: try Appearance.header(configuration, localizer: localizer),
                               footer: try Appearance.footer(configuration, localizer: localizer))
        session.failureDisplayDuration = configuration.failureSeconds
        Appearance.styleRows(session.list, configuration)
        lastUpdatedStore = FileLastUpdatedStore(path: configuration.stateDirectory + "/last-updated.json")
        session.header.lastUpdatedStore = lastUpdatedStore
        driver = FrameDriver(screen: scene.screen, renderer: Renderer(fonts: fonts), display: display)
        session.onError = { [weak self] error in
            Log.error("data source: \(error)")
            self?.notifier.notify("STATUS=last refresh failed: \(error)")
        }
        session.header.stateDidChangeHandler = chain(session.header.stateDidChangeHandler) { [weak self] _, to in
            guard let self else { return }
            if to == .refreshing { self.notifier.notify("STATUS=refreshing") }
            if to == .idle, self.session.header.lastResult?.isSuccess ?? false { self.notifyShowing() }
        }
        session.header.errorHandler = { [weak self] error in self?.lastUpdatedNotSaved(error) }
        driver.onError = { Log.error("display: \($0)") }
    }

    /// STATUS after a successful refresh, with the store's trouble while it lasts.
    private func notifyShowing() {
        let trouble = lastUpdatedStore.lastError.map { "; \($0)" } ?? ""
        notifier.notify("STATUS=showing \(session.items.count) items\(trouble)")
    }

    /// A failed save of the last-updated time: the list and the refresh go on (the time stays
    /// in memory); the log says it once per cause, STATUS every time.
    private func lastUpdatedNotSaved(_ error: any Error) {
        let cause = (error as? LastUpdatedStoreError)?.cause ?? "\(error)"
        if reportedStoreCauses.insert(cause).inserted { Log.warning("\(error)") }
        notifyShowing()
    }

    private func chain(_ first: ((RefreshState, RefreshState) -> Void)?, _ second: @escaping (RefreshState, RefreshState) -> Void)
        -> (RefreshState, RefreshState) -> Void {
        { first?($0, $1); second($0, $1) }
    }

    /// Loads the first page and draws the first frame.
    public func start() {
        session.start()
        pump()
    }

    /// Touch frames from the input devices.
    public func handle(_ frames: [TouchFrame]) {
        for frame in frames { scene.dispatcher.handle(frame) }
        pump()
    }

    /// Draws a frame if something changed and none is in flight; READY=1 once the first frame
    /// is on the panel (the display's completion).
    public func pump() {
        guard !isStopped else { return }
        let wasPresented = scene.screen.framesPresented
        _ = driver.drawFrame()
        if !isReady && scene.screen.framesPresented > wasPresented { markReady() }
    }

    /// A frame reached the panel (the display's event): ready after the first, and the next
    /// frame if anything still moves.
    public func frameCompleted() {
        if !isReady && scene.screen.framesPresented > 0 { markReady() }
        pump()
    }

    private func markReady() {
        isReady = true
        notifier.notify("READY=1")
        notifier.notify("STATUS=showing the list")
    }

    /// When the loop must run `pump()` next (monotonic seconds), nil when nothing waits: the
    /// program then sleeps until input.
    public var nextWakeUp: Double? {
        if driver.inFlight { return nil }
        if scene.screen.needsFrame { return scene.clock.now }
        return scene.animator.nextWakeUp
    }

    /// From the watchdog timer, which runs on the loop: a hung loop stops pinging.
    public func watchdog() { notifier.notify("WATCHDOG=1") }

    /// Stops drawing without touching the display: another runtime takes over (a reload).
    public func retire() { isStopped = true }

    /// SIGTERM/SIGINT: no more frames; the display restores what it changed.
    public func stop() {
        guard !isStopped else { return }
        isStopped = true
        notifier.notify("STOPPING=1")
        if let drm = display as? DRMDisplay { drm.close() }
        if let fb = display as? FramebufferDisplay { fb.close() }
    }
}
