import Glibc
import PanelDisplay
import PanelInput
import PanelRefresh
import PanelRender

/// A bad command line: printed with the usage, exit code 2.
public struct UsageError: Error, CustomStringConvertible, Equatable {
    /// What is wrong with the command line, as printed before the usage.
    public var description: String
    /// A usage error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// Options shared by the headless commands.
public struct ScreenOptions: Sendable {
    /// Pixels across.
    public var width = 800
    /// Pixels down.
    public var height = 480

    /// 800x480, the demo's size.
    public init() {}

    /// Parses "WxH".
    public static func parse(_ text: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 8192, h <= 8192 else {
            throw UsageError("bad screen size \"\(text)\": want WIDTHxHEIGHT, e.g. 800x480")
        }
        return (w, h)
    }
}

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
        public var configuration: Configuration?
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
        /// Seconds before a frame's presentation the pan is sampled; nil:
        /// one period plus half the report interval (`PanResampler.sampleLatency`; the feel bench tries fixed ones).
        public var resampleLatency: Double?
        /// Where the list stands when the recording starts, as a share of its scroll range (0:
        /// the top, the default; 0.5: the middle, where a drag either way moves it in range).
        public var startShare = 0.0

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
    /// input): the kiosk's runtime on a headless display, stepped in virtual time.
    public static func run(_ recording: EvemuRecording, _ options: Options, fonts: FontLibrary,
                           onTrace: ((TraceEvent) -> Void)? = nil) throws -> Result {
        try checkRefreshSeconds(options)
        if let dir = options.framesDirectory {
            try Folders.create(dir)
        }
        // The whole configuration, data source included, as `run` takes it; without one, the
        // sample data, already shown, answering in `--refresh-seconds`.
        var configuration = options.configuration ?? Configuration()
        if options.configuration == nil { configuration.refreshSeconds = options.refreshSeconds }
        if options.rotation != .none { configuration.displayRotation = options.rotation }
        if let resample = options.resample { configuration.resample = resample }
        // A replay never touches the kiosk's saved state, nor reads an earlier replay's.
        let state = try ScratchDirectory("replay")
        configuration.stateDirectory = state.path
        let display = HeadlessDisplay(width: options.width, height: options.height)
        display.frameDirectory = options.framesDirectory
        let host = try KioskHost.virtual(configuration: configuration, display: display, fonts: fonts) { c, animator in
            options.configuration == nil ? SampleItemSource(delay: c.refreshSeconds, animator: animator)
                : RunCommand.source(for: c, animator: animator, inline: true)
        }
        let clock = host.clock
        if let rate = options.displayRate {
            guard NumericOption.displayRate.contains(rate) else { throw UsageError("display rate \(rate) outside \(NumericOption.displayRate)") }
            display.pacing = (1 / rate, { clock.now })
            host.frameInterval = 1 / rate
            host.runtime.scene.dispatcher.presentationDelay = 1 / rate
        }
        if let latency = options.resampleLatency { host.runtime.scene.dispatcher.resampleLatency = latency }
        guard let session = host.runtime.session else { throw UsageError("a replay needs the list") }
        session.tracesTimings = options.timings
        var failure: (any Error)?
        host.runtime.driver.onError = { failure = failure ?? $0 }
        let time = VirtualTimeDriver(host)
        if options.configuration == nil { session.showFirstPage() }
        host.start(at: clock.now, loading: options.configuration != nil)
        time.settle(limit: max(30, options.refreshSeconds * 4))
        if options.startShare > 0 {
            let list = session.list
            let low = list.minimumContentOffset.y, high = max(low, list.maximumContentOffset.y)
            list.setContentOffset(Point(x: list.contentOffset.x, y: (low + (high - low) * min(1, options.startShare)).rounded()), animated: false)
            time.settle(limit: 1)
        }
        var assembly = TouchAssembler.Configuration(positionAxes: options.positionAxes ?? configuration.positionAxes)
        assembly.maxProtocolAJump = .infinity
        var replay = try EvemuReplay(recording: recording, width: Double(options.width), height: Double(options.height),
                                     configuration: assembly)
        replay.assembler.mapping.touch = configuration.touchMapping()
        let start = clock.now + 0.1
        let startOffset = session.list.contentOffset
        session.beginTrace(origin: start)
        session.onTrace = onTrace
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
        let list = session.list
        let range = (x: list.minimumContentOffset.x...max(list.minimumContentOffset.x, list.maximumContentOffset.x),
                     y: list.minimumContentOffset.y...max(list.minimumContentOffset.y, list.maximumContentOffset.y))
        return withExtendedLifetime(state) { Result(trace: session.trace, framesPresented: display.framesPresented, scrollRange: range,
                                                  startOffset: startOffset) }
    }
}

/// `panel-refresh demo`: a scripted session on the headless display, frames saved as PNG files
/// and one animated PNG.
@MainActor
public enum DemoCommand {
    /// What the demo wrote.
    public struct Result {
        /// The folder written.
        public var directory: String
        /// Frames written as PNG.
        public var frames: Int
        /// The animated PNG of the whole session.
        public var animation: String
        /// Every trace event, in order.
        public var trace: [TraceEvent]
        /// The frame file showing each key moment: "first-load" (the Loading view), "detail" (a
        /// train's page open), "failed" (the refresh that found no server), "pulling",
        /// "refreshing", "loading", "no-more-data" (the first frame drawn after it).
        public var moments: [String: String]
    }

