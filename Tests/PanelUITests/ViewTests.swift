import Testing
@testable import PanelUI

@MainActor
@Suite("View tree")
struct ViewTests {
    final class Recorder: View {
        var layouts = 0
        var displays = 0
        var taps: [Point] = []
        override func layoutSubviews() { layouts += 1 }
        override func willDisplay() { displays += 1 }
        override func handleTap(at point: Point) -> Bool {
            taps.append(point)
            return true
        }
    }

    @Test("subviews, removal and coordinate conversion through scrolled bounds")
    func tree() {
        let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        let scroller = View(frame: Rect(x: 10, y: 20, width: 200, height: 200))
        scroller.boundsOrigin = Point(x: 0, y: 50)
        let child = View(frame: Rect(x: 5, y: 100, width: 50, height: 50))
        root.addSubview(scroller)
        scroller.addSubview(child)
        #expect(child.superview === scroller)
        #expect(child.convert(Point(x: 0, y: 0), to: nil) == Point(x: 15, y: 70))
        #expect(root.convert(Point(x: 15, y: 70), to: child) == .zero)
        child.removeFromSuperview()
        #expect(scroller.subviews.isEmpty)
        #expect(child.superview == nil)
    }

    @Test("hit testing finds the deepest visible, interactive view")
    func hitTest() {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let a = Recorder(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        let b = Recorder(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        root.addSubview(a)
        a.addSubview(b)
        #expect(root.hitTest(Point(x: 15, y: 15)) === b)
        b.isHidden = true
        #expect(root.hitTest(Point(x: 15, y: 15)) === a)
        a.isUserInteractionEnabled = false
        #expect(root.hitTest(Point(x: 15, y: 15)) === root)
    }

    @Test("changes become damage in screen coordinates; layout and display run once per request")
    func damageAndLayout() {
        let clock = ManualClock()
        let screen = Screen(size: Size(width: 320, height: 240), animator: Animator(clock: clock))
        let view = Recorder(frame: Rect(x: 10, y: 10, width: 100, height: 40))
        screen.rootView.addSubview(view)
        _ = screen.prepareFrame()
        screen.didPresentFrame()
        let layouts = view.layouts, displays = view.displays
        #expect(screen.prepareFrame().isEmpty)
        #expect(!screen.needsFrame)
        view.alpha = 0.5
        #expect(screen.needsFrame)
        let damage = screen.prepareFrame()
        #expect(damage == [Rect(x: 10, y: 10, width: 100, height: 40)])
        #expect(view.displays == displays + 1)
        #expect(view.layouts == layouts)
        view.frame = Rect(x: 20, y: 10, width: 100, height: 50)
        let moved = screen.prepareFrame()
        func covered(_ r: Rect) -> Bool { moved.contains { $0.union(r) == $0 } }
        #expect(covered(Rect(x: 10, y: 10, width: 100, height: 40)), "where it was")
        #expect(covered(Rect(x: 20, y: 10, width: 100, height: 50)), "where it is")
        #expect(view.layouts == layouts + 1, "a new size lays out again")
    }

    @Test("damage is clipped to the screen")
    func clipped() {
        let screen = Screen(size: Size(width: 100, height: 100), animator: Animator(clock: ManualClock()))
        let view = View(frame: Rect(x: 80, y: -30, width: 50, height: 50))
        screen.rootView.addSubview(view)
        _ = screen.prepareFrame()
        view.backgroundColor = .black
        #expect(screen.prepareFrame() == [Rect(x: 80, y: 0, width: 20, height: 20)])
    }

    @Test("labels measure text; wide scripts count double")
    func labels() {
        let label = Label()
        label.font = .bold(14)
        label.text = "abcd"
        let latin = label.textWidth
        label.text = "下拉刷新"
        #expect(label.textWidth > latin * 1.5)
        label.text = ""
        #expect(label.textWidth == 0)
    }
}

@MainActor
@Suite("Images and spinners")
struct ImageAndSpinnerTests {
    func scene() -> Scene {
        let scene = Scene(size: Size(width: 100, height: 100))
        scene.frame()
        return scene
    }

    @Test("an image view plays its frames at animationDuration / count each, in a loop")
    func frames() {
        let scene = scene()
        let view = ImageView(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        let images = (0..<4).map { ImageReference(name: "f\($0)", size: Size(width: 20, height: 20)) }
        view.animationImages = images
        view.animationDuration = 0.4
        scene.screen.rootView.addSubview(view)
        view.startAnimating()
        var seen: [String] = []
        scene.frame()
        for _ in 0..<10 {
            seen.append(view.currentImage?.name ?? "-")
            scene.time.step(by: 0.1)
        }
        #expect(seen == ["f0", "f1", "f2", "f3", "f0", "f1", "f2", "f3", "f0", "f1"])
        view.stopAnimating()
        view.image = images[2]
        #expect(view.currentImage == images[2])
        #expect(view.frameIndex(elapsed: 0.35) == 3)
    }

    @Test("a spinner steps through its 12 spokes once a second while animating, and hides when stopped")
    func spinner() {
        let scene = scene()
        let spinner = ActivityIndicator()
        scene.screen.rootView.addSubview(spinner)
        #expect(!spinner.isVisible)
        spinner.startAnimating()
        #expect(spinner.isVisible)
        scene.frame()
        scene.time.step(by: 0.5)
        #expect(spinner.phase == 6)
        scene.time.step(by: 0.55)
        #expect(spinner.phase == 0)
        spinner.stopAnimating()
        #expect(!spinner.isVisible)
        #expect(scene.animator.isIdle)
    }

    @Test("a spinner started before it is on screen starts turning once it is")
    func lateAttach() {
        let scene = scene()
        let spinner = ActivityIndicator()
        spinner.startAnimating()
        #expect(scene.animator.isIdle)
        scene.screen.rootView.addSubview(spinner)
        #expect(!scene.animator.isIdle)
    }
}

@MainActor
@Suite("Autoresizing")
struct AutoresizingTests {
    @Test("flexible width and height keep the margins when the superview resizes")
    func mask() {
        let parent = View(frame: Rect(x: 0, y: 0, width: 800, height: 480))
        let wide = View(frame: Rect(x: 10, y: 0, width: 780, height: 40))
        wide.autoresizingMask = .flexibleWidth
        let tall = View(frame: Rect(x: 0, y: 5, width: 60, height: 470))
        tall.autoresizingMask = .flexibleHeight
        let fixed = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        for view in [wide, tall, fixed] { parent.addSubview(view) }
        parent.frame = Rect(x: 0, y: 0, width: 480, height: 800)
        #expect(wide.frame == Rect(x: 10, y: 0, width: 460, height: 40))
        #expect(tall.frame == Rect(x: 0, y: 5, width: 60, height: 790))
        #expect(fixed.frame == Rect(x: 0, y: 0, width: 100, height: 100))
    }
}

@MainActor
@Suite("Drawing extent")
struct DrawingExtentTests {
    @Test("a turned image reaches outside its bounds, and its damage covers where it was and is")
    func rotated() {
        let screen = Screen(size: Size(width: 200, height: 200), animator: Animator(clock: ManualClock()))
        let arrow = ImageView(frame: Rect(x: 50, y: 50, width: 15, height: 40))
        arrow.image = ImageReference(name: "arrow", size: Size(width: 15, height: 40))
        screen.rootView.addSubview(arrow)
        _ = screen.prepareFrame()
        arrow.rotation = .pi / 2
        let extent = arrow.drawingExtent
        #expect(abs(extent.width - 40) < 1e-9 && abs(extent.height - 15) < 1e-9)
        let damage = screen.prepareFrame()
        func covered(_ r: Rect) -> Bool { damage.contains { $0.union(r) == $0 } }
        #expect(covered(Rect(x: 50, y: 50, width: 15, height: 40)), "upright")
        #expect(covered(Rect(x: 37.5, y: 62.5, width: 40, height: 15)), "turned")
        arrow.isHidden = true
        let hidden = screen.prepareFrame()
        #expect(hidden.contains { $0.union(Rect(x: 37.5, y: 50, width: 40, height: 40)) == $0 })
    }
}
