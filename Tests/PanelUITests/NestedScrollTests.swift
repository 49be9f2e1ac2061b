import Testing
@testable import PanelUI

/// A vertical scroll view (800×480, content 2000 high) holding a horizontal strip (y 100–250
/// in its content, 2400 wide) and a vertical box (y 300–450, 150 high, content 450).
@MainActor
final class NestedStage {
    let scene = Scene(size: Size(width: 800, height: 480))
    let outer: ScrollView
    let strip: ScrollView
    let box: ScrollView

    init() {
        outer = ScrollView(frame: Rect(x: 0, y: 0, width: 800, height: 480), animator: scene.animator)
        outer.contentSize = Size(width: 800, height: 2000)
        outer.alwaysBounceVertical = true
        strip = ScrollView(frame: Rect(x: 0, y: 100, width: 800, height: 150), animator: scene.animator)
        strip.contentSize = Size(width: 2400, height: 150)
        box = ScrollView(frame: Rect(x: 100, y: 300, width: 600, height: 150), animator: scene.animator)
        box.contentSize = Size(width: 600, height: 450)
        outer.addSubview(strip)
        outer.addSubview(box)
        scene.screen.rootView.addSubview(outer)
        scene.dispatcher.scrollView = outer
        scene.frame()
    }

    /// The finger movement the slop took before the last pan began, px along its axis (the
    /// content follows the finger from there).
    var slop: Double {
        let m = scene.dispatcher.pan.movementAtBegin
        return max(abs(m.x), abs(m.y))
    }

    /// A slow drag (no fling) from `from` to `to`, screen px.
    func drag(_ from: Point, _ to: Point, lift: Bool = true) {
        var script = GestureScript(start: scene.clock.now + 0.1)
        script.drag(from: from, to: to, duration: 0.5, hold: 0.2, lift: lift)
        scene.play(script.frames)
    }
}

@MainActor
@Suite("Touch routing and nested scrolling")
struct NestedScrollTests {
    @Test("a sideways pan on the horizontal strip moves the strip, not the list")
    func stripSideways() {
        let stage = NestedStage()
        stage.drag(Point(x: 600, y: 170), Point(x: 300, y: 170))
        #expect(stage.slop >= 18)
        #expect(stage.strip.contentOffset.x == 300 - stage.slop)
        #expect(stage.outer.contentOffset.y == 0)
        #expect(stage.scene.dispatcher.panTarget == nil, "the pan is over")
    }

    @Test("an up-and-down pan that starts on the strip moves the list; the strip stays")
    func stripVertical() {
        let stage = NestedStage()
        stage.drag(Point(x: 400, y: 220), Point(x: 410, y: 20), lift: false)
        #expect(stage.scene.dispatcher.panTarget === stage.outer)
        #expect(stage.outer.contentOffset.y == 200 - stage.slop)
        #expect(stage.strip.contentOffset.x == 0)
    }

    @Test("the direction is the one that passed the slop: a steep pan on the strip is the list's even if it drifts sideways later")
    func directionAtSlop() {
        let stage = NestedStage()
        var script = GestureScript(start: stage.scene.clock.now + 0.1)
        script.drag(through: [Point(x: 400, y: 220), Point(x: 400, y: 180), Point(x: 100, y: 180)],
                    segmentDuration: 0.2, lift: false)
        stage.scene.play(script.frames)
        #expect(stage.scene.dispatcher.panTarget === stage.outer)
        #expect(stage.strip.contentOffset.x == 0)
    }

