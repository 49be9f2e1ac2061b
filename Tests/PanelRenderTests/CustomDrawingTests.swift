import Testing
@testable import PanelRender
import PanelUI

/// A gauge an app draws itself: a track, a filled part as wide as its value, a needle line,
/// a triangle mark, and the value as text. It says when it changed; the renderer does the rest.
@MainActor
final class Gauge: View {
    var value = 0.25 { didSet { setNeedsDisplay() } }
    var drawnTimes = 0
    override func draw(in context: any DrawingContext) {
        drawnTimes += 1
        let size = context.size
        context.fill(Rect(x: 10, y: 10, width: size.width - 20, height: 20), color: Color(red: 220, green: 220, blue: 220), cornerRadius: 10)
        context.fill(Rect(x: 10, y: 10, width: (size.width - 20) * value, height: 20), color: Color(red: 0, green: 120, blue: 255))
        let x = 10 + (size.width - 20) * value
        context.line(from: Point(x: x, y: 40), to: Point(x: x, y: 70), width: 4, color: .black)
        context.fill(polygon: [Point(x: x - 8, y: 80), Point(x: x + 8, y: 80), Point(x: x, y: 72)], color: Color(red: 255, green: 0, blue: 0))
        context.draw(text: "\(Int(value * 100)) %", in: Rect(x: 10, y: 90, width: size.width - 20, height: 30), font: .bold(20), color: .black)
        // Past its own bounds: clipped away.
        context.fill(Rect(x: -50, y: -50, width: 40, height: 40), color: Color(red: 0, green: 255, blue: 0))
    }
}

@MainActor
@Suite("A view that draws itself")
struct CustomDrawingTests {
    static func rgb(_ s: Surface, _ x: Int, _ y: Int) -> UInt32 { s.pixel(x: x, y: y) & 0xff_ffff }

    /// A 320x200 scene with the gauge at (60, 40), 220x130, on white.
    static func stage() throws -> (FontLibrary, Scene, Gauge) {
        let fonts = try FontLibrary()
        let scene = Scene(size: Size(width: 320, height: 200))
        scene.screen.textMeasurer = fonts
        let gauge = Gauge(frame: Rect(x: 60, y: 40, width: 220, height: 130))
        gauge.backgroundColor = .white
        scene.screen.rootView.addSubview(gauge)
        return (fonts, scene, gauge)
    }

