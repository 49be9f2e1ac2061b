/// When a frame starts: late in the period, as late as a frame's cost allows, so that what it
/// shows (the touch it samples, the animations it steps) is as fresh as it can be when it
/// reaches the glass. A frame drawn right after the last flip waits a whole period for its
/// vblank; one started `window` seconds before its vblank waits only that long. Compositors do
/// the same: weston's repaint window (7 ms by default), mutter's and KWin's render-time
/// prediction.
///
/// The window is learned from what frames cost (the 90th percentile of the last 64, plus
/// `margin`), a stated figure (`fixed`: virtual time, `replay --frame-window`), or off (a frame
/// starts as soon as one is needed, the behaviour before). A frame that reaches the glass a
/// vblank or more after the one it was started for is a missed vblank: it is counted and
/// widens the window by a quarter period, given back by halves after every 120 frames in time.
///
/// The vblank grid is `phase + k·period`: the phase follows the last presentation time (a DRM
/// page-flip event's time stamp, a paced headless display's due time), the period the mode's.
/// Pure and value-typed: the frame presenter holds one and feeds it its clock's times.
public struct FrameScheduler: Sendable, Equatable {
    /// How the window is chosen.
    public enum Window: Sendable, Equatable {
        /// Learned from frame costs (the program on a card).
        case learned
        /// A stated figure, seconds (virtual time, `replay --frame-window MS`).
        case fixed(Double)
        /// No late start: a frame starts as soon as one is needed.
        case off
    }

    /// Seconds between vblanks.
    public var period: Double
    /// A vblank's time, seconds of the presenter's clock: the grid goes through it.
    public private(set) var phase: Double
    /// How the window is chosen.
    public var mode: Window
    /// The window before any frame was measured, seconds: 5 ms. A full redraw at 1080p through
    /// DRM costs 3.09 M instructions on arm64 (`scripts/bench-instructions`), 2.1 ms at 1.5
    /// GHz and one instruction a cycle (a Cortex-A72), with the copy and the commit under 1 ms
    /// more; 5 ms leaves 2 ms of margin over that. (docs/benchmarks.md, "Under the finger".)
    public static let defaultWindow = 0.005
    /// Added to the 90th percentile of recent costs, seconds: 2 ms (a wake-up's jitter, the
    /// copy a cost sample may not hold).
    public static let margin = 0.002
    /// The shortest learned window, seconds.
    public static let minimumWindow = 0.003
    /// Frame costs kept, the newest last, seconds.
    public private(set) var costs: [Double] = []
    /// The learned window before misses widen it, seconds: taken from `costs` at every eighth
    /// one recorded (from the eighth on), not at every question the loop asks nor at every
    /// frame (a sort of 64 costs was 2,000 instructions of a 77,000-instruction spinner frame).
    /// A miss widens the window at once either way.
    private var costWindow = FrameScheduler.defaultWindow
    /// What misses added to the window, seconds.
    public private(set) var widening = 0.0
    /// Costs recorded so far.
    private var recorded = 0
    /// Frames on the glass in time since the last miss (or the last narrowing).
    private var framesInTime = 0
    /// Vblanks missed: frames that reached the glass after the vblank they were started for.
    public private(set) var missedVblanks = 0

    /// A scheduler for a display of `period` seconds whose vblanks include `phase`.
    public init(period: Double, phase: Double = 0, mode: Window = .learned) {
        (self.period, self.phase, self.mode) = (period, phase, mode)
    }

    /// Seconds before its vblank that a frame starts (0 when off).
    public var window: Double {
        switch mode {
        case .off:
            return 0
        case let .fixed(seconds):
            return min(period, max(0, seconds))
        case .learned:
            return min(period, costWindow + widening)
        }
    }

    /// The first vblank after `time` (strictly: a frame that starts at a vblank is for the next).
    public func vblank(after time: Double) -> Double {
        let k = ((time - phase) / period).rounded(.down) + 1
        var v = phase + k * period
        // Rounding: never a vblank at or before `time`, never one a whole period late.
        if v <= time { v += period }
        if v - period > time { v -= period }
        return v
    }

    /// When a frame needed at `time` starts: at `time` itself when the late start is off or
    /// `time` is already inside the next vblank's window, else that window's start.
    public func start(at time: Double) -> Double {
        guard mode != .off else { return time }
        return max(time, vblank(after: time) - window)
    }

    /// A frame's cost, seconds: from its start to its commit returning (sampling, layout,
    /// drawing, the copy, the commit).
    public mutating func record(cost: Double) {
        guard cost.isFinite, cost >= 0 else { return }
        costs.append(cost)
        if costs.count > 64 { costs.removeFirst() }
        recorded += 1
        guard costs.count >= 8, recorded % 8 == 0 else { return }
        let sorted = costs.sorted()
        costWindow = max(Self.minimumWindow, sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.9))] + Self.margin)
    }

    /// A frame reached the glass at `presented` (seconds), started for the vblank `target`:
    /// the grid follows `presented`; a frame a vblank or more late counts its missed vblanks
    /// and widens the window. Returns the vblanks this frame missed (0 in time or with no target).
    @discardableResult
    public mutating func presented(at presented: Double, target: Double?) -> Int {
        if presented.isFinite { phase = presented }
        guard let target else { return 0 }
        let late = ((presented - target) / period).rounded()
        if late >= 1 {
            missedVblanks += Int(late)
            widening = min(period, widening + period / 4)
            framesInTime = 0
        } else {
            framesInTime += 1
            if framesInTime >= 120, widening > 0 {
                widening = widening / 2 < 0.0005 ? 0 : widening / 2
                framesInTime = 0
            }
        }
        return late >= 1 ? Int(late) : 0
    }
}
