import Foundation
import Testing
@testable import PanelDisplay
@testable import PanelRender
import PanelRefresh

/// A portrait UI on landscape glass: the kiosk's frames through `DRMDisplay` turned by 90 and
/// 270 degrees, read back from the (fake) scanout memory and compared with Golden/*.png.
@MainActor
@Suite("Rotated frames")
struct RotatedFrameTests {
    /// The glass (800×480 mode) as a surface: what the panel shows.
    func glass(_ drm: FakeDRM, buffer: Int) -> Surface {
        let surface = Surface(width: 800, height: 480)
        for y in 0..<480 {
            for x in 0..<800 {
                surface.pixels.storeBytes(of: drm.glassPixel(buffer: buffer, x: x, y: y, width: 800), toByteOffset: y * surface.stride + x * 4, as: UInt32.self)
            }
        }
        return surface
    }

    /// The list with its header refreshing, drawn through a turned DRM display.
    func frame(_ rotation: Rotation) throws -> Surface {
        let drm = FakeDRM()
        drm.connectors[1].modes = [DRMMode(width: 800, height: 480, refresh: 60, isPreferred: true, name: "800x480")]
        let display = try DRMDisplay(rotation: rotation, drm: drm)
        defer { display.close() }
        #expect(display.width == 480 && display.height == 800, "a portrait picture")
        let stage = try GoldenStage(rows: 30, size: Size(width: 480, height: 800))
        let header = stage.header(NormalHeader(localizer: stage.localizer))
        header.setAnimationDisabled()
        header.beginRefreshing()
        stage.scene.wait(0.5)
        let driver = FrameDriver(screen: stage.scene.screen, renderer: stage.renderer, display: display, now: { stage.scene.clock.now })
        #expect(driver.drawFrame())
        try display.handleEvents()
        return glass(drm, buffer: 1)
    }

    @Test("90 and 270 degrees: golden frames of the glass; one is the other turned upside down")
    func rotated() throws {
        let quarter = try frame(.clockwise90)
        if let problem = try Golden.check(quarter, "portrait-90-refreshing") { Issue.record("\(problem)") }
        let threeQuarters = try frame(.clockwise270)
        if let problem = try Golden.check(threeQuarters, "portrait-270-refreshing") { Issue.record("\(problem)") }
        var mismatches = 0
        for y in stride(from: 0, to: 480, by: 7) {
            for x in stride(from: 0, to: 800, by: 7) where quarter.pixel(x: x, y: y) != threeQuarters.pixel(x: 799 - x, y: 479 - y) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    @Test("the store writes exactly the turned rectangle, nothing around it")
    func storeBounds() {
        let picture = Surface(width: 30, height: 20)
        Canvas(surface: picture).fill(Rect(x: 0, y: 0, width: 30, height: 20), color: Color(red: 255, green: 0, blue: 0))
        for rotation in Rotation.allCases {
            let (w, h) = rotation.swapsSides ? (20, 30) : (30, 20)
            let glass = Surface(width: w, height: h)
            let target = ScanoutTarget(pixels: glass.pixels, width: w, height: h, stride: glass.stride, format: .xrgb8888)
            let rect = PixelRect(x: 3, y: 4, width: 5, height: 6)
            target.store(rect, from: picture, rotation: rotation)
            #expect(target.bytesWritten == 5 * 6 * 4)
            let expected = rect.rotated(rotation, pictureWidth: 30, pictureHeight: 20)
            var red = 0
            for y in 0..<h {
                for x in 0..<w where glass.pixel(x: x, y: y) == 0xffff_0000 {
                    red += 1
                    #expect(x >= expected.x && x < expected.maxX && y >= expected.y && y < expected.maxY, "\(rotation) (\(x),\(y))")
                }
            }
            #expect(red == 30, "\(rotation)")
        }
    }
}
