import Testing
@testable import PanelDisplay

/// Frames started late in the period (`FrameScheduler`).
@Suite("Frame scheduler")
struct FrameSchedulerTests {
    static let period = 1.0 / 60

    @Test("a frame needed between vblanks starts the window before the next one; inside the window, at once; off, at once")
    func starts() {
        let scheduler = FrameScheduler(period: Self.period, phase: 0, mode: .fixed(0.005))
        #expect(abs(scheduler.vblank(after: 0.001) - Self.period) < 1e-12)
        #expect(abs(scheduler.vblank(after: Self.period) - 2 * Self.period) < 1e-12)
        #expect(abs(scheduler.start(at: 0.001) - (Self.period - 0.005)) < 1e-12)
        #expect(scheduler.start(at: Self.period - 0.002) == Self.period - 0.002)
        #expect(FrameScheduler(period: Self.period, mode: .off).start(at: 0.001) == 0.001)
    }

    @Test("the window is learned from frame costs: their 90th percentile plus 2 ms, taken at every eighth; the default until eight are known")
    func learnedWindow() {
        var scheduler = FrameScheduler(period: Self.period)
        #expect(scheduler.window == FrameScheduler.defaultWindow)
        // Taken at every eighth cost: after 16 cheap ones, 4 ms; after 24, three of them 4 ms, 6 ms.
        for _ in 0..<16 { scheduler.record(cost: 0.002) }
        #expect(abs(scheduler.window - 0.004) < 1e-12, "\(scheduler.window)")
        for k in 0..<8 { scheduler.record(cost: k < 5 ? 0.002 : 0.004) }
        #expect(abs(scheduler.window - 0.006) < 1e-12, "\(scheduler.window)")
        // Cheap frames narrow it (to its floor of 3 ms).
        for _ in 0..<64 { scheduler.record(cost: 0.0005) }
        #expect(abs(scheduler.window - FrameScheduler.minimumWindow) < 1e-12)
        // Slow frames widen it, never past a period.
        for _ in 0..<64 { scheduler.record(cost: 0.009) }
        #expect(abs(scheduler.window - 0.011) < 1e-12)
        for _ in 0..<64 { scheduler.record(cost: 0.030) }
        #expect(scheduler.window == Self.period)
    }

    @Test("a frame on the glass a vblank late is counted and widens the learned window by a quarter period, given back after 120 frames in time; a stated window stays as stated")
    func missed() {
        var stated = FrameScheduler(period: Self.period, phase: 0, mode: .fixed(0.004))
        stated.presented(at: 2 * Self.period, target: Self.period)
        #expect(stated.missedVblanks == 1 && stated.window == 0.004)
        var scheduler = FrameScheduler(period: Self.period, phase: 0)
        let target = scheduler.vblank(after: Self.period - 0.004)
        scheduler.presented(at: target, target: target)
        #expect(scheduler.missedVblanks == 0)
        let next = target + Self.period
        scheduler.presented(at: next + Self.period, target: next)
        #expect(scheduler.missedVblanks == 1)
        #expect(abs(scheduler.window - (FrameScheduler.defaultWindow + Self.period / 4)) < 1e-12)
        // The grid follows the presentation.
        #expect(abs(scheduler.phase - (next + Self.period)) < 1e-12)
        for k in 0..<120 {
            let v = next + Double(k + 2) * Self.period
            scheduler.presented(at: v, target: v)
        }
        #expect(abs(scheduler.window - (FrameScheduler.defaultWindow + Self.period / 8)) < 1e-12)
        #expect(scheduler.missedVblanks == 1)
    }
}
