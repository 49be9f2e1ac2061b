import PanelApp
import PanelRefresh

/// A runtime under test on a ``KioskHost`` stepped in virtual time, as the program steps it in
/// real time: the tests' only way to move the runtime's clock.
@MainActor
struct VirtualKiosk {
    let host: KioskHost
    /// The virtual-time driver over the host.
    var time: VirtualTimeDriver { VirtualTimeDriver(host) }

    init(_ runtime: PanelRuntime) throws {
        host = try KioskHost(configuration: Configuration(), display: runtime.display, clock: runtime.scene.clock) { _ in runtime }
    }

    /// Runs until nothing waits (at most `limit` seconds).
    func settle(limit: Double = 10) { time.settle(limit: limit) }
    /// Runs what is due until `end`, seconds.
    func run(until end: Double) { time.advance(to: end) }
    /// Lets `seconds` pass.
    func wait(_ seconds: Double) { time.advance(by: seconds) }
    /// Touch frames at their time stamps, as a touchscreen would deliver them.
    func play(_ frames: [TouchFrame]) { time.play(frames) }
}
