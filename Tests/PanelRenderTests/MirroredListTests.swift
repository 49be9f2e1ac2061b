import Foundation
import Testing
import PanelTestSupport
import PanelDisplay
@testable import PanelRender
import PanelKiosk
import PanelRefresh

/// A horizontal list in a right-to-left UI: the first column at the right, dragged right, the
/// trailer at the left end.
@MainActor
@Suite("Right-to-left horizontal lists")
struct MirroredListTests {
    func stage() throws -> (GoldenStage, NormalTrailer) {
        let stage = try GoldenStage(rows: 6)
        stage.localizer.language = .arabic
        stage.scene.screen.layoutDirection = .rightToLeft
        stage.list.rowHeight = .fixed(140)
        stage.list.orientation = .horizontal
        let trailer = NormalTrailer(localizer: stage.localizer)
        stage.list.trailer = trailer
        stage.scene.frame()
        return (stage, trailer)
    }

    @Test("the first column shows at the right; a tap there selects it; the trailer sits left of the last column, its chevron pointing right")
    func layout() throws {
        let (stage, trailer) = try stage()
        #expect(stage.list.mirrorsSubviews)
        let first = try #require(stage.list.visibleCells[0])
        #expect(stage.list.shownFrame(of: first) == Rect(x: 260, y: 0, width: 140, height: 240))
        var hit = stage.scene.screen.rootView.hitTest(Point(x: 380, y: 120))
        while let view = hit, !(view is ListCell) { hit = view.superview }
        #expect((hit as? ListCell)?.row == 0)
        #expect(first.convert(Point(x: 0, y: 0), to: nil).x == 260, "a column converts to where it shows")
        #expect(stage.list.shownFrame(of: trailer).maxX <= stage.list.shownFrame(of: try #require(stage.list.visibleCells[0])).minX)
        #expect(trailer.arrowView.rotation == .pi)
        #expect(trailer.arrowView.frame.midX > trailer.frame.width / 2)
    }

    @Test("a count, a sign and a time keep their own order in a right-to-left UI (the badge's +2 read 2+), still aligned to the right; Arabic text runs right to left as before")
    func neutralOrder() throws {
        let fonts = try FontLibrary()
        func glyphOrder(_ text: String) -> (clusters: [Int], rightToLeft: Bool) {
            let laid = fonts.layout(text, font: .system(14), pixels: 14, width: 300, maxLines: 1, rightToLeftWhenNeutral: true)
            let glyphs = laid.lines[0].glyphs.sorted { $0.x < $1.x }
            return (glyphs.map { Int($0.cluster) }, laid.isRightToLeft)
        }
        for text in ["+2", "12:05", "-3"] {
            let (clusters, rightToLeft) = glyphOrder(text)
            #expect(clusters == clusters.sorted(), "\(text): shown left to right, \(clusters)")
            #expect(rightToLeft, "\(text): aligned as the UI")
        }
        // A price in Arabic-Indic digits keeps the paragraph's order: the euro sign at the left.
        #expect(glyphOrder("٤٫٥٠ €").clusters.first == 5)
        // Strong right-to-left text is still shown right to left: its first character rightmost.
        let (arabic, rightToLeft) = glyphOrder("جديد")
        #expect(rightToLeft && arabic.first == arabic.max())
        // Left to right in a left-to-right UI, as before.
        let plain = fonts.layout("+2", font: .system(14), pixels: 14, width: 300, maxLines: 1)
        #expect(!plain.isRightToLeft)
    }

    @Test("dragged right past the last column, the trailer arms (its pull mirrored): golden frame")
    func pull() throws {
        let (stage, trailer) = try stage()
        stage.list.contentOffset = stage.list.maximumContentOffset
        stage.scene.frame()
        var s = GestureScript(start: stage.scene.clock.now + 0.1)
        s.drag(from: Point(x: 20, y: 120), to: Point(x: 300, y: 120), duration: 0.3, hold: 0.3, lift: false)
        stage.scene.play(s.frames)
        #expect(trailer.state == .pulling)
        #expect(stage.list.contentOffset.x > stage.list.maximumContentOffset.x)
        #expect(stage.list.visibleRows == 3..<6)
        try stage.snapshot("horizontal-rtl-trailer-pulling")
    }

    @Test("frames drawn from damage and moved pixels equal full renders while the mirrored list scrolls both ways")
    func incremental() throws {
        let fonts = try FontLibrary()
        let display = HeadlessDisplay(width: 320, height: 160)
        let rows = Rows(30)
        var built: ListView?
        var configuration = Configuration()
        configuration.locale = "ar"
        let host = try KioskHost.virtual(configuration: configuration, display: display, fonts: fonts, views: { scene in
            scene.screen.layoutDirection = .rightToLeft
            let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 160), animator: scene.animator)
            list.orientation = .horizontal
            list.rowHeight = .fixed(90)
            list.dataSource = rows
            list.reloadData()
            scene.screen.rootView.addSubview(list)
            built = list
        })
        let list = try #require(built)
        host.start(at: 0)
        let driver = VirtualTimeDriver(host)
        driver.step(by: 1.0 / 60)
        let fresh = Surface(width: 320, height: 160)
        let renderer = Renderer(fonts: fonts)
        var worst = 0
        for step in 0..<80 {
            list.contentOffset = Point(x: Double(step < 40 ? step : 80 - step) * 13, y: 0)
            driver.step(by: 1.0 / 60)
            renderer.render(host.stage.scene.screen, into: fresh)
            var different = 0
            for y in 0..<160 { for x in 0..<320 where display.backSurface.pixel(x: x, y: y) != fresh.pixel(x: x, y: y) { different += 1 } }
            worst = max(worst, different)
        }
        #expect(display.framesPresented > 60)
        #expect(worst == 0, "\(worst) pixels differ")
    }
}
