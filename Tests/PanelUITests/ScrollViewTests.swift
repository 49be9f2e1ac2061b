import Testing
@testable import PanelUI

/// A scroll view in a scene, driven by scripted fingers.
@MainActor
final class ScrollStage: ScrollViewObserver {
    let scene = Scene(size: Size(width: 800, height: 480))
    let scrollView: ScrollView
    var log: [String] = []

    init(contentHeight: Double = 2000) {
        scrollView = ScrollView(frame: Rect(x: 0, y: 0, width: 800, height: 480), animator: scene.animator)
        scrollView.contentSize = Size(width: 800, height: contentHeight)
        scene.screen.rootView.addSubview(scrollView)
        scene.dispatcher.scrollView = scrollView
        scrollView.addObserver(self)
        scene.frame()
    }

    func drag(from: Double, to: Double, duration: Double, hold: Double = 0, lift: Bool = true) {
        var script = GestureScript(start: scene.clock.now + 0.1)
        script.drag(from: Point(x: 400, y: from), to: Point(x: 400, y: to), duration: duration, hold: hold, lift: lift)
        scene.play(script.frames)
    }

    func scrollViewContentOffsetDidChange(_ scrollView: ScrollView, _ change: Change<Point>) {
        log.append("offset dragging=\(scrollView.isDragging)")
    }
    func scrollViewPanStateDidChange(_ scrollView: ScrollView, _ change: Change<PanRecognizer.State>) {
        log.append("pan \(change.old.rawValue)->\(change.new.rawValue) dragging=\(scrollView.isDragging)")
    }
    func scrollViewContentSizeDidChange(_ scrollView: ScrollView, _ change: Change<Size>) {
        log.append("size \(change.old.height)->\(change.new.height)")
    }
}

@MainActor
@Suite("Scroll view")
struct ScrollViewTests {
    @Test("in range, the content follows the finger one to one")
    func follows() {
        let stage = ScrollStage()
        stage.scrollView.contentOffset = Point(x: 0, y: 500)
        // 240 px in 1 s at 120 Hz: 2 px steps, so the 18 px slop is passed exactly.
        stage.drag(from: 400, to: 160, duration: 1, hold: 0.2, lift: false)
        #expect(abs(stage.scrollView.contentOffset.y - (500 + 240 - 18)) < 1e-9)
        #expect(stage.scrollView.isDragging)
    }

    @Test("past the top the rubber band gives x·d·c/(d + c·x)")
    func rubberBand() {
        let stage = ScrollStage()
        stage.drag(from: 100, to: 340, duration: 1, hold: 0.2, lift: false)
        let x = 222.0 // 240 in 2 px steps, minus the 18 px slop
        let expected = x * 480 * 0.55 / (480 + 0.55 * x)
        #expect(abs(-stage.scrollView.contentOffset.y - expected) < 1e-9)
    }

    @Test("released past the top it springs back to exactly the top")
    func springBack() {
        let stage = ScrollStage()
        stage.drag(from: 100, to: 318, duration: 1, hold: 0.2)
        #expect(!stage.scrollView.isDragging)
        #expect(stage.scrollView.isDecelerating)
        #expect(stage.scene.settle())
        #expect(stage.scrollView.contentOffset.y == 0)
        #expect(!stage.scrollView.isDecelerating)
    }

    @Test("a fling decelerates with UIScrollView's friction and stops in range")
    func fling() {
        let stage = ScrollStage(contentHeight: 20000)
        stage.scrollView.contentOffset = Point(x: 0, y: 1000)
        stage.drag(from: 400, to: 100, duration: 0.2)
        let released = stage.scrollView.contentOffset.y
        #expect(stage.scrollView.isDecelerating)
        stage.scene.settle()
        let travelled = stage.scrollView.contentOffset.y - released
        // 300 px in 0.2 s is 1500 px/s: friction 0.998 carries it 0.4995·1500 ≈ 749 px
        // (less the last pixels the tolerance cuts off).
        #expect(travelled > 700 && travelled < 750)
    }

