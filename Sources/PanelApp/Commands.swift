import FoundationEssentials
import Glibc
import PanelDisplay
import PanelInput
import PanelRefresh
import PanelRender

/// A bad command line: printed with the usage, exit code 2.
public struct UsageError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Options shared by the headless commands.
public struct ScreenOptions: Sendable {
    public var width = 800
    public var height = 480

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
    public struct Options: Sendable {
        public var file: String
        public var descriptionFile: String?
        public var width = 800
        public var height = 480
        public var rotation: Rotation = .none
        public var framesDirectory: String?
        public var refreshSeconds = 1.0
        public var positionAxes: (x: UInt16, y: UInt16)?
        /// Input mapping, locale and styles from a configuration file (`--config`).
        public var configuration: Configuration?

        public init(file: String) { self.file = file }
    }

    public struct Result {
        public var trace: [TraceEvent]
        public var framesPresented: Int
    }

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
    /// input).
    public static func run(_ recording: EvemuRecording, _ options: Options, fonts: FontLibrary,
                           onTrace: ((TraceEvent) -> Void)? = nil) throws -> Result {
        try checkRefreshSeconds(options)
        let scene = Scene(size: Size(width: Double(options.width), height: Double(options.height)))
        scene.screen.textMeasurer = fonts
        if let dir = options.framesDirectory {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        let frames = HeadlessFramePath(scene: scene, fonts: fonts, directory: options.framesDirectory)
        let source = SampleItemSource(delay: options.refreshSeconds, animator: scene.animator)
        let config = options.configuration ?? Configuration()
        let localizer = RefreshLocalizer(language: RefreshLanguage(code: config.locale ?? "en"))
        let session = PanelSession(scene: scene, source: source, localizer: localizer,
                                   header: try Appearance.header(config, localizer: localizer, screen: (options.width, options.height)),
                                   footer: try Appearance.footer(config, localizer: localizer),
                                   orientation: config.orientation == .vertical ? .vertical : .horizontal,
                                   trailer: Appearance.trailer(config, localizer: localizer))
        if options.configuration != nil { Appearance.styleRows(session.list, config) }
        session.onTrace = onTrace
        session.renderSeconds = { frames.driver.lastTiming?.renderSeconds }
        session.showFirstPage()
        scene.frame()
        var configuration = TouchAssembler.Configuration(positionAxes: options.positionAxes ?? config.positionAxes)
        configuration.maxProtocolAJump = .infinity
        var replay = try EvemuReplay(recording: recording, width: Double(options.width), height: Double(options.height),
                                     configuration: configuration)
        // The picture's turn (--rotation, else display.rotation) and the sensor's own.
        let pictureRotation = options.rotation == .none ? config.displayRotation : options.rotation
        replay.assembler.mapping.rotation = pictureRotation.adding(config.rotation)
        replay.assembler.mapping.calibration = config.calibration ?? .identity
        replay.assembler.mapping.swapAxes = config.swapAxes
        replay.assembler.mapping.invertX = config.invertX
        replay.assembler.mapping.invertY = config.invertY
        let start = scene.clock.now + 0.1
        session.traceOrigin = start
        let assembled = replay.assemble(start: start)
        if assembled.droppedContacts > 0 {
            let warning = InputError.tooManyContacts(device: recording.device.name, limit: TouchAssembler.maxContacts)
            Log.warning("\(options.file): \(warning) (\(assembled.droppedContacts) dropped)")
        }
        scene.play(assembled.frames)
        // Run on until every animation has settled (a refresh completes, the list stops).
        scene.settle(limit: max(30, options.refreshSeconds * 4))
        // A frame that could not be saved is a failed replay, not a silent gap.
        try frames.check()
        return Result(trace: session.trace, framesPresented: frames.display.framesPresented)
    }
}

/// `panel-refresh demo`: a scripted session on the headless display, frames saved as PNG files
/// and one animated PNG.
@MainActor
public enum DemoCommand {
    public struct Result {
        public var directory: String
        public var frames: Int
        public var animation: String
        public var trace: [TraceEvent]
        /// The frame file showing each key moment: "pulling", "refreshing", "loading",
        /// "no-more-data" (the first frame drawn after the state was entered).
        public var moments: [String: String]
    }

