import Testing
import PanelDisplay
@testable import PanelHost

@Suite("Frame statistics: what SIGUSR1 logs")
struct FrameStatisticsTests {
    @Test("on a paced card: back-to-back flips a period apart, a frame a vblank late shows as two periods and one vblank missed; a headless display says nothing of vblanks")
    func flips() {
        let period = 1.0 / 60
        var paced = FrameStatistics(period: period)
        var presented = 1.0
        for k in 0..<10 {
            // Each frame starts 5 ms before the vblank after the last one; the fifth is a vblank late.
            let late = k == 5 ? period : 0
            let start = presented + period - 0.005
            presented += period + late
            var timing = FrameTiming(inputTime: start - 0.01, drawnAt: start, renderSeconds: 0.002, presentedAt: presented)
            timing.missedVblanks = k == 5 ? 1 : 0
            paced.record(timing)
        }
        #expect(paced.flipIntervals.count == 9)
        #expect(paced.missedVblanks == 1)
        #expect(paced.summary.contains("flips p50 16.67 ms apart, p95 33.33 ms (9 back to back); 1 vblank missed"), "\(paced.summary)")
        paced.reset()
        #expect(paced.flipIntervals.isEmpty && paced.missedVblanks == 0)

        var headless = FrameStatistics(period: period)
        for k in 0..<5 {
            let t = 1 + Double(k) * period
            headless.record(FrameTiming(inputTime: nil, drawnAt: t, renderSeconds: 0.001, presentedAt: t + 0.001))
        }
        #expect(!headless.summary.contains("vblank"), "\(headless.summary)")
    }
}
