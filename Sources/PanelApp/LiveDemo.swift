import FoundationEssentials
import Glibc
import PanelDisplay
import PanelRefresh
import PanelRender

/// The demo on a real panel: the same scripted session as the headless demo, played in real
/// time through `PanelRuntime`, frames paced by the display.
@MainActor
public enum LiveDemo {
    /// The script: pull to refresh, then swipes up until there is no more data, as touch frames
    /// starting at `start` (seconds of `clock`).
    static func script(width: Double, height: Double, start: Double, headerHeight: Double) -> [TouchFrame] {
        let band = RubberBand(dimension: height)
        let pull = min(band.distance(forOverscroll: headerHeight * 1.5) + GestureConstants.touchSlop, height * 0.9)
        var script = GestureScript(start: start + 0.5)
        script.drag(from: Point(x: width / 2, y: height * 0.05), to: Point(x: width / 2, y: height * 0.05 + pull), duration: 0.5, hold: 0.2)
        for _ in 0..<16 {
            script.wait(1.5)
            script.drag(from: Point(x: width / 2, y: height * 0.85), to: Point(x: width / 2, y: height * 0.2), duration: 0.15)
        }
        return script.frames
    }

    /// Plays the session until the script is done and everything settled.
    /// - Parameters:
    ///   - now: the monotonic time, seconds (the system clock in the program, a fake in tests).
    ///   - waitUntil: blocks until the given time or until the display has news; returns
    ///     whether a frame completed (the DRM card's event), so the runtime can draw the next.
    public static func run(display: any Display, fonts: FontLibrary, notifier: any ServiceNotifier,
                           now: () -> Double, waitUntil: (Double) -> Bool) throws -> PanelSession {
        var configuration = Configuration()
        configuration.stateDirectory = FileManager.default.temporaryDirectory.path
        configuration.pageSize = 20
        let clock = ManualClock(now: now())
        let runtime = try PanelRuntime(configuration: configuration, display: display, fonts: fonts, notifier: notifier,
                                   source: { SampleItemSource(pages: 3, delay: 1, animator: $0) }, clock: clock)
        runtime.session.showFirstPage()
        let frames = script(width: Double(display.width), height: Double(display.height), start: clock.now,
                            headerHeight: runtime.session.header.height)
        runtime.pump()
        var pending = frames[...]
        let end = (frames.last?.timestamp ?? clock.now) + 3
        // Until everything is loaded and has settled (or the script ran out).
        while clock.now < end + 10 {
            if runtime.session.footer.state == .noMoreData && runtime.nextWakeUp == nil { break }
            if pending.isEmpty && runtime.nextWakeUp == nil && clock.now >= end { break }
            clock.advance(to: now())
            var due: [TouchFrame] = []
            while let next = pending.first, next.timestamp <= clock.now {
                due.append(next)
                pending = pending.dropFirst()
            }
            if !due.isEmpty { runtime.handle(due) }
            runtime.pump()
            let wake = [runtime.nextWakeUp, pending.first?.timestamp].compactMap { $0 }.min() ?? end
            if waitUntil(max(wake, clock.now + 0.001)) { runtime.frameCompleted() }
        }
        runtime.stop()
        return runtime.session
    }
}