    public static func run(width: Int = 800, height: Int = 480, directory: String) throws -> Result {
        let framesDirectory = directory + "/frames"
        try FileManager.default.createDirectory(atPath: framesDirectory, withIntermediateDirectories: true)
        let scene = Scene(size: Size(width: Double(width), height: Double(height)))
        let fonts = try FontLibrary()
        scene.screen.textMeasurer = fonts
        let frames = HeadlessFramePath(scene: scene, fonts: fonts, directory: framesDirectory)
        let display = frames.display
        // Frames at 30 Hz keep the folder and the animation small.
        scene.frameInterval = 1.0 / 30
        let source = SampleItemSource(pages: 3, delay: 1, animator: scene.animator)
        let session = PanelSession(scene: scene, source: source, localizer: RefreshLocalizer())
        var moments: [String: String] = [:]
        var pending: String?
        session.onTrace = { event in
            switch event {
            case let .state(_, "header", _, to) where to == .pulling && moments["pulling"] == nil: pending = "pulling"
            case let .state(_, "header", _, to) where to == .refreshing && moments["refreshing"] == nil: pending = "refreshing"
            case let .state(_, "footer", _, to) where to == .refreshing && moments["loading"] == nil: pending = "loading"
            case let .state(_, "footer", _, to) where to == .noMoreData: pending = "no-more-data"
            case .frame:
                if let moment = pending {
                    moments[moment] = framesDirectory + "/frame-" + TextFormat.padded(display.framesPresented, 5) + ".png"
                    pending = nil
                }
            default: break
            }
        }
        session.showFirstPage()
        scene.frame()
        let w = Double(width), h = Double(height)
        // Pull to refresh: far enough that the rubber band shows 1.5 times the header's
        // trigger distance, whatever the screen's height.
        let band = RubberBand(dimension: h)
        let pull = min(band.distance(forOverscroll: session.header.height * 1.5) + GestureConstants.touchSlop, h * 0.9)
        var script = GestureScript(start: scene.clock.now + 0.5)
        script.drag(from: Point(x: w / 2, y: h * 0.05), to: Point(x: w / 2, y: h * 0.05 + pull), duration: 0.5, hold: 0.2)
        session.traceOrigin = scene.clock.now + 0.5
        scene.play(script.frames)
        scene.settle()
        // Swipe up until everything is loaded.
        for _ in 0..<10 where session.footer.state != .noMoreData {
            var swipe = GestureScript(start: scene.clock.now + 0.3)
            swipe.drag(from: Point(x: w / 2, y: h * 0.85), to: Point(x: w / 2, y: h * 0.2), duration: 0.15)
            scene.play(swipe.frames)
            scene.settle()
        }
        scene.wait(0.5)
        try frames.check()
        let files = try FileManager.default.contentsOfDirectory(atPath: framesDirectory).filter { $0.hasSuffix(".png") }.sorted()
        let animation = directory + "/demo.png"
        try AnimatedPNG.write(frames: files.map { framesDirectory + "/" + $0 }, delay: 1.0 / 30, to: animation)
        return Result(directory: directory, frames: files.count, animation: animation, trace: session.trace, moments: moments)
    }
}

/// A scene drawn, as on the panel, through the program's one frame path onto a headless
/// display (saving each frame into `directory` when given), remembering a frame that
/// could not be presented: the demo and replays.
@MainActor
final class HeadlessFramePath {
    let display: HeadlessDisplay
    let driver: FrameDriver
    private var error: (any Error)?

    init(scene: Scene, fonts: FontLibrary, directory: String?) {
        display = HeadlessDisplay(width: Int(scene.screen.size.width), height: Int(scene.screen.size.height))
        display.frameDirectory = directory
        driver = FrameDriver(screen: scene.screen, renderer: Renderer(fonts: fonts), display: display, now: monotonicNow)
        driver.onError = { [weak self] in self?.error = $0 }
        scene.drawer = { [driver] in driver.drawFrame() }
    }

    /// Throws the last present failure, if there was one.
    func check() throws {
        if let error { throw error }
    }
}
