import Testing
import PanelDisplay
import PanelRender
@testable import PanelHost

/// `display.rotation` on the headless display, as a fleet simulated without panels runs it.
@MainActor
@Suite("The headless display turned")
struct HeadlessRotationTests {
    @Test("headless with display.rotation: the UI lays out portrait on an 800x480 glass, and the glass (ctl screenshot) shows it turned, as on a card")
    func headlessTurned() throws {
        var configuration = Configuration()
        configuration.backend = .headless
        configuration.displayRotation = .clockwise90
        let display = try #require(try configuration.openDisplay() as? HeadlessDisplay)
        #expect(display.width == 480 && display.height == 800)
        #expect(display.summary == "headless 480x800, turned 90° on its 800x480 glass")
        #expect(display.glassSnapshot() == nil, "nothing on the glass before a frame")
        // The picture's top-left pixel red, its bottom-left blue: turned a quarter clockwise,
        // the first is the glass's top-right, the second its top-left.
        let picture = display.backSurface.pixels.assumingMemoryBound(to: UInt32.self)
        let stride = display.backSurface.stride / 4
        picture[0] = 0xFF0000
        picture[799 * stride] = 0x0000FF
        try display.present(damage: []) {}
        let glass = try #require(display.glassSnapshot())
        #expect(glass.width == 800 && glass.height == 480)
        #expect(glass.pixels[799] == 0xFF0000 && glass.pixels[0] == 0x0000FF)
        // Unturned, the glass is the picture.
        configuration.displayRotation = .none
        let plain = try #require(try configuration.openDisplay() as? HeadlessDisplay)
        #expect(plain.width == 800 && plain.height == 480 && plain.summary == "headless 800x480")
    }
}
