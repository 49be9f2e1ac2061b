import Testing
@testable import PanelGestures

/// Builds frames for one or more fingers by hand.
struct Fingers {
    var time = 0.0
    func frame(_ touches: [(Int, Double, Double, TouchPhase)]) -> TouchFrame {
        TouchFrame(timestamp: time, touches: touches.map {
            Touch(id: $0.0, position: Point(x: $0.1, y: $0.2), phase: $0.3, timestamp: time)
        })
    }
}

@Suite("Pan recognizer")
struct PanRecognizerTests {
    @Test("nothing happens until the finger passes the slop; translation starts at zero")
    func slop() throws {
        var pan = PanRecognizer()
        var f = Fingers()
        let event1 = pan.handle(f.frame([(1, 100, 100, .began)]))
        #expect(event1 == nil)
        f.time = 0.01
        let event2 = pan.handle(f.frame([(1, 100, 117, .moved)]))
        #expect(event2 == nil)
        #expect(pan.state == .possible)
        f.time = 0.02
        let event3 = pan.handle(f.frame([(1, 100, 120, .moved)]))
        let began = try #require(event3)
        #expect(began.state == .began)
        #expect(began.translation == .zero)
        f.time = 0.03
        let event4 = pan.handle(f.frame([(1, 100, 150, .moved)]))
        let changed = try #require(event4)
        #expect(changed.state == .changed)
        #expect(changed.translation == Point(x: 0, y: 30))
        #expect(changed.location == Point(x: 100, y: 150))
    }

    @Test("the slop is configurable")
    func customSlop() {
        var pan = PanRecognizer(configuration: .init(slop: 5))
        var f = Fingers()
        _ = pan.handle(f.frame([(1, 0, 0, .began)]))
        f.time = 0.01
        let event5 = pan.handle(f.frame([(1, 0, 6, .moved)]))
        #expect(event5?.state == .began)
    }

    @Test("a touch that lifts within the slop fails (it was a tap)")
    func tapFails() {
        var pan = PanRecognizer()
        var f = Fingers()
        _ = pan.handle(f.frame([(1, 10, 10, .began)]))
        f.time = 0.05
        let event6 = pan.handle(f.frame([(1, 12, 11, .ended)]))
        #expect(event6 == nil)
        #expect(pan.state == .failed)
        // The next touch starts afresh.
        f.time = 1
        _ = pan.handle(f.frame([(2, 10, 10, .began)]))
        #expect(pan.state == .possible)
    }

    @Test("a release at speed reports the release velocity")
    func fling() throws {
        var pan = PanRecognizer()
        var script = GestureScript(rate: 100)
        script.drag(from: Point(x: 50, y: 400), to: Point(x: 50, y: 100), duration: 0.2)
        var last: PanRecognizer.Event?
        for frame in script.frames { if let e = pan.handle(frame) { last = e } }
        let ended = try #require(last)
        #expect(ended.state == .ended)
        #expect(abs(ended.velocity.y + 1500) < 1)
        #expect(ended.translation.y < -250)
    }

    @Test("slow releases do not fling; fast ones are clamped to 8000 px/s")
    func flingLimits() throws {
        var slow = PanRecognizer()
        var script = GestureScript(rate: 100)
        script.drag(from: Point(x: 0, y: 0), to: Point(x: 0, y: 40), duration: 1)
        var last: PanRecognizer.Event?
        for frame in script.frames { if let e = slow.handle(frame) { last = e } }
        #expect(try #require(last).velocity == .zero, "40 px/s is below the 50 px/s minimum")

        var fast = PanRecognizer()
        var whip = GestureScript(rate: 200)
        whip.drag(from: Point(x: 0, y: 0), to: Point(x: 0, y: 600), duration: 0.04)
        last = nil
        for frame in whip.frames { if let e = fast.handle(frame) { last = e } }
        #expect(abs(try #require(last).velocity.y - 8000) < 1e-6)
    }

