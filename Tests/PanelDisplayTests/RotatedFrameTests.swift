import Foundation
import Testing
import PanelTestSupport
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
        let driver = FramePresenter(screen: stage.scene.screen, renderer: stage.renderer, display: display, now: { stage.scene.clock.now })
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

    /// Picture pixel (px, py) that glass pixel (gx, gy) shows, for a `w`×`h` picture: the
    /// turns as `Rect.rotated` defines them, written out pixel by pixel.
    static func source(of gx: Int, _ gy: Int, _ rotation: Rotation, w: Int, h: Int) -> (Int, Int) {
        switch rotation {
        case .none: (gx, gy)
        case .clockwise90: (gy, h - 1 - gx)
        case .clockwise270: (w - 1 - gy, gx)
        case .upsideDown: (w - 1 - gx, h - 1 - gy)
        }
    }

    @Test("every straight and turned store puts each pixel where the turn says, at any alignment",
          arguments: [0, 16])
    func storePixels(padding: Int) {
        // Odd sizes and offsets: the copies' heads, 4x4 blocks, edges and tails all run.
        let (w, h) = (37, 23)
        let picture = Surface(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w { picture.pixels.storeBytes(of: UInt32(0xff00_0000 | (y << 8) | x), toByteOffset: y * picture.stride + x * 4, as: UInt32.self) }
        }
        let rects = [PixelRect(x: 0, y: 0, width: w, height: h), PixelRect(x: 3, y: 5, width: 17, height: 11),
                     PixelRect(x: 1, y: 2, width: 34, height: 19), PixelRect(x: 30, y: 0, width: 7, height: 4)]
        for rotation in Rotation.allCases {
            let (gw, gh) = rotation.swapsSides ? (h, w) : (w, h)
            let stride = gw * 4 + padding
            let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * gh, alignment: 64)
            defer { memory.deallocate() }
            for rect in rects {
                memory.initializeMemory(as: UInt8.self, repeating: 0, count: stride * gh)
                let target = ScanoutTarget(pixels: memory, width: gw, height: gh, stride: stride, format: .xrgb8888)
                target.store(rect, from: picture, rotation: rotation)
                let expected = rect.rotated(rotation, pictureWidth: w, pictureHeight: h)
                var wrong = 0
                for gy in 0..<gh {
                    for gx in 0..<gw {
                        let shown = memory.load(fromByteOffset: gy * stride + gx * 4, as: UInt32.self)
                        let inside = gx >= expected.x && gx < expected.maxX && gy >= expected.y && gy < expected.maxY
                        let (px, py) = Self.source(of: gx, gy, rotation, w: w, h: h)
                        if shown != (inside ? UInt32(0xff00_0000 | (py << 8) | px) : 0) { wrong += 1 }
                    }
                }
                #expect(wrong == 0, "\(rotation) \(rect) stride \(stride): \(wrong) pixels wrong")
            }
        }
    }
}
