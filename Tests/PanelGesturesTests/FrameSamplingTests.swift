import Testing
@testable import PanelGestures

/// A pan's sampling for frames that start late (`PanRecognizer.frameTranslation(at:)`): the
/// screen's own delay, interpolation, and only the extrapolation its regularity earns.
@Suite("Frame sampling of a pan")
struct FrameSamplingTests {
    /// The display's period, seconds (60 Hz).
    static let period = 1.0 / 60

    /// A finger moving down by `position(t)` px, reported at `times` (seconds, the first a
    /// touch-down), frames starting every period from `firstFrame`: each frame's sample
    /// (where the content goes) with its time, once the pan has begun, and the sampling used.
    static func frames(times: [Double], position: (Double) -> Double, firstFrame: Double = 0.0031,
                       liftAt lift: Double? = nil, stated: PanResampler.Sampling? = nil) -> (samples: [(time: Double, y: Double)], sampling: PanResampler.Sampling) {
        var pan = PanRecognizer()
        var next = 0
        var out: [(Double, Double)] = []
        var frame = firstFrame
        let end = (lift ?? times.last ?? 0) + 0.1
        var began: Double?
        while frame < end {
            while next < times.count, times[next] <= frame {
                let t = times[next]
                let phase: TouchPhase = next == 0 ? .began : .moved
                if let event = pan.handle(TouchFrame(timestamp: t, touches: [Touch(id: 1, position: Point(x: 100, y: 100 + position(t)), phase: phase, timestamp: t)])),
                   event.state == .began { began = began ?? (100 + position(t)) - 100 - event.translation.y }
                next += 1
            }
            if let lift, lift <= frame, pan.state == .changed || pan.state == .began {
                _ = pan.handle(TouchFrame(timestamp: lift, touches: [Touch(id: 1, position: Point(x: 100, y: 100 + position(lift)), phase: .ended, timestamp: lift)]))
            }
            let sampling = stated ?? pan.frameSampling()
            if let origin = began, let translation = pan.frameTranslation(at: frame, sampling: sampling) {
                out.append((frame - sampling.delay, origin + translation.y))
            }
            frame += period
        }
        return (out, pan.frameSampling())
    }

    @Test("constant velocity at 8, 12, 14 and 40 ms against 16.7 ms frames: every frame shows the finger at its sample time, to 0.01 pt",
          arguments: [0.008, 0.012, 0.014, 0.040])
    func constantVelocity(interval: Double) {
        let speed = 900.0
        let times = (0..<Int(1.0 / interval)).map { Double($0) * interval }
        let (samples, sampling) = Self.frames(times: times, position: { speed * $0 })
        #expect(samples.count > 20)
        // A regular screen: a delay near half an interval plus 1 ms, the rest extrapolated.
        #expect(sampling.delay < interval + 0.001)
        #expect(sampling.extrapolation > 0)
        // Once the sampling is fixed (eight intervals) and up to the last event (after it the
        // finger has stopped reporting: held).
        for sample in samples where sample.time > times[8] && sample.time <= times[times.count - 1] {
            #expect(abs(sample.y - speed * sample.time) < 0.01, "at \(sample.time): \(sample.y) against \(speed * sample.time)")
        }
    }

    @Test("irregular intervals (7 to 25 ms, as the N-trig's): interpolated, no step between two frames larger than the finger's own; with the learned allowance, none larger by more than the allowance's reach, and none back")
    func irregular() {
        // Reports at uneven times along a finger that speeds up.
        let gaps = [0.007, 0.025, 0.011, 0.019, 0.008, 0.023, 0.014, 0.009, 0.021, 0.012]
        var times: [Double] = [0]
        for k in 0..<60 { times.append(times[times.count - 1] + gaps[k % gaps.count]) }
        let position = { (t: Double) in 400 * t + 60 * t * t }
        let learned = PanResampler.Sampling(intervals: zip(times.dropFirst(), times).map { $0 - $1 })
        #expect(learned.extrapolation < 0.003, "an irregular screen earns little extrapolation: \(learned)")
        let interpolated = PanResampler.Sampling(delay: learned.delay + learned.extrapolation, extrapolation: 0)
        for (sampling, reach) in [(interpolated, 0.0), (learned, learned.extrapolation)] {
            let (samples, _) = Self.frames(times: times, position: position, stated: sampling)
            #expect(samples.count > 30)
            let within = samples.filter { $0.time > times[2] && $0.time <= times[times.count - 1] }
            let largestFinger = zip(within, within.dropFirst()).map { position($1.time) - position($0.time) }.max() ?? 0
            // The finger's speed at the end, over the allowance: how far extrapolation may reach.
            let slack = reach * (400 + 120 * times[times.count - 1]) + 0.01
            for (a, b) in zip(within, within.dropFirst()) {
                #expect(b.y - a.y <= largestFinger + slack, "a step of \(b.y - a.y) where the finger's largest is \(largestFinger) (\(sampling))")
                #expect(b.y - a.y >= -0.01, "the content went back by \(a.y - b.y) (\(sampling))")
            }
        }
    }

