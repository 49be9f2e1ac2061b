import Foundation
import Testing
import PanelTestSupport
@testable import PanelDisplay
@testable import PanelRender
import PanelRefresh

@MainActor
final class FakeFramebuffer: FramebufferCalls {
    var info: FramebufferInfo
    var log: [String] = []
    var failOpen: Int32?
    let memory: UnsafeMutableRawPointer

    init(info: FramebufferInfo) {
        self.info = info
        memory = UnsafeMutableRawPointer.allocate(byteCount: info.size, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: info.size)
    }

    isolated deinit { memory.deallocate() }

    func open(_ path: String) throws -> Int32 {
        log.append("open")
        if let failOpen { throw DisplayError.call("open \(path)", errno: failOpen) }
        return 5
    }
    func info(_ fd: Int32) throws -> FramebufferInfo {
        log.append("info")
        return info
    }
    func map(_ fd: Int32, size: Int) throws -> UnsafeMutableRawPointer {
        log.append("map \(size)")
        return memory
    }
    func unmap(_ pointer: UnsafeMutableRawPointer, size: Int) { log.append("unmap") }
    func blank(_ fd: Int32, _ blank: Bool) throws { log.append("blank \(blank)") }
    func close(_ fd: Int32) { log.append("close") }

    /// A pixel of the mapped framebuffer (XRGB8888), as the glass shows it.
    func pixel(x: Int, y: Int) -> UInt32 {
        memory.load(fromByteOffset: y * info.stride + x * 4, as: UInt32.self) | 0xff00_0000
    }
}

@MainActor
@Suite("Framebuffer display")
struct FramebufferDisplayTests {
    static let xrgb = FramebufferInfo(width: 64, height: 32, bitsPerPixel: 32, stride: 64 * 4 + 32, size: (64 * 4 + 32) * 32, redOffset: 16)

    @Test("presenting copies only the damaged area to the mapped framebuffer")
    func present() throws {
        let fb = FakeFramebuffer(info: Self.xrgb)
        let display = try FramebufferDisplay(path: "/dev/fb0", calls: fb)
        #expect(display.format == .xrgb8888)
        Canvas(surface: display.backSurface).fill(Rect(x: 0, y: 0, width: 64, height: 32), color: Color(red: 0, green: 0, blue: 255))
        var done = false
        try display.present(damage: [Rect(x: 0, y: 0, width: 8, height: 8)]) { done = true }
        #expect(done)
        #expect(fb.pixel(x: 4, y: 4) == 0xff00_00ff)
        #expect(fb.pixel(x: 20, y: 20) == 0xff00_0000, "outside the damage: untouched")
        display.close()
        display.close()
        #expect(fb.log == ["open", "info", "map \(Self.xrgb.size)", "unmap", "close"])
    }

    @Test("RGB565 framebuffers are drawn in RGB565; other layouts are refused with the device closed")
    func formats() throws {
        let fb565 = FakeFramebuffer(info: FramebufferInfo(width: 32, height: 16, bitsPerPixel: 16, stride: 64, size: 64 * 16, redOffset: 11))
        let display = try FramebufferDisplay(calls: fb565)
        #expect(display.format == .rgb565)
        display.close()
        let odd = FakeFramebuffer(info: FramebufferInfo(width: 32, height: 16, bitsPerPixel: 24, stride: 96, size: 96 * 16, redOffset: 16))
        #expect(throws: DisplayError.self) { try FramebufferDisplay(calls: odd) }
        #expect(odd.log == ["open", "info", "close"])
        let denied = FakeFramebuffer(info: Self.xrgb)
        denied.failOpen = EACCES
        #expect(throws: DisplayError.call("open /dev/fb0", errno: EACCES)) { try FramebufferDisplay(calls: denied) }
    }
}

@MainActor
@Suite("Scale and formats")
struct ScaleAndFormatTests {
    @Test("points become pixels at the renderer's scale")
    func scale() throws {
        let fonts = try FontLibrary()
        let scene = Scene(size: Size(width: 50, height: 50), scale: 2)
        let square = View(frame: Rect(x: 10, y: 10, width: 10, height: 10))
        square.backgroundColor = .black
        scene.screen.rootView.addSubview(square)
        scene.frame()
        let surface = Surface(width: 100, height: 100)
        Renderer(fonts: fonts, scale: 2).render(scene.screen, into: surface)
        #expect(surface.pixel(x: 20, y: 20) == 0xff00_0000)
        #expect(surface.pixel(x: 39, y: 39) == 0xff00_0000)
        #expect(surface.pixel(x: 40, y: 40) == 0xffff_ffff)
        #expect(surface.pixel(x: 19, y: 19) == 0xffff_ffff)
    }

    @Test("a frame drawn in RGB565 matches the XRGB8888 golden within RGB565's precision")
    func rgb565() throws {
        let stage = try GoldenStage()
        _ = stage.header(NormalHeader(localizer: stage.localizer))
        stage.list.contentOffset = Point(x: 0, y: -54)
        stage.scene.frame()
        let small = Surface(width: 400, height: 240, format: .rgb565)
        stage.renderer.render(stage.scene.screen, into: small)
        let full = Surface(width: 400, height: 240)
        stage.renderer.render(stage.scene.screen, into: full)
        var worst = 0
        for y in stride(from: 0, to: 240, by: 3) {
            for x in stride(from: 0, to: 400, by: 3) {
                let a = small.pixel(x: x, y: y), b = full.pixel(x: x, y: y)
                for shift in [0, 8, 16] as [UInt32] { worst = max(worst, abs(Int((a >> shift) & 0xff) - Int((b >> shift) & 0xff))) }
            }
        }
        #expect(worst <= 8, "5 or 6 bits per channel lose at most 8 levels of 255")
    }

    @Test("images are drawn with alpha, scaled and rotated")
    func images() throws {
        let image = Surface(width: 4, height: 4, format: .argb8888)
        let c = Canvas(surface: image)
        c.fill(Rect(x: 0, y: 0, width: 4, height: 2), color: Color(red: 255, green: 0, blue: 0))
        c.fill(Rect(x: 0, y: 2, width: 4, height: 2), color: Color(red: 0, green: 0, blue: 255, alpha: 0))
        let target = Surface(width: 40, height: 40)
        let canvas = Canvas(surface: target)
        canvas.fill(Rect(x: 0, y: 0, width: 40, height: 40), color: .white)
        canvas.draw(image: image, in: Rect(x: 0, y: 0, width: 40, height: 40))
        #expect(target.pixel(x: 20, y: 5) == 0xffff_0000, "scaled ×10: red on top")
        #expect(target.pixel(x: 20, y: 35) == 0xffff_ffff, "transparent below")
        canvas.fill(Rect(x: 0, y: 0, width: 40, height: 40), color: .white)
        canvas.draw(image: image, in: Rect(x: 0, y: 0, width: 40, height: 40), rotation: .pi)
        // Away from the image's edges, where bilinear filtering blends in the outside.
        #expect(target.pixel(x: 20, y: 30) == 0xffff_0000, "turned upside down: red at the bottom")
        #expect(target.pixel(x: 20, y: 10) == 0xffff_ffff)
        canvas.fill(Rect(x: 0, y: 0, width: 40, height: 40), color: .white)
        canvas.draw(image: image, in: Rect(x: 0, y: 0, width: 40, height: 40), opacity: 0.5)
        let half = target.pixel(x: 20, y: 5)
        #expect((half >> 16) & 0xff == 0xff && (half & 0xff) > 0x70 && (half & 0xff) < 0x90, "half-transparent red over white is pink")
    }
}
