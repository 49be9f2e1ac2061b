import Testing
@testable import PanelGestures

@Suite("Velocity tracker")
struct VelocityTrackerTests {
    @Test("constant motion gives its velocity exactly")
    func linear() {
        var tracker = VelocityTracker()
        for i in 0..<10 {
            let t = Double(i) * 0.008
            tracker.add(Point(x: 10 + 300 * t, y: 50 - 1200 * t), at: t)
        }
        let v = tracker.velocity()
        #expect(abs(v.x - 300) < 1e-6)
        #expect(abs(v.y + 1200) < 1e-6)
    }

    @Test("accelerating motion: the quadratic fit gives the velocity at the newest sample")
    func quadratic() {
        var tracker = VelocityTracker()
        // y = 5000·t² → dy/dt = 10000·t; newest sample at t = 0.09 → 900 px/s.
        for i in 0...9 {
            let t = Double(i) * 0.01
            tracker.add(Point(x: 0, y: 5000 * t * t), at: t)
        }
        #expect(abs(tracker.velocity().y - 900) < 1e-6)
    }

    @Test("only the last 100 ms count")
    func horizon() {
        var tracker = VelocityTracker()
        // Moving down fast long ago, then up at 200 px/s for the last 100 ms.
        var y = 0.0
        for i in 0..<10 { tracker.add(Point(x: 0, y: y), at: Double(i) * 0.01); y += 30 }
        let start = 0.2
        for i in 0...10 {
            tracker.add(Point(x: 0, y: 1000 - 200 * Double(i) * 0.01), at: start + Double(i) * 0.01)
        }
        #expect(abs(tracker.velocity().y + 200) < 1e-6)
    }

    @Test("a pause of more than 40 ms before the lift gives zero")
    func pauseBeforeLift() {
        var tracker = VelocityTracker()
        for i in 0..<6 { tracker.add(Point(x: 0, y: Double(i) * 10), at: Double(i) * 0.01) }
        #expect(tracker.velocity(at: 0.05 + 0.039).y > 900)
        #expect(tracker.velocity(at: 0.05 + 0.041) == .zero)
    }

    @Test("a gap of more than 40 ms between samples ends the scan")
    func gapInHistory() {
        var tracker = VelocityTracker()
        tracker.add(Point(x: 0, y: 0), at: 0)
        tracker.add(Point(x: 0, y: 100), at: 0.01)
        // 50 ms without movement events, then two samples: fewer than three after the gap.
        tracker.add(Point(x: 0, y: 100), at: 0.06)
        tracker.add(Point(x: 0, y: 110), at: 0.07)
        #expect(tracker.velocity() == .zero)
    }

    @Test("fewer than three samples give zero")
    func tooFew() {
        var tracker = VelocityTracker()
        tracker.add(Point(x: 0, y: 0), at: 0)
        tracker.add(Point(x: 0, y: 50), at: 0.01)
        #expect(tracker.velocity() == .zero)
    }

    @Test("samples at one instant give zero, not a division by zero")
    func degenerate() {
        var tracker = VelocityTracker()
        for _ in 0..<5 { tracker.add(Point(x: 3, y: 4), at: 1) }
        #expect(tracker.velocity() == .zero)
    }

    @Test("at most 20 samples are kept")
    func historySize() {
        var tracker = VelocityTracker()
        tracker.horizon = 10 // let the history size, not the horizon, decide
        // 30 samples; the first 10 at 1000 px/s, the last 20 at 100 px/s.
        var y = 0.0
        for i in 0..<30 {
            tracker.add(Point(x: 0, y: y), at: Double(i) * 0.001)
            y += i < 10 ? 1 : 0.1
        }
        #expect(abs(tracker.velocity().y - 100) < 1e-6)
    }
}

@Suite("Velocity tracker history")
struct VelocityTrackerHistoryTests {
    @Test("lowering the history size keeps the newest samples")
    func shrink() {
        var tracker = VelocityTracker()
        tracker.horizon = 10
        var y = 0.0
        for i in 0..<20 {
            tracker.add(Point(x: 0, y: y), at: Double(i) * 0.001)
            y += i < 15 ? 1 : 0.2
        }
        tracker.historySize = 4
        // The next sample continues at 200 px/s: the 4 kept are the newest, all at 200 px/s.
        tracker.add(Point(x: 0, y: y), at: 0.020)
        #expect(abs(tracker.velocity().y - 200) < 1e-6)
    }
}