    @Test("the fast deceleration rate stops a fling five times sooner")
    func fastRate() {
        func travel(_ rate: DecelerationRate) -> Double {
            let stage = ScrollStage(contentHeight: 20000)
            stage.scrollView.decelerationRate = rate
            stage.scrollView.contentOffset = Point(x: 0, y: 1000)
            stage.drag(from: 400, to: 100, duration: 0.2)
            let released = stage.scrollView.contentOffset.y
            stage.scene.settle()
            return stage.scrollView.contentOffset.y - released
        }
        let normal = travel(.normal), fast = travel(.fast)
        // 1500 px/s: 0.0995·v₀ ≈ 149 px against 0.4995·v₀ ≈ 749 px.
        #expect(fast > 135 && fast < 150)
        #expect(normal / fast > 4.5)
    }

    @Test("a fling past the end bounces back to the end")
    func bounceAtEnd() {
        let stage = ScrollStage(contentHeight: 1000)
        stage.scrollView.contentOffset = Point(x: 0, y: 400)
        stage.drag(from: 400, to: 100, duration: 0.1)
        var maxOffset = 0.0
        stage.scene.onFrame = { [unowned stage] _ in maxOffset = max(maxOffset, stage.scrollView.contentOffset.y) }
        stage.scene.settle()
        #expect(maxOffset > 520, "it went past the end")
        #expect(stage.scrollView.contentOffset.y == 520)
    }

    @Test("notifications come in UIKit's order")
    func order() {
        let stage = ScrollStage()
        stage.scrollView.contentOffset = Point(x: 0, y: 500)
        stage.log.removeAll()
        stage.drag(from: 400, to: 300, duration: 0.1)
        let log = stage.log
        #expect(log.first == "pan possible->began dragging=true")
        #expect(log.dropFirst().first == "pan began->changed dragging=true")
        let ended = try! #require(log.firstIndex(of: "pan changed->ended dragging=false"))
        #expect(log[..<ended].dropFirst(2).allSatisfy { $0 == "offset dragging=true" })
        #expect(log[(ended + 1)...].allSatisfy { $0 == "offset dragging=false" })
        stage.scrollView.contentSize = Size(width: 800, height: 3000)
        #expect(stage.log.last == "size 2000.0->3000.0")
    }

    @Test("component insets are kept apart from the user's and summed")
    func insets() {
        let stage = ScrollStage()
        let a = View(), b = View()
        let sv = stage.scrollView
        sv.contentInset = EdgeInsets(top: 20)
        sv.setComponentInset(EdgeInsets(top: 54), for: a)
        sv.setComponentInset(EdgeInsets(bottom: 44), for: b)
        #expect(sv.adjustedContentInset == EdgeInsets(top: 74, bottom: 44))
        #expect(sv.adjustedContentInset(excluding: a) == EdgeInsets(top: 20, bottom: 44))
        sv.contentInset = EdgeInsets(top: 30)
        sv.setComponentInset(EdgeInsets(top: 54), for: a)
        #expect(sv.adjustedContentInset.top == 84, "setting the same inset twice does not add it twice")
        sv.setComponentInset(.zero, for: a)
        #expect(sv.adjustedContentInset == EdgeInsets(top: 30, bottom: 44))
        #expect(sv.minimumContentOffset.y == -30)
        #expect(sv.maximumContentOffset.y == 2000 + 44 - 480)
    }

    @Test("an inset change during a bounce retargets it without a jump")
    func retarget() {
        let stage = ScrollStage()
        let owner = View()
        stage.drag(from: 100, to: 400, duration: 0.5, hold: 0.1)
        stage.scene.wait(0.05)
        let before = stage.scrollView.contentOffset.y
        stage.scrollView.setComponentInset(EdgeInsets(top: 54), for: owner)
        #expect(stage.scrollView.contentOffset.y == before)
        stage.scene.settle()
        #expect(stage.scrollView.contentOffset.y == -54)
    }

