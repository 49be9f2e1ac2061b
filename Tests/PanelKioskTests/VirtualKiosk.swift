import Foundation
import PanelTestSupport
import PanelKiosk

/// A kiosk under test on a host stepped in virtual time, as the program steps it in real time:
/// the tests' only way to move its clock.
@MainActor
struct VirtualKiosk {
    let kiosk: Kiosk
    var host: KioskHost { kiosk.host }
    var stage: Stage { kiosk.host.stage }
    /// The list shown now.
    var list: KioskList { kiosk.list }
    var clock: ManualClock { kiosk.host.clock }
    /// The virtual-time driver over the host.
    var time: VirtualTimeDriver { VirtualTimeDriver(kiosk.host) }

    /// A kiosk of `configuration` on `display` over the source `source` makes (by default the
    /// configured one), telling `notifier`.
    init(configuration: KioskConfiguration = KioskConfiguration(), display: any Display = HeadlessDisplay(width: 400, height: 240),
         fonts: FontLibrary? = nil, notifier: any ServiceNotifier = SilentNotifier(), machine: MachineEnvironment = .neutral,
         backlights: String? = nil, announces: Bool = false,
         source: ((KioskConfiguration, Animator, any WorkExecutor) -> any ItemSource)? = nil) throws {
        kiosk = try Kiosk.virtual(configuration: configuration, display: display, fonts: fonts, notifier: notifier, backlights: backlights,
                                  machine: machine, announces: announces, source: source)
    }

    /// A kiosk whose source `source` makes on the scene's animator.
    init(configuration: KioskConfiguration = KioskConfiguration(), display: any Display = HeadlessDisplay(width: 400, height: 240),
         notifier: any ServiceNotifier = SilentNotifier(), source: @escaping (Animator) -> any ItemSource) throws {
        try self.init(configuration: configuration, display: display, notifier: notifier) { _, animator, _ in source(animator) }
    }

    /// Loads the first page and draws the first frame, now.
    func start(loading: Bool = true) { kiosk.start(at: clock.now, loading: loading) }
    /// Runs until nothing waits (at most `limit` seconds).
    @discardableResult
    func settle(limit: Double = 10) -> Bool { time.settle(limit: limit) }
    /// Runs what is due until `end`, seconds.
    func run(until end: Double) { time.advance(to: end) }
    /// Lets `seconds` pass.
    func wait(_ seconds: Double) { time.advance(by: seconds) }
    /// Touch frames at their time stamps, as a touchscreen would deliver them.
    func play(_ frames: [TouchFrame]) { time.play(frames) }
}

/// A kiosk configuration in English over `feed`, written to a file the file source reads
/// (`path`, to write the feed anew), its state in a scratch directory.
@MainActor
func fileFed(_ feed: String, pageSize: Int? = nil) throws -> (configuration: KioskConfiguration, path: String) {
    var c = KioskConfiguration()
    c.stateDirectory = try scratchDirectory("state")
    c.locale = "en"
    if let pageSize { c.pageSize = pageSize }
    let path = try scratchDirectory("feed") + "/list.json"
    try Data(feed.utf8).write(to: URL(fileURLWithPath: path))
    c.source = .file
    c.file = path
    return (c, path)
}
