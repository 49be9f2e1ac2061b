import Glibc
import PanelHost

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
        /// The animated PNG of the whole demo.
        public var animation: String
        /// Every trace event, in order.
        public var trace: [TraceEvent]
        /// The frame file showing each key moment: "first-load" (the Loading view), "detail" (a
        /// train's page open), "failed" (the refresh that found no server), "pulling",
        /// "refreshing", "loading", "no-more-data" (the first frame drawn after it); "new-rows"
        /// (the chip after a refresh added a train above the reader's place), "ticked" (a minute
        /// on: the clock and the rows' times), "dimmed" (idle, the board dimmed).
        public var moments: [String: String]
    }

    /// Plays the scripted demo on a `width`×`height` headless display, writing into `directory`:
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
        var configuration = KioskConfiguration()
        let state = try ScratchDirectory("demo")
        configuration.stateDirectory = state.path
        try configuration.set("rows.tap", "detail")
        // The script's moments, not a return to the start between them; a demo keeps no list.
        (configuration.homeAfter, configuration.keepsList) = (0, false)
        // A wall board: its name and clock over the rows, dimmed when nobody reads it.
        try configuration.set("appearance.board-title", "Central Station")
        try configuration.set("appearance.board-clock", "true")
        try configuration.set("display.dim-after", "90")
        try configuration.set("display.dim-brightness", "40")
        var made: DemoBoard?
        var madeError: (any Error)?
        let kiosk = try Kiosk.virtual(configuration: configuration, display: display, fonts: fonts, source: { _, animator, _ in
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
        let host = kiosk.host, clock = host.clock
        // Frames at 30 Hz keep the folder and the animation small.
        host.frameInterval = 1.0 / 30
        let list = kiosk.list
        // The refresh that fails is the script's (the banner shows it): not a warning for the
        // person who ran the demo.
        list.onError = { _ in }
        var failure: (any Error)?
        host.stage.presenter.onError = { failure = failure ?? $0 }
        var moments: [String: String] = [:]
        var pending: String?
        // The first load's own header states are not the moments of the pulls after it.
        var touched = false
        list.onTrace = { event in
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
        // Until what moves has stopped: the board's clock and the rows' times wake the loop each
        // minute, so the driver's settle (until nothing waits) would skip to the next minute.
        func settle() {
            for _ in 0..<900 where !host.stage.isIdle || host.executor.nextArrival != nil { time.advance(by: 1.0 / 30) }
        }
        func mark(_ moment: String) {
            moments[moment] = framesDirectory + "/frame-" + TextFormat.padded(display.framesPresented, 5) + ".png"
        }
        list.traceOrigin = clock.now
        kiosk.start(at: clock.now)
        settle()
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
        settle()
        // Pull to refresh, twice: far enough that the rubber band shows 1.5 times the header's
        // trigger distance, whatever the screen's height. The first finds the server out of
        // reach; the second brings the board a minute on.
        let band = RubberBand(dimension: h)
        let pull = min(band.distance(forOverscroll: list.header.height * 1.5) + GestureConstants.touchSlop, h * 0.9)
        for failing in [true, false] {
            board.failNext = failing
            var script = GestureScript(start: clock.now + 0.5)
            script.drag(from: Point(x: w / 2, y: h * 0.05), to: Point(x: w / 2, y: h * 0.05 + pull), duration: 0.5, hold: 0.2)
            time.play(script.frames)
            settle()
            time.advance(by: failing ? 1.5 : 0.3)
        }
        // Swipe up until everything is loaded.
        for _ in 0..<10 where list.footer.state != .noMoreData {
            var swipe = GestureScript(start: clock.now + 0.3)
            swipe.drag(from: Point(x: w / 2, y: h * 0.85), to: Point(x: w / 2, y: h * 0.2), duration: 0.15)
            time.play(swipe.frames)
            settle()
        }
        time.advance(by: 0.5)
        // The board refreshes by itself while someone reads further down: a train announced
        // above the place kept, and the chip that says so; tapped, the list goes to its top.
        list.refreshAutomatically()
        settle()
        time.advance(by: 0.5)
        mark("new-rows")
        if let chip = list.newChip {
            var tap = GestureScript(start: clock.now + 0.3)
            tap.tap(at: Point(x: chip.frame.midX, y: chip.frame.midY))
            time.play(tap.frames)
            settle()
        }
        // A minute on: the clock and every "in N min" move, with nothing fetched.
        time.advance(by: ItemClock.nextMinute(after: clock.date).timeIntervalSince(clock.date) + 0.5)
        mark("ticked")
        // Nobody reads it: the board dims (drawn darker here, the backlight on a panel).
        time.advance(to: host.stage.lastActivity + 91)
        mark("dimmed")
        if let failure { throw failure }
        guard let names = DirectoryNames.of(framesDirectory) else {
            throw Folders.Failure(path: framesDirectory, errno: errno)
        }
        let files = names.filter { $0.hasSuffix(".png") }.sorted()
        let animation = directory + "/demo.png"
        try AnimatedPNG.write(frames: files.map { framesDirectory + "/" + $0 }, delay: 1.0 / 30, to: animation)
        return withExtendedLifetime((state, kiosk)) {
            Result(directory: directory, frames: files.count, animation: animation, trace: list.trace, moments: moments)
        }
    }
}