    @Test("a lift and a reversal: the content never goes past where the finger went")
    func liftAndReversal() {
        let interval = 0.010
        let times = (0..<40).map { Double($0) * interval }
        // Down at 800 pt/s for 0.2 s, then back up at 800 pt/s; lifted at 0.39 s.
        let position = { (t: Double) in t <= 0.2 ? 800 * t : 160 - 800 * (t - 0.2) }
        let (samples, _) = Self.frames(times: times, position: position, liftAt: 0.39)
        let furthest = 160.0
        for sample in samples {
            #expect(sample.y <= furthest + 0.01, "at \(sample.time): \(sample.y) past the turn at \(furthest)")
        }
        // Back up, never below where the finger ended.
        let last = position(times[times.count - 1])
        #expect(samples.allSatisfy { $0.y >= last - 0.01 }, "below where the finger ended")
    }

    @Test("the sampling is learned from the screen's intervals, a rest's long gap left out, and fixed for the stroke")
    func learned() {
        #expect(PanResampler.Sampling(intervals: []) == PanResampler.Sampling(delay: 0.011, extrapolation: 0))
        let regular = PanResampler.Sampling(intervals: Array(repeating: 0.014, count: 8))
        #expect(abs(regular.extrapolation - 0.007) < 1e-9)
        #expect(abs(regular.delay - 0.008) < 1e-9)
        // A 25 Hz panel: extrapolation up to its cap of 8 ms, the rest interpolated.
        let slow = PanResampler.Sampling(intervals: Array(repeating: 0.040, count: 8))
        #expect(abs(slow.extrapolation - PanResampler.maxPrediction) < 1e-9)
        #expect(abs(slow.delay - 0.033) < 1e-9)
        // 16 ms reports with a finger's rests of 30 ms among them: the rests are not intervals.
        let rests = PanResampler.Sampling(intervals: [0.016, 0.016, 0.030, 0.016, 0.032, 0.016, 0.016, 0.016, 0.016])
        #expect(abs(rests.delay - (0.017 - rests.extrapolation)) < 1e-9)
    }

    @Test("a screen that reports evenly extrapolates less the noisier its velocity; an uneven one keeps the allowance its intervals make")
    func noiseRule() {
        let even = Array(repeating: 0.014, count: 8)
        let quiet = PanResampler.Sampling(intervals: even, noise: Array(repeating: 0, count: 9))
        let noisy = PanResampler.Sampling(intervals: even, noise: [0.1, 0.12, 0.08, 0.1, 0.1, 0.3, 0.05, 0.1, 0.1])
        #expect(quiet == PanResampler.Sampling(intervals: even))
        // The median noise, 0.1: 1 − 3 × 0.1 of the allowance, the rest of it sampled further back.
        #expect(abs(noisy.extrapolation - quiet.extrapolation * 0.7) < 1e-9)
        #expect(abs((noisy.delay + noisy.extrapolation) - (quiet.delay + quiet.extrapolation)) < 1e-9)
        #expect(PanResampler.Sampling(intervals: even, noise: Array(repeating: 0.5, count: 9)).extrapolation == 0, "too noisy: interpolation only")
        let uneven = [0.007, 0.010, 0.014, 0.019, 0.025, 0.012, 0.009, 0.016, 0.011]
        #expect(PanResampler.Sampling(intervals: uneven, noise: Array(repeating: 0.4, count: 9)) == PanResampler.Sampling(intervals: uneven))
    }

    @Test("the velocity's noise is learned from the reports: none for a steady drag, much for points that wander, nothing from a finger at rest")
    func stepNoise() {
        func noise(_ position: (Int) -> Double) -> [Double] {
            var pan = PanRecognizer()
            for i in 0..<30 {
                let t = Double(i) * 0.008
                _ = pan.handle(TouchFrame(timestamp: t, touches: [Touch(id: 1, position: Point(x: 100, y: position(i)), phase: i == 0 ? .began : .moved, timestamp: t)]))
            }
            return pan.stepNoise
        }
        let steady = noise { 100 + Double($0) * 4 }
        #expect(steady.count > 20 && steady.allSatisfy { $0 < 1e-9 })
        let wandering = noise { 100 + Double($0) * 4 + ($0 % 2 == 0 ? 1.5 : -1.5) }
        #expect(wandering.count > 20 && wandering.sorted()[wandering.count / 2] > 0.5)
        #expect(noise { _ in 100 }.isEmpty, "a finger at rest moves too slowly to tell")
    }
}
