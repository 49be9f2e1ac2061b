import Glibc
import PanelHost

/// `panel-refresh replay`: a recording through the whole pipeline on the headless display, in
/// virtual time.
@MainActor
public enum ReplayCommand {
    /// What `replay` was asked.
    public struct Options: Sendable {
        /// The recording (evemu, or events with `descriptionFile`).
        public var file: String
        /// The device description for a recording of events only (`--desc`).
        public var descriptionFile: String?
        /// The screen's pixels across (`--screen`).
        public var width = 800
        /// The screen's pixels down.
        public var height = 480
        /// The picture's turn (`--rotation`); none: `display.rotation`.
        public var rotation: Rotation = .none
        /// Where every frame is written as PNG (`--frames`).
        public var framesDirectory: String?
        /// How long the sample data takes to load, seconds (`--refresh-seconds`).
        public var refreshSeconds = 1.0
        /// ABS codes that carry X and Y (`--axes`).
        public var positionAxes: (x: UInt16, y: UInt16)?
        /// The whole configuration (`--config`): data source, input mapping, locale, styles.
        public var configuration: KioskConfiguration?
        /// Frame lines with `renderMs` (`--timings`): the trace then differs from run to run.
        public var timings = false
        /// Frames a second the display shows (`--display-rate`, 60 as the headless display):
        /// frames are drawn at that cadence, each on the glass one period after it is drawn,
        /// as on a DRM card. Nil (`--display-rate events`): a frame for every input event that
        /// changes the picture, on the glass at once.
        public var displayRate: Double? = 60
        /// Whether the pan is resampled to the frames (`--resample on|off`); nil: as the
        /// configuration says (`input.resample`, on).
        public var resample: Bool?
        /// How long before its vblank a frame starts at a display rate (`--frame-window MS|off`):
        /// a stated figure, 5 ms by default (`FrameScheduler.defaultWindow`), so that replays
        /// are the same bytes on every machine; `.off`: right after the last flip, each frame on
        /// the glass one period after it is drawn (the replays before the late start).
        public var frameWindow = FrameScheduler.Window.fixed(FrameScheduler.defaultWindow)
        /// How the touch positions are smoothed (`--filter`); nil: as the configuration says
        /// (`input.filter`, off).
        public var filter: TouchFilter?
        /// How frames sample the pan (`TouchDispatcher.sampling`; the feel bench compares them).
        public var sampling = TouchDispatcher.Sampling.screen
        /// Where the list stands when the recording starts, as a share of its scroll range (0:
        /// the top, the default; 0.5: the middle, where a drag either way moves it in range).
        public var startShare = 0.0
        /// Where the list stands when the recording starts, points from its top (`--offset`),
        /// at most its scroll range's end; nil: ``startShare``. From the top a downward drag
        /// only rubber-bands, so a drag's feel is judged from within the list.
        public var startPoints: Double?

        /// A replay of `file` with the defaults.
        public init(file: String) { self.file = file }
    }

    /// What a replay did.
    public struct Result {
        /// Every trace event, in order.
        public var trace: [TraceEvent]
        /// Frames the display showed.
        public var framesPresented: Int
        /// The offsets the list can rest at, points (beyond them it rubber-bands).
        public var scrollRange: (x: ClosedRange<Double>, y: ClosedRange<Double>)
        /// The list's offset when the recording started, points.
        public var startOffset: Point
        /// Frames that reached the glass after the vblank they were started for.
        public var missedVblanks = 0
    }

    /// `--filter`'s value: the touch filter it names, or a usage error that says what is wanted.
    public static func filter(_ text: String) throws(UsageError) -> TouchFilter {
        do { return try TouchFilter(text: text) } catch { throw UsageError("--filter: \(error)") }
    }

    /// Replays the recording `options` name; `onTrace` hears each trace event as it happens.
    public static func run(_ options: Options, onTrace: ((TraceEvent) -> Void)? = nil) throws -> Result {
        // Before the file is read: a bad number is the caller's mistake, whatever the file holds.
        try checkRefreshSeconds(options)
        let recording = try EvemuRecording.load(path: options.file, descriptionPath: options.descriptionFile)
        return try run(recording, options, fonts: try FontLibrary(), onTrace: onTrace)
    }

    /// The refresh time bounds the virtual time the replay runs on for (four times it): outside
    /// its range a replay could run without end.
    private static func checkRefreshSeconds(_ options: Options) throws {
        guard NumericOption.refreshSeconds.contains(options.refreshSeconds) else {
            throw UsageError("refresh seconds \(options.refreshSeconds) outside \(NumericOption.refreshSeconds)")
        }
    }