    /// Plays the scripted session on a `width`×`height` headless display, writing into `directory`:
    /// the departures board (`DemoBoard`) loads (the Loading view), a tap opens a train's page,
    /// which slides in and goes back with an edge swipe; a pull finds the server out of reach
    /// (the header's failure, then the banner over the rows), the next pull refreshes, and
    /// swipes up load the pages until there are no more.
    public static func run(width: Int = 800, height: Int = 480, directory: String) throws -> Result {
        let framesDirectory = directory + "/frames"
        try Folders.create(framesDirectory)
        let fonts = try FontLibrary()
        let display = HeadlessDisplay(width: width, height: height)
        display.frameDirectory = framesDirectory
        var configuration = Configuration()
        let state = try ScratchDirectory("demo")
        configuration.stateDirectory = state.path
        try configuration.set("rows.tap", "detail")
        var made: DemoBoard?
        var madeError: (any Error)?
        let host = try KioskHost.virtual(configuration: configuration, display: display, fonts: fonts, source: { _, animator in
            do {
                let board = try DemoBoard(pages: 3, delay: 1, animator: animator, folder: state.path, fonts: fonts)
                made = board
                return board
            } catch {
                madeError = error
                return SampleItemSource(pages: 3, delay: 1, animator: animator)
            }
        })
        if let madeError { throw madeError }
        guard let board = made else { throw UsageError("the demo's board was not made") }
        let clock = host.clock
        // Frames at 30 Hz keep the folder and the animation small.
        host.frameInterval = 1.0 / 30
        guard let session = host.runtime.session else { throw UsageError("the demo needs the list") }
        // The refresh that fails is the script's (the banner shows it): not a warning for the
        // person who ran the demo.
        session.onError = { _ in }
        var failure: (any Error)?
        host.runtime.driver.onError = { failure = failure ?? $0 }
        var moments: [String: String] = [:]
        var pending: String?
        // The first load's own header states are not the moments of the pulls after it.
        var touched = false
        session.onTrace = { event in
            if !touched, case .frame = event, moments["first-load"] == nil {
                moments["first-load"] = framesDirectory + "/frame-" + TextFormat.padded(display.framesPresented, 5) + ".png"
                return
            }
            guard touched else { return }
            switch event {
            case let .state(_, "header", _, to) where to == .pulling && moments["pulling"] == nil: pending = "pulling"
            case let .state(_, "header", _, to) where to == .refreshing && moments["refreshing"] == nil: pending = "refreshing"
            case let .state(_, "footer", _, to) where to == .refreshing && moments["loading"] == nil: pending = "loading"
            case let .state(_, "footer", _, to) where to == .noMoreData: pending = "no-more-data"
            case let .page(_, x) where x == 0 && moments["detail"] == nil: pending = "detail"
            case .error where moments["failed"] == nil: pending = "failed"
            case .frame:
                if let moment = pending {
                    moments[moment] = framesDirectory + "/frame-" + TextFormat.padded(display.framesPresented, 5) + ".png"
                    pending = nil
                }
            default: break
            }
        }
        let time = VirtualTimeDriver(host)
        session.traceOrigin = clock.now
        host.start(at: clock.now)
        time.settle()
        let w = Double(width), h = Double(height)
        touched = true
        // A train's page: tapped, read for a moment, swiped back from the leading edge.
        var tap = GestureScript(start: clock.now + 0.5)
        tap.tap(at: Point(x: w / 2, y: 72 * 2.5))
        time.play(tap.frames)
        time.advance(by: 1.2)
        var back = GestureScript(start: clock.now + 0.1)
        back.drag(from: Point(x: 6, y: h / 2), to: Point(x: w * 0.6, y: h / 2), duration: 0.35, hold: 0)
        time.play(back.frames)
        time.settle()
        // Pull to refresh, twice: far enough that the rubber band shows 1.5 times the header's
        // trigger distance, whatever the screen's height. The first finds the server out of
        // reach; the second brings the board a minute on.
        let band = RubberBand(dimension: h)
        let pull = min(band.distance(forOverscroll: session.header.height * 1.5) + GestureConstants.touchSlop, h * 0.9)
        for failing in [true, false] {
            board.failNext = failing
            var script = GestureScript(start: clock.now + 0.5)
            script.drag(from: Point(x: w / 2, y: h * 0.05), to: Point(x: w / 2, y: h * 0.05 + pull), duration: 0.5, hold: 0.2)
            time.play(script.frames)
            time.settle()
            time.advance(by: failing ? 1.5 : 0.3)
        }
        // Swipe up until everything is loaded.
        for _ in 0..<10 where session.footer.state != .noMoreData {
            var swipe = GestureScript(start: clock.now + 0.3)
            swipe.drag(from: Point(x: w / 2, y: h * 0.85), to: Point(x: w / 2, y: h * 0.2), duration: 0.15)
            time.play(swipe.frames)
            time.settle()
        }
        time.advance(by: 0.5)
        if let failure { throw failure }
        guard let names = DirectoryNames.of(framesDirectory) else {
            throw Folders.Failure(path: framesDirectory, errno: errno)
        }
        let files = names.filter { $0.hasSuffix(".png") }.sorted()
        let animation = directory + "/demo.png"
        try AnimatedPNG.write(frames: files.map { framesDirectory + "/" + $0 }, delay: 1.0 / 30, to: animation)
        return withExtendedLifetime(state) {
            Result(directory: directory, frames: files.count, animation: animation, trace: session.trace, moments: moments)
        }
    }
}
