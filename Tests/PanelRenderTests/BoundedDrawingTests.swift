import Foundation
import Testing
@testable import PanelRender
import PanelUI

@MainActor
@Suite("Drawing costs what shows")
struct BoundedDrawingTests {
    @Test("truncating a 10,000-character title shapes only what can show on the line (each character cut was measured again: 15 s on the loop)")
    func truncationIsBounded() throws {
        let fonts = try FontLibrary()
        let title = String(repeating: "Pull down to refresh ", count: 500)
        #expect(title.unicodeScalars.count == 10_500)
        let before = fonts.advancesMeasured
        let cut = fonts.truncate(title, font: .system(14), pixels: 14, width: 300)
        let measured = fonts.advancesMeasured - before
        #expect(cut.hasSuffix("…"))
        #expect(measured <= FontLibrary.scalarLimit(width: 300, pixels: 14, lines: 1), "\(measured) characters shaped for \(cut.unicodeScalars.count) shown")
        #expect(measured < 200)
        // As long as fits: the cut ends at a word's last letter, and one more word would not fit.
        #expect(fonts.advance(cut, .system(14), pixels: 14) <= 300)
        let kept = cut.dropLast()
        #expect(title.hasPrefix(kept) && kept.last != " ")
        let longer = String(title.prefix(kept.count + 8))
        #expect(fonts.advance(longer + "…", .system(14), pixels: 14) > 300)
        for text in ["", "a", "Short", "Pull down to refresh"] {
            #expect(fonts.truncate(text, font: .system(14), pixels: 14, width: 200) == text, "\(text)")
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
        #expect(lines[1].hasSuffix("…"))
        #expect(fonts.advancesMeasured - before <= FontLibrary.scalarLimit(width: 100, pixels: 14, lines: 2))
    }

    @Test("hostile text: a megabyte title, 10,000 marks on one letter, unpaired bidi controls, invalid UTF-8 are laid out in bounded work")
    func hostileText() throws {
        let fonts = try FontLibrary()
        let cases: [(String, String)] = [
            ("1 MB title", String(repeating: "كلمة word ", count: 100_000)),
            ("10,000 marks", "a" + String(repeating: "\u{301}", count: 10_000) + " b"),
            ("unpaired bidi controls", String(repeating: "\u{202E}\u{2067}abc\u{202B}", count: 5_000)),
            ("flags, an object replacement and U+FFFF (libunibreak 1.1 asserts on each)", "🇩🇪🇫🇷 \u{FFFC} x \u{FFFF} 🇯🇵"),
            ("invalid UTF-8", String(decoding: [0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0x41, 0xf0, 0x9f, 0x98] + Array("tail".utf8), as: UTF8.self)),
        ]
        for (name, text) in cases {
            for lines in [1, 3] {
                let before = fonts.advancesMeasured
                let laid = fonts.layout(text, font: .system(14), pixels: 14, width: 300, maxLines: lines)
                let shaped = fonts.advancesMeasured - before
                #expect(shaped <= FontLibrary.scalarLimit(width: 300, pixels: 14, lines: lines), "\(name): \(shaped) shaped")
                #expect(laid.lines.count <= lines && !laid.lines.isEmpty, "\(name)")
                #expect(laid.lines.allSatisfy { $0.width <= 300 + 1e-6 }, "\(name)")
            }
        }
        // The pile of marks keeps 30 of them on its letter (UAX #15's stream-safe limit).
        let marks = fonts.layout(cases[1].1, font: .system(14), pixels: 14, width: 300, maxLines: 1)
        #expect(marks.scalars.count == 1 + FontLibrary.maxMarksInARow + 2)
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
