import Foundation
import Testing
@testable import PanelRender
import PanelUI

@Suite("Canvas")
struct CanvasTests {
    @Test("solid and translucent fills", arguments: PixelFormat.allCases)
    func fills(format: PixelFormat) {
        let surface = Surface(width: 40, height: 30, format: format)
        let canvas = Canvas(surface: surface)
        canvas.fill(Rect(x: 0, y: 0, width: 40, height: 30), color: .white)
        canvas.fill(Rect(x: 10, y: 10, width: 10, height: 10), color: Color(red: 255, green: 0, blue: 0))
        canvas.fill(Rect(x: 20, y: 10, width: 10, height: 10), color: .black, opacity: 0.5)
        #expect(surface.pixel(x: 0, y: 0) == 0xffff_ffff)
        #expect(surface.pixel(x: 15, y: 15) == 0xffff_0000)
        let grey = surface.pixel(x: 25, y: 15)
        for shift in [0, 8, 16] as [UInt32] {
            let channel = (grey >> shift) & 0xff
            #expect(channel >= 0x78 && channel <= 0x84, "50 % black over white")
        }
    }

    @Test("rounded rectangles leave their corners; triangles are anti-aliased")
    func shapes() {
        let surface = Surface(width: 40, height: 40)
        let canvas = Canvas(surface: surface)
        canvas.fill(Rect(x: 0, y: 0, width: 40, height: 40), color: .white)
        canvas.fillRoundedRect(Rect(x: 0, y: 0, width: 40, height: 40), radius: 12, color: .black)
        #expect(surface.pixel(x: 0, y: 0) == 0xffff_ffff, "the corner is outside")
        #expect(surface.pixel(x: 20, y: 20) == 0xff00_0000)
        canvas.fill(Rect(x: 0, y: 0, width: 40, height: 40), color: .white)
        canvas.fill(triangles: [Triangle(Point(x: 0, y: 0), Point(x: 40, y: 0), Point(x: 0, y: 40))], color: .black)
        let edge = surface.pixel(x: 19, y: 20) & 0xff
        #expect(edge > 0 && edge < 0xff, "a pixel on the diagonal is partly covered")
    }

    @Test("drawing stays inside the clip")
    func clip() {
        let surface = Surface(width: 20, height: 20)
        let canvas = Canvas(surface: surface)
        canvas.setClip([Rect(x: 0, y: 0, width: 10, height: 20)])
        canvas.fill(Rect(x: 0, y: 0, width: 20, height: 20), color: .white)
        #expect(surface.pixel(x: 5, y: 5) == 0xffff_ffff)
        #expect(surface.pixel(x: 15, y: 5) == 0xff00_0000)
    }

    @Test("the arrow points down, and up when turned by π")
    func arrow() {
        let rect = Rect(x: 0, y: 0, width: 15, height: 40)
        let down = Shapes.arrow(in: rect, rotation: 0)
        let lowest = down.flatMap { [$0.a, $0.b, $0.c] }.max { $0.y < $1.y }
        #expect(lowest == Point(x: 7.5, y: 40), "the tip at the bottom centre")
        let up = Shapes.arrow(in: rect, rotation: .pi)
        let highest = up.flatMap { [$0.a, $0.b, $0.c] }.min { $0.y < $1.y }
        #expect(abs((highest?.y ?? 99) - 0) < 1e-9 && abs((highest?.x ?? 99) - 7.5) < 1e-9)
        #expect(Shapes.spinnerSpoke(in: Rect(x: 0, y: 0, width: 20, height: 20), index: 0, spokes: 12)
            .allSatisfy { max($0.a.y, $0.b.y, $0.c.y) <= 10 }, "spoke 0 is at the top")
    }
}

@Suite("PNG")
struct PNGTests {
    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("panel-render-\(UUID().uuidString)-\(name)").path
    }

    @Test("a frame written and read back has the same pixels")
    func roundTrip() throws {
        let surface = Surface(width: 16, height: 8)
        let canvas = Canvas(surface: surface)
        canvas.fill(Rect(x: 0, y: 0, width: 16, height: 8), color: Color(red: 10, green: 20, blue: 30))
        canvas.fill(Rect(x: 4, y: 2, width: 4, height: 4), color: Color(red: 250, green: 128, blue: 1))
        let path = temporary("frame.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNG.write(surface, to: path)
        let back = try PNG.read(path: path)
        #expect(back.width == 16 && back.height == 8)
        for y in 0..<8 { for x in 0..<16 { #expect(back.pixel(x: x, y: y) == surface.pixel(x: x, y: y)) } }
    }

    @Test("translucent pixels keep their colour through the file")
    func translucent() throws {
        let surface = Surface(width: 2, height: 1, format: .argb8888)
        Canvas(surface: surface).fill(Rect(x: 0, y: 0, width: 1, height: 1), color: Color(red: 200, green: 100, blue: 50, alpha: 128))
        let path = temporary("alpha.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNG.write(surface, to: path)
        let back = try PNG.read(path: path)
        let a = back.pixel(x: 0, y: 0), b = surface.pixel(x: 0, y: 0)
        for shift in [0, 8, 16, 24] as [UInt32] {
            #expect(abs(Int((a >> shift) & 0xff) - Int((b >> shift) & 0xff)) <= 1)
        }
        #expect(back.pixel(x: 1, y: 0) == 0)
    }

    @Test("a missing or broken file is an error naming it")
    func errors() throws {
        #expect(throws: RenderError.self) { try PNG.read(path: "/nonexistent/x.png") }
        let path = temporary("broken.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: path))
        // (One catch, then a match: Swift 6.2's compiler crashes on `catch let RenderError.png(...)`
        // for a typed throw.)
        do {
            _ = try PNG.read(path: path)
            Issue.record("read a broken file")
        } catch {
            guard case let .png(errorPath, message) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(errorPath == path)
            #expect(!message.isEmpty)
        }
    }
}

@MainActor
@Suite("Text")
struct TextTests {
    @Test("every shipped language has glyphs in the label font", arguments: [
        "Pull down to update", "下拉即可更新", "鬆手立即更新", "당겨서 새로 고침", "Потяните вниз для обновления", "Потягніть униз",
    ])
    func coverage(text: String) throws {
        let fonts = try FontLibrary()
        for scalar in text.unicodeScalars where scalar != " " {
            #expect(fonts.canDraw(scalar, in: .bold(14)), "\(scalar) in \(text)")
        }
    }

    @Test("measuring: wider text is wider, bold is wider than regular, lines have height")
    func measure() throws {
        let fonts = try FontLibrary()
        #expect(fonts.width(of: "Pull down", font: .bold(14)) > fonts.width(of: "Pull", font: .bold(14)))
        #expect(fonts.width(of: "Pull down", font: .bold(14)) > fonts.width(of: "Pull down", font: .system(14)))
        #expect(fonts.lineHeight(of: .system(14)) >= 14)
        #expect(fonts.width(of: "", font: .system(14)) == 0)
    }

    @Test("a line too long is cut with an ellipsis; narrow text wraps by character")
    func fitting() throws {
        let fonts = try FontLibrary()
        let cut = fonts.truncate("Pull down to update the whole list", font: .system(14), pixels: 14, width: 80)
        #expect(cut.hasSuffix("…"))
        #expect(fonts.advance(cut, .system(14), pixels: 14) <= 80)
        #expect(fonts.truncate("Short", font: .system(14), pixels: 14, width: 200) == "Short")
        let column = fonts.wrap("滑動查看", font: .bold(14), pixels: 14, width: 14)
        #expect(column == ["滑", "動", "查", "看"])
    }
}
