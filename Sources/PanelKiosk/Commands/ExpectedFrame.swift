import Glibc
import PanelHost

/// `panel-refresh expected-frame`: what the kiosk shows with the default configuration (or a
/// given one) after `refreshes` refreshes of its data, settled, rendered by the same code on the headless
/// display: the VM harness compares the panel's screendumps with it.
@MainActor
public enum ExpectedFrame {
    /// With `refreshing`, one more refresh is begun and the frame is taken `refreshingFor`
    /// seconds later, while the header shows its refreshing state.
    /// `width`×`height` is the picture's size (the glass's with sides exchanged for 90 and 270
    /// degrees: see `onGlass`).
    /// `configuration`: the kiosk's (default: the default one), its state directory replaced.
    public static func render(width: Int, height: Int, refreshes: Int, refreshing: Bool = false,
                              refreshingFor: Double = 0.5, configuration given: KioskConfiguration = KioskConfiguration()) throws -> Surface {
        guard NumericOption.refreshes.contains(refreshes) else {
            throw UsageError("\(refreshes) refreshes outside \(NumericOption.refreshes)")
        }
        var configuration = given
        let state = try ScratchDirectory("expected-frame")
        configuration.stateDirectory = state.path
        let display = HeadlessDisplay(width: width, height: height)
        let kiosk = try Kiosk.virtual(configuration: configuration, display: display)
        let clock = kiosk.host.clock
        let time = VirtualTimeDriver(kiosk.host)
        kiosk.start(at: clock.now)
        for index in 0..<refreshes {
            if index > 0 { kiosk.list.header.beginRefreshing() }
            // A refresh of the sample data settles within seconds; this bounds a broken one.
            time.settle(limit: 170)
        }
        if refreshing {
            kiosk.list.header.beginRefreshing()
            time.advance(by: refreshingFor)
        }
        return withExtendedLifetime((state, kiosk)) { display.backSurface }
    }

    /// `hw-check`'s test pattern at this size, for level 1's screendump; `damaged`: with the
    /// square of its second, partial frame.
    public static func testPattern(width: Int, height: Int, damaged: Bool = false) -> Surface {
        let surface = Surface(width: width, height: height)
        HardwareCheck.pattern(surface)
        if damaged { HardwareCheck.damageSquare(surface) }
        return surface
    }

    /// The picture as the glass shows it when turned by `rotation` (the display's copy).
    public static func onGlass(_ picture: Surface, rotation: Rotation) -> Surface { picture.onGlass(turnedBy: rotation) }

    /// P6 PPM, as QEMU's screendump writes.
    public static func ppm(_ surface: Surface) -> [UInt8] {
        var data = Array("P6\n\(surface.width) \(surface.height)\n255\n".utf8)
        data.reserveCapacity(data.count + surface.width * surface.height * 3)
        for y in 0..<surface.height {
            for x in 0..<surface.width {
                let p = surface.pixel(x: x, y: y)
                data.append(contentsOf: [UInt8(p >> 16 & 0xff), UInt8(p >> 8 & 0xff), UInt8(p & 0xff)])
            }
        }
        return data
    }
}