    @Test("a second finger does not make the pan jump; the pan follows the centroid's movement")
    func secondFinger() throws {
        var pan = PanRecognizer()
        var f = Fingers()
        _ = pan.handle(f.frame([(1, 100, 100, .began)]))
        f.time = 0.01
        _ = pan.handle(f.frame([(1, 100, 130, .moved)]))
        f.time = 0.02
        let event7 = pan.handle(f.frame([(1, 100, 140, .moved)]))
        let before = try #require(event7)
        // A second finger lands 200 px away: the centroid jumps by 100, the translation must not.
        f.time = 0.03
        let event8 = pan.handle(f.frame([(1, 100, 140, .moved), (2, 300, 340, .began)]))
        let added = try #require(event8)
        #expect(added.translation == before.translation)
        #expect(added.numberOfTouches == 2)
        #expect(added.location == Point(x: 200, y: 240))
        // Both move 20 down: the pan moves 20.
        f.time = 0.04
        let event9 = pan.handle(f.frame([(1, 100, 160, .moved), (2, 300, 360, .moved)]))
        let moved = try #require(event9)
        #expect(moved.translation.y == before.translation.y + 20)
        // The first finger lifts: no jump either.
        f.time = 0.05
        let event10 = pan.handle(f.frame([(1, 100, 160, .ended), (2, 300, 360, .moved)]))
        let lifted = try #require(event10)
        #expect(lifted.translation == moved.translation)
        #expect(lifted.state == .changed)
        #expect(lifted.numberOfTouches == 1)
    }

    @Test("locked to the vertical axis, a sideways swipe fails and sideways drift is ignored")
    func axisLock() throws {
        var pan = PanRecognizer(configuration: .init(lockedAxis: .vertical))
        var f = Fingers()
        _ = pan.handle(f.frame([(1, 100, 100, .began)]))
        f.time = 0.01
        let event11 = pan.handle(f.frame([(1, 130, 105, .moved)]))
        #expect(event11 == nil)
        #expect(pan.state == .failed)

        var vertical = PanRecognizer(configuration: .init(lockedAxis: .vertical))
        f.time = 0
        _ = vertical.handle(f.frame([(1, 100, 100, .began)]))
        f.time = 0.01
        _ = vertical.handle(f.frame([(1, 105, 130, .moved)]))
        f.time = 0.02
        let event12 = vertical.handle(f.frame([(1, 125, 160, .moved)]))
        let e = try #require(event12)
        #expect(e.translation == Point(x: 0, y: 30))
    }

    @Test("cancel ends a pan with cancelled and no velocity; a lost contact does the same")
    func cancel() throws {
        var pan = PanRecognizer()
        var f = Fingers()
        _ = pan.handle(f.frame([(1, 0, 0, .began)]))
        f.time = 0.01
        _ = pan.handle(f.frame([(1, 0, 40, .moved)]))
        let cancelEvent = pan.cancel(at: 0.02)
        let cancelled = try #require(cancelEvent)
        #expect(cancelled.state == .cancelled)
        #expect(cancelled.velocity == .zero)

        var lost = PanRecognizer()
        f.time = 0
        _ = lost.handle(f.frame([(1, 0, 0, .began)]))
        f.time = 0.01
        _ = lost.handle(f.frame([(1, 0, 40, .moved)]))
        f.time = 0.02
        let event13 = lost.handle(f.frame([(1, 0, 40, .cancelled)]))
        #expect(event13?.state == .cancelled)
        // A new touch afterwards is a new pan.
        f.time = 0.5
        _ = lost.handle(f.frame([(2, 0, 0, .began)]))
        f.time = 0.51
        let event14 = lost.handle(f.frame([(2, 0, 30, .moved)]))
        #expect(event14?.state == .began)
    }
}

@Suite("Malformed input")
struct MalformedInputTests {
    @Test("non-finite positions are ignored, not spread through the pan")
    func nonFinite() throws {
        var pan = PanRecognizer()
        var f = Fingers()
        _ = pan.handle(f.frame([(1, 0, 0, .began)]))
        f.time = 0.01
        _ = pan.handle(f.frame([(1, 0, 30, .moved)]))
        f.time = 0.02
        let poisoned = pan.handle(f.frame([(1, .nan, .infinity, .moved)]))
        // The poisoned sample moves nothing: the pan reports where it was, in finite numbers.
        let held = try #require(poisoned, "a moving pan reports every frame")
        #expect(held.translation == Point(x: 0, y: 0), "began at 30, nothing usable since")
        #expect(held.location.x.isFinite && held.location.y.isFinite)
        f.time = 0.03
        let event = pan.handle(f.frame([(1, 0, 50, .moved)]))
        let e = try #require(event)
        #expect(e.translation.x.isFinite && e.translation.y.isFinite)
        #expect(e.translation.y == 20, "began at 30, now at 50")
    }

    @Test("samples that go back in time are dropped")
    func backwards() {
        var tracker = VelocityTracker()
        for i in 0..<5 { tracker.add(Point(x: 0, y: Double(i) * 10), at: Double(i) * 0.01) }
        tracker.add(Point(x: 0, y: 5000), at: 0.001)
        tracker.add(Point(x: .nan, y: 0), at: 0.05)
        #expect(abs(tracker.velocity().y - 1000) < 1e-6)
    }
}
