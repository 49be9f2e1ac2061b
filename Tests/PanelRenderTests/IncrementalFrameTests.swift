import Foundation
import Testing
@testable import PanelRender
import PanelApp
import PanelRefresh

@MainActor
@Suite("Incremental frames")
struct IncrementalFrameTests {
    @Test("every frame drawn from its damage equals a full render: pull, refresh, load more")
    func damageIsComplete() throws {
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
        let session = PanelSession(scene: scene, source: SampleItemSource(pages: 3, delay: 1, animator: scene.animator),
                                   localizer: RefreshLocalizer())
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