    @Test("a pan on the inner box scrolls it to its end, then the rest moves the list; back down in the same pan, the list gives its share back first")
    func nestedOverscroll() {
        let stage = NestedStage()
        // Up by 400 on the box (screen y 300-450): the box has 300 to give; then down by 150
        // with the same finger.
        var script = GestureScript(start: stage.scene.clock.now + 0.1)
        script.drag(through: [Point(x: 400, y: 440), Point(x: 400, y: 40)], segmentDuration: 0.5, lift: false)
        stage.scene.play(script.frames)
        // The finger rests: the frames after its last event bring the content under it (the
        // pan is resampled: a frame shows the finger 6 ms before it was drawn).
        stage.scene.wait(0.05)
        #expect(stage.scene.dispatcher.panTarget === stage.box)
        #expect(stage.box.contentOffset.y == 300)
        let outer = 400 - stage.slop - 300
        #expect(outer > 50 && stage.outer.contentOffset.y == outer)
        // The same finger (a second script would be a second finger), now coming back down.
        var both = GestureScript(start: 0.1)
        both.drag(through: [Point(x: 400, y: 440), Point(x: 400, y: 40), Point(x: 400, y: 190)], segmentDuration: 0.5, lift: false)
        let again = NestedStage()
        again.scene.play(both.frames)
        again.scene.wait(0.05)
        #expect(again.outer.contentOffset.y == 0, "the list gave its share back first")
        #expect(again.box.contentOffset.y == 300 - (150 - outer))
    }

    @Test("a new pan down on the scrolled box moves the box first (the child before its parent)")
    func childFirst() {
        let stage = NestedStage()
        stage.outer.contentOffset = Point(x: 0, y: 100)
        stage.box.contentOffset = Point(x: 0, y: 300)
        stage.scene.frame()
        let top = stage.outer.convert(stage.box.frame, to: nil).minY
        stage.drag(Point(x: 400, y: top + 10), Point(x: 400, y: top + 160), lift: false)
        #expect(stage.box.contentOffset.y == 300 - (150 - stage.slop))
        #expect(stage.outer.contentOffset.y == 100)
    }

    @Test("pulled down at the box's top, the list overscrolls (its refresh header would pull), and springs back on release")
    func outerOverscroll() {
        let stage = NestedStage()
        stage.drag(Point(x: 400, y: 310), Point(x: 400, y: 460), lift: false)
        #expect(stage.box.contentOffset.y == 0)
        #expect(stage.outer.contentOffset.y < -30, "the list rubber-bands")
        #expect(stage.outer.isDragging)
        stage.scene.dispatcher.cancelAll(at: stage.scene.clock.now)
        stage.scene.wait(2)
        #expect(stage.outer.contentOffset.y == 0 && stage.box.contentOffset.y == 0)
    }

    @Test("a fling from the box goes to whichever moved last: released while the list moves, the list flings")
    func flingGoesToLastMover() {
        let stage = NestedStage()
        var script = GestureScript(start: stage.scene.clock.now + 0.1)
        script.drag(from: Point(x: 400, y: 440), to: Point(x: 400, y: 40), duration: 0.15, lift: true)
        stage.scene.play(script.frames)
        let released = stage.outer.contentOffset.y
        stage.scene.wait(2)
        #expect(stage.box.contentOffset.y == 300)
        #expect(stage.outer.contentOffset.y > released + 100, "the list carried on")
    }

    @Test("where no scroll view is under the finger, the dispatcher's own scroll view takes the pan")
    func fallback() {
        let scene = Scene(size: Size(width: 800, height: 480))
        let list = ScrollView(frame: Rect(x: 0, y: 100, width: 800, height: 380), animator: scene.animator)
        list.contentSize = Size(width: 800, height: 2000)
        scene.screen.rootView.addSubview(list)
        scene.dispatcher.scrollView = list
        scene.frame()
        var script = GestureScript(start: 0.1)
        script.drag(from: Point(x: 400, y: 90), to: Point(x: 400, y: 10), duration: 0.5, hold: 0.2, lift: false)
        scene.play(script.frames)
        let m = scene.dispatcher.pan.movementAtBegin
        #expect(scene.dispatcher.panTarget === list)
        #expect(list.contentOffset.y == 80 - abs(m.y))
    }
}