    /// A recording already read, on `fonts` (the fuzz target reuses one library for every
    /// input): the kiosk on a headless display, stepped in virtual time.
    public static func run(_ recording: EvemuRecording, _ options: Options, fonts: FontLibrary,
                           onTrace: ((TraceEvent) -> Void)? = nil) throws -> Result {
        try checkRefreshSeconds(options)
        if let dir = options.framesDirectory {
            try Folders.create(dir)
        }
        // The whole configuration, data source included, as `run` takes it; without one, the
        // sample data, already shown, answering in `--refresh-seconds`.
        var configuration = options.configuration ?? KioskConfiguration()
        if options.configuration == nil { configuration.refreshSeconds = options.refreshSeconds }
        if options.rotation != .none { configuration.displayRotation = options.rotation }
        if let resample = options.resample { configuration.resample = resample }
        // A replay never touches the kiosk's saved state, nor reads an earlier replay's.
        let state = try ScratchDirectory("replay")
        configuration.stateDirectory = state.path
        let display = HeadlessDisplay(width: options.width, height: options.height)
        display.frameDirectory = options.framesDirectory
        let kiosk = try Kiosk.virtual(configuration: configuration, display: display, fonts: fonts) { c, animator, executor in
            options.configuration == nil ? SampleItemSource(delay: c.refreshSeconds, animator: animator)
                : RunCommand.source(for: c, animator: animator, executor: executor)
        }
        let host = kiosk.host, clock = host.clock
        if let rate = options.displayRate {
            guard NumericOption.displayRate.contains(rate) else { throw UsageError("display rate \(rate) outside \(NumericOption.displayRate)") }
            display.pacing = (1 / rate, { clock.now })
            host.frameInterval = 1 / rate
            host.stage.scene.dispatcher.presentationDelay = 1 / rate
            if options.frameWindow != .off {
                // Vblanks on a grid from the clock's zero, frames started the window before one.
                display.vblankPhase = 0
                host.stage.presenter.scheduler = FrameScheduler(period: 1 / rate, phase: 0, mode: options.frameWindow)
            }
        }
        host.stage.scene.dispatcher.sampling = options.sampling
        let list = kiosk.list
        list.tracesTimings = options.timings
        var failure: (any Error)?
        host.stage.presenter.onError = { failure = failure ?? $0 }
        let time = VirtualTimeDriver(host)
        if options.configuration == nil { list.showFirstPage() }
        kiosk.start(at: clock.now, loading: options.configuration != nil)
        time.settle(limit: max(30, options.refreshSeconds * 4))
        if options.startShare > 0 || options.startPoints != nil {
            let view = list.list
            let low = view.minimumContentOffset.y, high = max(low, view.maximumContentOffset.y)
            let y = options.startPoints.map { min(high, low + $0) } ?? (low + (high - low) * min(1, options.startShare)).rounded()
            view.setContentOffset(Point(x: view.contentOffset.x, y: y), animated: false)
            time.settle(limit: 1)
        }
        var assembly = TouchAssembler.Configuration(positionAxes: options.positionAxes ?? configuration.positionAxes)
        assembly.maxProtocolAJump = .infinity
        var replay = try EvemuReplay(recording: recording, width: Double(options.width), height: Double(options.height),
                                     configuration: assembly)
        var mapping = configuration.host.touchMapping()
        if let filter = options.filter { mapping.filter = filter }
        replay.assembler.mapping.touch = mapping
        let start = clock.now + 0.1
        let startOffset = list.list.contentOffset
        list.beginTrace(origin: start)
        list.onTrace = onTrace
        let assembled = replay.assemble(start: start)
        if assembled.droppedContacts > 0 {
            let warning = InputError.tooManyContacts(device: recording.device.name, limit: TouchAssembler.maxContacts)
            Log.warning("\(options.file): \(warning) (\(assembled.droppedContacts) dropped)")
        }
        time.play(assembled.frames)
        // Run on until every animation has settled (a refresh completes, the list stops).
        time.settle(limit: max(30, options.refreshSeconds * 4))
        // A frame that could not be saved is a failed replay, not a silent gap.
        if let failure { throw failure }
        let view = list.list
        let range = (x: view.minimumContentOffset.x...max(view.minimumContentOffset.x, view.maximumContentOffset.x),
                     y: view.minimumContentOffset.y...max(view.minimumContentOffset.y, view.maximumContentOffset.y))
        return withExtendedLifetime((state, kiosk)) { Result(trace: list.trace, framesPresented: display.framesPresented, scrollRange: range,
                                                  startOffset: startOffset, missedVblanks: host.stage.presenter.missedVblanks) }
    }
}