    @Test("fills, rounded ends, a line, a polygon and text land where the view put them, clipped to its bounds")
    func primitives() throws {
        let (fonts, scene, _) = try Self.stage()
        let surface = Surface(width: 320, height: 200)
        Renderer(fonts: fonts).render(scene.screen, into: surface)
        // Filled part (blue) and the track's rest (grey), inside the view at (60, 40).
        #expect(Self.rgb(surface, 60 + 30, 40 + 20) == 0x0078ff)
        #expect(Self.rgb(surface, 60 + 150, 40 + 20) == 0xdcdcdc)
        // The track's rounded far end leaves its corner white.
        #expect(Self.rgb(surface, 60 + 209, 40 + 10) == 0xffffff)
        #expect(Self.rgb(surface, 60 + 200, 40 + 20) == 0xdcdcdc)
        // The needle at x = 10 + 200 * 0.25 = 60, 4 points wide.
        #expect(Self.rgb(surface, 60 + 60, 40 + 55) == 0x000000)
        #expect(Self.rgb(surface, 60 + 66, 40 + 55) == 0xffffff)
        // The triangle's middle is red.
        #expect(Self.rgb(surface, 60 + 60, 40 + 78) == 0xff0000)
        // The text has dark pixels in its line.
        var dark = 0
        for y in (40 + 90)..<(40 + 120) { for x in (60 + 10)..<(60 + 110) where Self.rgb(surface, x, y) < 0x404040 { dark += 1 } }
        #expect(dark > 50, "\(dark) dark pixels of text")
        // Nothing outside the view: the green square at (-50, -50) was clipped.
        for y in 0..<40 { for x in 0..<60 { #expect(Self.rgb(surface, x, y) != 0x00ff00) } }
    }

    @Test("a changed value redraws from its damage alone, equal to a full render; a frame that does not reach it does not ask it")
    func damageTracked() throws {
        let (fonts, scene, gauge) = try Self.stage()
        let other = View(frame: Rect(x: 0, y: 180, width: 40, height: 20))
        scene.screen.rootView.addSubview(other)
        let renderer = Renderer(fonts: fonts)
        let incremental = Surface(width: 320, height: 200), fresh = Surface(width: 320, height: 200)
        var differing: [Int] = []
        // The glass starts with a whole frame; each later frame draws only its damage.
        renderer.render(scene.screen, into: incremental)
        scene.onFrame = { [unowned scene] damage in
            renderer.render(scene.screen, into: incremental, damage: damage)
            renderer.render(scene.screen, into: fresh)
            var n = 0
            for y in 0..<200 { for x in 0..<320 where incremental.pixel(x: x, y: y) != fresh.pixel(x: x, y: y) { n += 1 } }
            differing.append(n)
        }
        scene.frame()
        for value in [0.5, 0.9, 0.1] {
            gauge.value = value
            scene.frame()
        }
        #expect(differing == [0, 0, 0, 0])
        #expect(Self.rgb(incremental, 60 + 10 + 180, 40 + 20) == 0xdcdcdc, "at 0.1 the far part is track again")
        let before = gauge.drawnTimes
        other.backgroundColor = .black
        renderer.render(scene.screen, into: incremental, damage: [Rect(x: 0, y: 180, width: 40, height: 20)])
        #expect(gauge.drawnTimes == before)
    }
}

@Suite("Rounded rectangles filled in parts")
struct RoundedFillTests {
    @Test("whole or fractional edges, any radius: the boxes and cut corners draw what the whole fan draws, within anti-aliasing's rounding, no seam",
          arguments: [(10.0, 10.0, 200.0, 16.0, 8.0), (10.3, 20.7, 133.6, 16.0, 8.0), (5.5, 5.25, 80.2, 40.9, 12.0),
                      (0.0, 0.0, 300.0, 120.0, 12.0), (12.75, 3.1, 30.0, 30.0, 15.0), (2.2, 2.2, 50.5, 9.5, 3.3)])
    func matchesTheFan(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        let rect = Rect(x: x, y: y, width: width, height: height)
        let color = Color(red: 0, green: 122, blue: 255)
        let parts = Surface(width: 320, height: 140), fan = Surface(width: 320, height: 140)
        for surface in [parts, fan] { Canvas(surface: surface).fill(Rect(x: 0, y: 0, width: 320, height: 140), color: .white) }
        Canvas(surface: parts).fillRoundedRect(rect, radius: radius, color: color)
        Canvas(surface: fan).fill(triangles: Shapes.roundedRect(rect, radius: radius), color: color)
        var worst = 0
        for py in 0..<140 {
            for px in 0..<320 {
                let a = parts.pixel(x: px, y: py), b = fan.pixel(x: px, y: py)
                for shift in [0, 8, 16] as [UInt32] { worst = max(worst, abs(Int((a >> shift) & 0xff) - Int((b >> shift) & 0xff))) }
            }
        }
        #expect(worst <= 12, "the most a channel differs: \(worst)")
    }
}

/// A ring gauge and a pie slice, as an app's own view draws them.
@MainActor
final class Dial: View {
    override func draw(in context: any DrawingContext) {
        // A quarter of a ring 10 points wide about (50, 50), radius 30, from the top clockwise.
        context.stroke(arcAround: Point(x: 50, y: 50), radius: 30, from: -Double.pi / 2, to: 0, width: 10, color: Color(red: 0, green: 0, blue: 255))
        // A third of a disc about (150, 50), radius 40, from the right going down.
        context.fill(sectorAround: Point(x: 150, y: 50), radius: 40, from: 0, to: 2 * Double.pi / 3, color: Color(red: 255, green: 0, blue: 0))
    }
}

@MainActor
@Suite("Arcs and sectors in a view's own drawing")
struct ArcDrawingTests {
    @Test("stroke(arcAround:) draws the ring's part between its angles and width; fill(sectorAround:) the slice of the disc, nothing else")
    func arcs() throws {
        let scene = Scene(size: Size(width: 200, height: 100))
        let dial = Dial(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        dial.backgroundColor = .white
        scene.screen.rootView.addSubview(dial)
        let surface = Surface(width: 200, height: 100)
        Renderer(fonts: try FontLibrary()).render(scene.screen, into: surface)
        func rgb(_ x: Int, _ y: Int) -> UInt32 { CustomDrawingTests.rgb(surface, x, y) }
        // The ring: on it between 12 and 3 o'clock; not at its centre, not past its width,
        // not in the quarters it does not cover.
        #expect(rgb(50 + 21, 50 - 21) == 0x0000ff, "at 45 degrees, radius 30")
        #expect(rgb(50 + 2, 50 - 30) == 0x0000ff && rgb(50 + 30, 50 - 3) == 0x0000ff, "just inside both ends")
        #expect(rgb(50 - 3, 50 - 30) == 0xffffff && rgb(50 + 30, 50 + 2) == 0xffffff, "just past both ends: cut square")
        #expect(rgb(50, 50) == 0xffffff && rgb(50 + 14, 50 - 14) == 0xffffff && rgb(50 + 28, 50 - 28) == 0xffffff)
        #expect(rgb(50 - 21, 50 - 21) == 0xffffff && rgb(50 + 21, 50 + 21) == 0xffffff)
        // The slice: from 3 o'clock to 120 degrees on, clockwise; its centre's neighbourhood
        // inside it, the rest of the disc white.
        #expect(rgb(150 + 20, 50 + 20) == 0xff0000, "at 45 degrees inside the slice")
        #expect(rgb(150 - 5, 50 + 30) == 0xff0000, "at about 100 degrees")
        #expect(rgb(150 + 20, 50 - 20) == 0xffffff, "above: not in it")
        #expect(rgb(150 - 30, 50 + 5) == 0xffffff, "at about 170 degrees: past its end")
        #expect(rgb(150 + 45, 50 + 5) == 0xffffff, "past its radius")
    }
}
