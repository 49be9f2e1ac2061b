import Glibc
import PanelDisplay
import PanelRefresh
import PanelRender

/// The demo on a real panel: the same scripted session as the headless demo, as touches
/// scheduled on a ``KioskHost``, played by whichever driver runs the host (real time on the
/// panel, virtual time in the tests).
@MainActor
public enum LiveDemo {
    /// The script: pull to refresh, then swipes up until there is no more data, as touch frames
    /// starting at `start` (seconds of the host's clock).
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

    /// Seconds the sample source takes for a page.
    static let loadSeconds = 1.0

    /// A host showing three pages of sample data with the script scheduled from `clock`'s now.
    public static func host(display: any Display, fonts: FontLibrary, notifier: any ServiceNotifier,
                            clock: ManualClock) throws -> KioskHost {
        var configuration = Configuration()
        configuration.stateDirectory = Folders.temporary
        configuration.pageSize = 20
        let host = try KioskHost(configuration: configuration, display: display, clock: clock) { c in
            try PanelRuntime(configuration: c, display: display, fonts: fonts, notifier: notifier,
                             source: { SampleItemSource(pages: 3, delay: loadSeconds, animator: $0) }, clock: clock)
        }
        let headerHeight = host.runtime.session?.header.height ?? 54
        // The script begins once the first page, loaded at the start as the kiosk does, is in.
        host.schedule(script(width: Double(display.width), height: Double(display.height), start: clock.now + loadSeconds,
                             headerHeight: headerHeight))
        return host
    }
}
