import Testing
@testable import PanelGestures

@Suite("Pan resampler")
struct PanResamplerTests {
    /// The display's period, seconds (60 Hz).
    static let period = 1.0 / 60

    /// A finger at `speed` px/s from time 0, reported every `interval` s, and frames drawn every
    /// period from `firstFrame`: at each frame the resampler knows the events up to it and is
    /// asked for `sampleDelay` s after the frame. Returns (asked time, answer, last event time).
    static func frames(interval: Double, speed: Double, sampleDelay: Double, count: Int = 40,
                       firstFrame: Double = 0.0301) -> [(time: Double, translation: Double, lastEvent: Double)] {
        var resampler = PanResampler()
        var next = 0
        var out: [(Double, Double, Double)] = []
        for k in 0..<count {
            let frame = firstFrame + Double(k) * period
            while Double(next) * interval <= frame {
                let t = Double(next) * interval
                resampler.add(Point(x: 0, y: speed * t), at: t)
                next += 1
            }
            let asked = frame + sampleDelay
            guard let answer = resampler.translation(at: asked) else { continue }
            out.append((asked, answer.y, Double(next - 1) * interval))
        }
        return out
    }

    @Test("constant velocity at 8, 12 and 14 ms against 16.7 ms frames: between events the finger's place, past the last one at most half an interval ahead (none once an event is overdue), to 0.01 px",
          arguments: [0.008, 0.012, 0.014])
    func constantVelocity(interval: Double) {
        let speed = 1200.0
        for delay in [-0.012, -0.005, 0.0, 0.0117] {
            for frame in Self.frames(interval: interval, speed: speed, sampleDelay: delay) {
                // Past the last event by more than an interval, the finger has stopped: held there.
                let overdue = frame.time - frame.lastEvent > interval
                let reach = overdue ? frame.lastEvent : min(frame.time, frame.lastEvent + min(interval / 2, PanResampler.maxPrediction))
                #expect(abs(frame.translation - speed * reach) < 0.01,
                        "interval \(interval), sample at \(frame.time): \(frame.translation), expected \(speed * reach)")
            }
        }
    }

    @Test("steps between frames: the events' uneven steps (judder) become even when the sample time falls between events")
    func evenSteps() {
        // 12 ms events against 16.7 ms frames: a frame's last event is 0 to 12 ms old, so
        // the content at that event moves 12 or 24 px a frame; sampled 12 ms back, 20 px each.
        let frames = Self.frames(interval: 0.012, speed: 1200, sampleDelay: -0.012)
        let steps = zip(frames.dropFirst(), frames).map { $0.translation - $1.translation }
        for step in steps { #expect(abs(step - 20) < 0.01, "step \(step)") }
        var atEvents: [Double] = []
        var next = 0
        for k in 0..<40 {
            let frame = 0.0301 + Double(k) * Self.period
            while Double(next) * 0.012 <= frame { next += 1 }
            atEvents.append(1200 * Double(next - 1) * 0.012)
        }
        let raw = Set(zip(atEvents.dropFirst(), atEvents).map { (($0 - $1) * 100).rounded() / 100 })
        #expect(raw == [14.4, 28.8], "the last event's steps: \(raw)")
    }

    @Test("a lift: nothing past the last event, however late the frame")
    func lift() throws {
        var r = PanResampler()
        for i in 0...5 { r.add(Point(x: 0, y: Double(i) * 10), at: Double(i) * 0.01) }
        #expect(try #require(r.translation(at: 0.054)).y > 50, "moving: the frame after the last event is ahead of it")
        r.lift()
        for t in [0.0500, 0.0501, 0.054, 0.1, 10] { #expect(r.translation(at: t)?.y == 50) }
        #expect(r.settled?.y == 50)
    }

    @Test("a turn: once an event goes back, nothing is extrapolated the old way; before it, at most half an interval")
    func reversal() throws {
        var r = PanResampler()
        // 1000 px/s down, every 10 ms, to 100 px at 0.1 s; then back up at the same speed.
        for i in 0...10 { r.add(Point(x: 0, y: Double(i) * 10), at: Double(i) * 0.01) }
        let before = try #require(r.translation(at: 0.105)).y
        #expect(abs(before - 105) < 1e-9, "before the turn is seen, half an interval ahead: \(before)")
        #expect(r.translation(at: 0.2)?.y == 100, "an event overdue: the finger stopped, the content rests under it")
        r.add(Point(x: 0, y: 90), at: 0.11)
        for t in [0.11, 0.112, 0.115, 0.2] {
            let y = try #require(r.translation(at: t)).y
            #expect(y == 90, "after the turn at \(t): \(y)")
        }
        // Between the events kept, the path is the finger's own: the turning point is the furthest.
        let between = stride(from: 0.0, through: 0.11, by: 0.001).compactMap { r.translation(at: $0)?.y }
        #expect(between.max() == 100)
        // Further back: extrapolated the new way again.
        r.add(Point(x: 0, y: 80), at: 0.12)
        #expect(abs(try #require(r.translation(at: 0.125)).y - 75) < 1e-9)
    }

    @Test("setting off from rest is no velocity: the content stays on the finger's last place; along each axis alone")
    func fromRest() throws {
        // The N-trig recording's end: at rest, then one step of 2.6 px back, 19 ms later; the
        // frame after it had shown the content 1.1 px past where the finger stopped.
        var r = PanResampler()
        r.add(Point(x: 0, y: 466.09), at: 1.4763)
        r.add(Point(x: 0, y: 466.09), at: 1.4867)
        r.add(Point(x: 0, y: 463.50), at: 1.5057)
        #expect(r.translation(at: 1.514)?.y == 463.50)
        // A diagonal drag whose Y turned while X went on: X is extrapolated, Y held.
        var d = PanResampler()
        d.add(Point(x: 0, y: 0), at: 0)
        d.add(Point(x: 10, y: 10), at: 0.01)
        d.add(Point(x: 20, y: 5), at: 0.02)
        let p = try #require(d.translation(at: 0.024))
        #expect(abs(p.x - 24) < 1e-9 && p.y == 5, "\(p)")
    }

    @Test("before the first event: none; events out of order are ignored; pairs too close or too far apart are not extrapolated")
    func edges() throws {
        var r = PanResampler()
        #expect(r.translation(at: 0) == nil)
        r.add(Point(x: 4, y: 0), at: 1.0)
        #expect(r.translation(at: 0.5) == Point(x: 4, y: 0), "before the first event: the first")
        #expect(r.translation(at: 2) == Point(x: 4, y: 0), "one event: nothing to extrapolate from")
        r.add(Point(x: 9, y: 0), at: 0.9)
        #expect(r.samples.count == 1)
        r.add(Point(x: 5, y: 0), at: 1.001)
        #expect(r.translation(at: 1.003) == Point(x: 5, y: 0), "1 ms apart: too close")
        r.add(Point(x: 6, y: 0), at: 1.031)
        #expect(r.translation(at: 1.04) == Point(x: 6, y: 0), "30 ms apart: too far")
        r.reset()
        #expect(r.translation(at: 1) == nil && !r.isLifted)
    }
}
