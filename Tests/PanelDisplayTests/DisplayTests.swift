import Foundation
import Testing
import PanelTestSupport
@testable import PanelDisplay
@testable import PanelRender
import PanelRefresh

@MainActor
@Suite("Headless display and frame driver")
struct DisplayTests {
    func stage() throws -> (GoldenStage, HeadlessDisplay, FramePresenter) {
        let stage = try GoldenStage()
        let display = HeadlessDisplay(width: 400, height: 240)
        let driver = FramePresenter(screen: stage.scene.screen, renderer: stage.renderer, display: display, now: { stage.scene.clock.now })
        return (stage, display, driver)
    }

    @Test("the first frame is drawn whole; an idle screen draws nothing; a change draws only its damage")
    func damage() throws {
        let (stage, display, driver) = try stage()
        let presented = stage.scene.screen.framesPresented
        #expect(driver.drawFrame())
        #expect(display.lastDamage == [Rect(x: 0, y: 0, width: 400, height: 240)])
        #expect(stage.scene.screen.framesPresented == presented + 1)
        #expect(!driver.drawFrame(), "nothing changed")
        // Paint a marker outside the label's area: a damage-limited frame leaves it alone.
        Canvas(surface: display.backSurface).fill(Rect(x: 390, y: 230, width: 5, height: 5), color: Color(red: 255, green: 0, blue: 0))
        let cell = try #require(stage.list.visibleCells[0])
        cell.titleLabel.text = "Changed"
        #expect(driver.drawFrame())
        let labelFrame = cell.titleLabel.convert(cell.titleLabel.bounds, to: nil)
        #expect(display.lastDamage.allSatisfy { labelFrame.union($0) == labelFrame })
        #expect(display.backSurface.pixel(x: 392, y: 232) == 0xffff_0000)
        #expect(stage.renderer.viewsDrawn < 10, "only the views in the damage")
    }

    @Test("the frames of a pull are saved as PNG files when asked")
    func frames() throws {
        let (stage, display, driver) = try stage()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("panel-frames-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        display.frameDirectory = dir
        stage.scene.onFrame = nil
        driver.drawFrame()
        stage.list.contentOffset = Point(x: 0, y: 100)
        driver.drawFrame()
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(files == ["frame-00001.png", "frame-00002.png"])
        let second = try PNG.read(path: dir + "/frame-00002.png")
        #expect(second.width == 400)
        try display.savePNG(to: dir + "/last.png")
        #expect(FileManager.default.fileExists(atPath: dir + "/last.png"))
    }

    @Test("a scrolled list redraws its visible area; rows off screen are not drawn")
    func scrolling() throws {
        let (stage, _, driver) = try stage()
        stage.rows.count = 1_000_000
        stage.list.reloadData()
        driver.drawFrame()
        stage.list.contentOffset = Point(x: 0, y: 30_000_000)
        driver.drawFrame()
        // The list, its ~5 visible cells with 3 subviews each, and the root: never the million.
        #expect(stage.renderer.viewsDrawn < 30)
    }

    @Test("an image that cannot be loaded is reported once and not drawn")
    func missingImage() throws {
        let (stage, _, driver) = try stage()
        var errors: [RenderError] = []
        stage.renderer.onError = { errors.append($0) }
        let image = ImageView(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        image.image = ImageReference(name: "/nonexistent/frame.png", size: Size(width: 40, height: 40))
        stage.scene.screen.rootView.addSubview(image)
        driver.drawFrame()
        image.alpha = 0.5
        driver.drawFrame()
        #expect(errors.count == 1)
    }
}

@MainActor
@Suite("Scrolling by moving pixels")
struct ScrollMoveTests {
    /// Every pixel of `a` and `b`.
    func differing(_ a: Surface, _ b: Surface) -> Int {
        var count = 0
        for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { count += 1 } }
        return count
    }

    @Test("frames drawn by moving pixels equal frames drawn whole, whatever the steps")
    func equalsFullRender() throws {
        let stage = try GoldenStage(rows: 200)
        let display = HeadlessDisplay(width: 400, height: 240)
        let driver = FramePresenter(screen: stage.scene.screen, renderer: stage.renderer, display: display, now: { stage.scene.clock.now })
        stage.scene.onFrame = nil
        driver.drawFrame()
        let fresh = Surface(width: 400, height: 240)
        var offset = 500.0
        stage.list.contentOffset = Point(x: 0, y: offset)
        driver.drawFrame()
        for step in [7.0, 7, -3, 12.4, 0.6, 33.3, 250, -500, 1, 239, -239] {
            offset += step
            stage.list.contentOffset = Point(x: 0, y: offset)
            let update = stage.scene.screen.prepareFrame(allowingMoves: true)
            stage.renderer.render(stage.scene.screen, into: display.backSurface, damage: update.damage, moves: update.moves)
            stage.scene.screen.didPresentFrame()
            stage.renderer.render(stage.scene.screen, into: fresh)
            #expect(differing(display.backSurface, fresh) == 0, "after a step of \(step)")
            if abs(step) < 240 && (step * 1).rounded() != 0 {
                #expect(update.moves.count == 1, "a step of \(step) moves pixels")
            }
        }
        _ = driver
    }

    @Test("a view over the list stops pixel moves: it would move with them")
    func covered() throws {
        let stage = try GoldenStage(rows: 200)
        let badge = View(frame: Rect(x: 300, y: 100, width: 50, height: 50))
        badge.backgroundColor = Color(red: 255, green: 0, blue: 0)
        stage.scene.screen.rootView.addSubview(badge)
        _ = stage.scene.screen.prepareFrame(allowingMoves: true)
        stage.list.contentOffset = Point(x: 0, y: 100)
        let update = stage.scene.screen.prepareFrame(allowingMoves: true)
        #expect(update.moves.isEmpty)
        #expect(update.damage.contains(Rect(x: 0, y: 0, width: 400, height: 240)))
    }

    @Test("without moves allowed a scrolled list is damaged whole")
    func plain() throws {
        let stage = try GoldenStage(rows: 200)
        stage.list.contentOffset = Point(x: 0, y: 100)
        #expect(stage.scene.screen.prepareFrame().contains(Rect(x: 0, y: 0, width: 400, height: 240)))
    }
}