    @Test("maximumOverscroll caps the pull; bounces = false clamps it")
    func limits() {
        let capped = ScrollStage()
        capped.scrollView.maximumOverscroll.top = 60
        capped.drag(from: 100, to: 450, duration: 0.5, lift: false)
        #expect(capped.scrollView.contentOffset.y == -60)

        let stiff = ScrollStage()
        stiff.scrollView.bounces = false
        stiff.drag(from: 100, to: 450, duration: 0.5, lift: false)
        #expect(stiff.scrollView.contentOffset.y == 0)
    }

    @Test("setContentOffset animates from where the content is")
    func programmatic() {
        let stage = ScrollStage()
        stage.scrollView.contentOffset = Point(x: 0, y: 300)
        stage.scrollView.setContentOffset(Point(x: 0, y: 900), animated: true)
        stage.scene.wait(0.15)
        let mid = stage.scrollView.contentOffset.y
        #expect(mid > 300 && mid < 900)
        stage.scene.settle()
        #expect(stage.scrollView.contentOffset.y == 900)
        stage.scrollView.setContentOffset(Point(x: 0, y: 100), animated: false)
        #expect(stage.scrollView.contentOffset.y == 100)
    }

    @Test("a finger coming down stops a fling where it is")
    func catchFling() {
        let stage = ScrollStage(contentHeight: 20000)
        stage.drag(from: 400, to: 100, duration: 0.1)
        stage.scene.wait(0.2)
        #expect(stage.scrollView.isDecelerating)
        var script = GestureScript(start: stage.scene.clock.now)
        script.tap(at: Point(x: 400, y: 240))
        stage.scene.play(Array(script.frames.prefix(1)))
        let caught = stage.scrollView.contentOffset.y
        #expect(!stage.scrollView.isDecelerating)
        stage.scene.wait(0.5)
        #expect(stage.scrollView.contentOffset.y == caught)
    }

    @Test("caught mid-bounce, the content continues from where it is: no jump on the new drag")
    func catchBounce() {
        let stage = ScrollStage()
        stage.drag(from: 100, to: 400, duration: 0.3, hold: 0.1)
        stage.scene.wait(0.1)
        // A new finger: slop, then 60 px more down in 2 px steps.
        var script = GestureScript(start: stage.scene.clock.now + 0.01)
        script.drag(from: Point(x: 400, y: 200), to: Point(x: 400, y: 278), duration: 0.325, lift: false)
        stage.scene.play(Array(script.frames.prefix(1)))
        let caught = stage.scrollView.contentOffset.y
        #expect(caught < -20, "still out of range")
        #expect(!stage.scrollView.isDecelerating)
        var offsets: [Double] = []
        stage.scene.onFrame = { [unowned stage] _ in offsets.append(stage.scrollView.contentOffset.y) }
        stage.scene.play(Array(script.frames.dropFirst()))
        // The finger rests at its last event; the frames after it bring the content there.
        stage.scene.wait(0.05)
        // The touch stops the bounce where it is; the drag then continues through the
        // rubber band from there, one small step at a time.
        var previous = caught
        for offset in offsets {
            #expect(abs(offset - previous) < 5)
            previous = offset
        }
        let band = RubberBand(dimension: 480)
        let expected = -band.band(band.distance(forOverscroll: -caught) + 60)
        #expect(abs(stage.scrollView.contentOffset.y - expected) < 1e-6)
    }

    @Test("a pan on an axis that cannot scroll leaves that axis alone")
    func axes() {
        let stage = ScrollStage()
        var script = GestureScript(start: 0.1)
        script.drag(from: Point(x: 600, y: 300), to: Point(x: 200, y: 200), duration: 0.4, lift: false)
        stage.scrollView.contentOffset = Point(x: 0, y: 500)
        stage.scene.play(script.frames)
        #expect(stage.scrollView.contentOffset.x == 0)
        #expect(stage.scrollView.contentOffset.y > 500)
    }
}
