import Glibc
import PanelHost

/// The demo on a real panel: the same scripted session as the headless demo, as touches
/// scheduled on a `KioskHost`, played by whichever driver runs the host (real time on the
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

    /// A kiosk showing three pages of sample data with the script scheduled from `clock`'s now,
    /// on `executor` (a real one on the panel and in a window, a virtual one in the tests).
    public static func kiosk(display: any Display, fonts: FontLibrary, notifier: any ServiceNotifier,
                             clock: ManualClock, executor: any WorkExecutor) throws -> Kiosk {
        var configuration = KioskConfiguration()
        configuration.stateDirectory = Folders.temporary
        configuration.pageSize = 20
        // A scripted session that ends: no return to the start after it, and no list kept in /tmp.
        (configuration.homeAfter, configuration.keepsList) = (0, false)
        let host = KioskHost(configuration: configuration.host, display: display, clock: clock, executor: executor, fonts: fonts,
                             notifier: notifier)
        let kiosk = try Kiosk(host: host, configuration: configuration, machine: .neutral, control: nil, fleet: nil, announces: true) { _, animator, _ in
            SampleItemSource(pages: 3, delay: loadSeconds, animator: animator)
        }
        // The script begins once the first page, loaded at the start as the kiosk does, is in.
        host.schedule(script(width: Double(display.width), height: Double(display.height), start: clock.now + loadSeconds,
                             headerHeight: kiosk.list.header.height))
        return kiosk
    }
}
