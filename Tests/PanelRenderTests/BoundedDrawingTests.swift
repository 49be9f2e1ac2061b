import Foundation
import Testing
@testable import PanelRender
import PanelUI

@MainActor
@Suite("Drawing costs what shows")
struct BoundedDrawingTests {
    /// The longest prefix of `text` that fits `width` with an ellipsis after it, measured
    /// prefix by prefix: the reference the one-pass truncation must equal.
    func reference(_ fonts: FontLibrary, _ text: String, width: Double) -> String {
        guard fonts.advance(text, .system(14), pixels: 14) > width else { return text }
        var kept = ""
        for c in text.unicodeScalars {
            let next = kept + String(c)
            if fonts.advance(next + "…", .system(14), pixels: 14) > width { break }
            kept = next
        }
        return kept + "…"
    }

    @Test("truncating a 10,000-character title measures only what fits (each character cut was measured again: 15 s on the loop)")
    func truncationIsBounded() throws {
        let fonts = try FontLibrary()
        let title = String(repeating: "Pull down to refresh ", count: 500)
        #expect(title.unicodeScalars.count == 10_500)
        let before = fonts.advancesMeasured
        let cut = fonts.truncate(title, font: .system(14), pixels: 14, width: 300)
        let measured = fonts.advancesMeasured - before
        #expect(cut.hasSuffix("…"))
        #expect(measured <= cut.unicodeScalars.count + 4, "\(measured) advances for \(cut.unicodeScalars.count) characters shown")
        #expect(cut == reference(fonts, String(title.prefix(200)), width: 300))
        for text in ["", "a", "Short", "Pull down to refresh"] {
            #expect(fonts.truncate(text, font: .system(14), pixels: 14, width: 120) == reference(fonts, text, width: 120), "\(text)")
        }
        #expect(fonts.truncate("Pull", font: .system(14), pixels: 14, width: 1) == "")
    }

    @Test("wrapping stops at the last line drawn")
    func wrapIsBounded() throws {
        let fonts = try FontLibrary()
        let text = String(repeating: "x", count: 100_000)
        let before = fonts.advancesMeasured
        let lines = fonts.wrap(text, font: .system(14), pixels: 14, width: 100, maxLines: 2)
        #expect(lines.count == 2)
        #expect(fonts.advancesMeasured - before <= lines.joined().count + 1)
    }

    @Test("an image drawn smaller than its file is kept at the drawn size; the cache never holds more than its budget")
    func imageCache() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("images-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let source = Surface(width: 400, height: 400, format: .argb8888)
        Canvas(surface: source).fill(Rect(x: 0, y: 0, width: 400, height: 400), color: Color(red: 200, green: 20, blue: 20))
        for i in 0..<10 { try PNG.write(source, to: dir + "/\(i).png") }

        let screen = Screen(size: Size(width: 100, height: 100), animator: Animator(clock: ManualClock(now: 0)))
        let view = ImageView(frame: Rect(x: 10, y: 10, width: 40, height: 40))
        view.contentMode = .scaleToFill
        screen.rootView.addSubview(view)
        let renderer = Renderer(fonts: try FontLibrary())
        renderer.imageCacheBytes = 3 * 40 * 40 * 4
        let surface = Surface(width: 100, height: 100)
        for i in 0..<10 {
            view.image = ImageReference(name: dir + "/\(i).png", size: Size(width: 400, height: 400))
            renderer.render(screen, into: surface)
            // 400x400 decoded would be 640,000 bytes; kept at 40x40 it is 6,400.
            #expect(renderer.imageCacheUsed <= 3 * 40 * 40 * 4)
            #expect(surface.pixel(x: 30, y: 30) & 0xffffff == 0xc81414)
        }
        #expect(renderer.imagesDecoded == 10)
        // The last three are still there: drawing them again decodes nothing.
        view.image = ImageReference(name: dir + "/8.png", size: Size(width: 400, height: 400))
        renderer.render(screen, into: surface)
        #expect(renderer.imagesDecoded == 10)
        view.image = ImageReference(name: dir + "/0.png", size: Size(width: 400, height: 400))
        renderer.render(screen, into: surface)
        #expect(renderer.imagesDecoded == 11, "evicted least recently used first")
    }

    @Test("an image over the renderer's pixel budget is reported and not drawn")
    func imageBudget() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("images-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNG.write(Surface(width: 300, height: 300, format: .argb8888), to: dir + "/big.png")
        let screen = Screen(size: Size(width: 100, height: 100), animator: Animator(clock: ManualClock(now: 0)))
        let view = ImageView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        view.image = ImageReference(name: dir + "/big.png", size: Size(width: 100, height: 100))
        screen.rootView.addSubview(view)
        let renderer = Renderer(fonts: try FontLibrary())
        renderer.maxImagePixels = 300 * 300 - 1
        var errors: [RenderError] = []
        renderer.onError = { errors.append($0) }
        renderer.render(screen, into: Surface(width: 100, height: 100))
        #expect(errors == [.imageTooLarge(path: dir + "/big.png", width: 300, height: 300, maxPixels: 300 * 300 - 1)])
        #expect(renderer.imageCacheUsed == 0)
    }
}
