import Foundation
import Testing
import PanelTestSupport
import PanelDisplay
@testable import PanelRender
import PanelKiosk
import PanelRefresh

@MainActor
@Suite("Incremental frames")
struct IncrementalFrameTests {
    @Test("every frame drawn from its damage equals a full render: pull, refresh, load more (each header position)",
          arguments: RefreshHeader.Position.allCases)
    func damageIsComplete(position: RefreshHeader.Position) throws {
        let fonts = try FontLibrary()
        let scene = Scene(size: Size(width: 320, height: 200))
        scene.screen.textMeasurer = fonts
        let renderer = Renderer(fonts: fonts)
        let incremental = Surface(width: 320, height: 200)
        let fresh = Surface(width: 320, height: 200)
        var frames = 0
        var worst = (pixels: 0, frame: 0)
        scene.onFrame = { [unowned scene] damage in
            renderer.render(scene.screen, into: incremental, damage: damage)
            renderer.render(scene.screen, into: fresh)
            frames += 1
            var different = 0
            for y in 0..<200 { for x in 0..<320 where incremental.pixel(x: x, y: y) != fresh.pixel(x: x, y: y) { different += 1 } }
            if different > worst.pixels { worst = (different, frames) }
        }
        let session = KioskList(scene: scene, source: SampleItemSource(pages: 3, delay: 1, animator: scene.animator),
                                   localizer: RefreshLocalizer())
        session.place()
        session.header.position = position
        session.showFirstPage()
        scene.frame()
        var script = GestureScript(start: 0.5)
        script.drag(from: Point(x: 160, y: 10), to: Point(x: 160, y: 190), duration: 0.5, hold: 0.2)
        scene.play(script.frames)
        scene.settle()
        session.list.contentOffset = session.list.maximumContentOffset - Point(x: 0, y: 100)
        var swipe = GestureScript(start: scene.clock.now + 0.2)
        swipe.drag(from: Point(x: 160, y: 180), to: Point(x: 160, y: 40), duration: 0.15)
        scene.play(swipe.frames)
        scene.settle()
        #expect(frames > 100)
        #expect(session.items.count == 40)
        #expect(worst.pixels == 0, "frame \(worst.frame) differs in \(worst.pixels) pixels")
    }
}

@MainActor
@Suite("Cheap spinner frames")
struct SpinnerFrameTests {
    @Test("a spinner frame visits only the views that reach its damage (no row of the list) and draws from cached masks")
    func spinner() throws {
        let stage = try GoldenStage(rows: 500, size: Size(width: 400, height: 800))
        stage.list.rowHeight = .fixed(20)
        stage.list.reloadData()
        let header = stage.header(NormalHeader(localizer: stage.localizer))
        header.setAnimationDisabled()
        header.beginRefreshing()
        stage.scene.wait(0.5)
        let display = HeadlessDisplay(width: 400, height: 800)
        let driver = FramePresenter(screen: stage.scene.screen, renderer: stage.renderer, display: display, now: { stage.scene.clock.now })
        #expect(driver.drawFrame())
        #expect(stage.list.visibleCells.count >= 30)
        var built = 0
        for turn in 0..<30 {
            stage.scene.clock.advance(by: 1.0 / 12)
            #expect(driver.drawFrame(), "the spinner turned")
            #expect(display.lastDamage.allSatisfy { $0.width <= 40 && $0.height <= 40 }, "only the spinner changes")
            #expect(stage.renderer.viewsVisited < 16, "visited \(stage.renderer.viewsVisited) views")
            if turn == 11 { built = stage.renderer.masksBuilt }
        }
        #expect(stage.renderer.masksBuilt == built, "after one turn every phase comes from the cache")
    }
}
