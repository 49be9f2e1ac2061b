import PanelHost

/// Uniform random numbers from a seed: SplitMix64 (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014; the generator behind Java's
/// `SplittableRandom`). The same seed gives the same numbers on every machine and run, so a
/// kiosk's schedule is reproducible in virtual time, and two machine ids give two schedules.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator seeded with `seed`.
    public init(seed: UInt64) { state = seed }

    /// A generator seeded by `text` (a machine id): its `FNV1a` hash.
    public init(seeding text: String) { state = FNV1a.hash(text.utf8) }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A number in [0, 1).
    public mutating func fraction() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// When the kiosk refreshes by itself (`[refresh] every`, `jitter`, `backoff-max`): a value
/// with one method per input, each given its time (seconds of the kiosk's clock), from which
/// the next attempt's time is read (``due``). It does not decide whether a due refresh may run
/// now (a finger on the glass, a page open, a blank panel: the list's part on the stage), only when one
/// is due.
///
/// - The first automatic refresh comes a random part of `every` after the first answer (the
///   phase), so a fleet that booted together spreads out; each later wait is
///   `every x (1 ± jitter)`, drawn anew (Xibo's collection interval with jitter).
/// - A failure backs off: after `n` failures in a row the wait is drawn from
///   `[0, min(backoff-max, every x 2^n)]` ("full jitter", AWS Architecture Blog, "Exponential
///   Backoff And Jitter", 2015), so its mean doubles from `every`; a success resets it.
/// - No wait ends before the server's `Cache-Control: max-age` or `Retry-After`.
/// - Any refresh (a pull, the timer, the operator) starts and ends it: never two at once, and
///   a pull resets the wait as a timed refresh does.
public struct RefreshSchedule: Sendable {
    /// The operator's settings.
    public struct Settings: Sendable, Equatable {
        /// Seconds between refreshes (`refresh.every`), more than 0.
        public var every: Double
        /// The fraction each wait varies by (`refresh.jitter`, 0 to 0.5).
        public var jitter: Double
        /// The longest wait after failures, seconds (`refresh.backoff-max`).
        public var backoffMax: Double

        /// Settings of a refresh every `every` seconds, varied by `jitter`, backed off up to `backoffMax`.
        public init(every: Double, jitter: Double = 0.1, backoffMax: Double = 900) {
            (self.every, self.jitter, self.backoffMax) = (every, jitter, backoffMax)
        }
    }

    /// Where the schedule stands.
    public enum State: Sendable, Equatable {
        /// No answer yet: the first automatic refresh will come `phase` x `every` after it.
        case beforeFirstAnswer(phase: Double)
        /// A refresh is under way; `failures` in a row before it; `phase` until the first answer.
        case refreshing(failures: Int, phase: Double?)
        /// The next automatic refresh is due at `due`; `failures` in a row so far.
        case waiting(due: Double, failures: Int)
    }

    /// The settings; a reload sets new ones, which the next wait is drawn with (the one under
    /// way stands).
    public var settings: Settings
    /// Where it stands.
    public private(set) var state: State
    private var random: SeededRandom

    /// The shortest wait after a failure, seconds: 1 (a request at once after a failure serves
    /// no one, however the jitter falls).
    public static let minimumWait: Double = 1

    /// A schedule drawing its phase and waits from `random` (seeded by the machine id).
    public init(settings: Settings, random: SeededRandom) {
        self.settings = settings
        self.random = random
        let phase = self.random.fraction()
        state = .beforeFirstAnswer(phase: phase)
    }

    /// When the next automatic refresh is due (seconds of the kiosk's clock); nil while one is
    /// under way or before the first answer.
    public var due: Double? {
        switch state {
        case .waiting(let due, _): return due
        case .beforeFirstAnswer, .refreshing: return nil
        }
    }

    /// Failures in a row, as of the last answer.
    public var failures: Int {
        switch state {
        case .beforeFirstAnswer: return 0
        case .refreshing(let failures, _), .waiting(_, let failures): return failures
        }
    }

    /// A refresh began (whatever started it).
    public mutating func began() {
        switch state {
        case .beforeFirstAnswer(let phase): state = .refreshing(failures: 0, phase: phase)
        case .waiting(_, let failures): state = .refreshing(failures: failures, phase: nil)
        case .refreshing: break
        }
    }

    /// A refresh succeeded at `now` (changed or not); the answer is fresh for `freshFor` seconds.
    public mutating func succeeded(at now: Double, freshFor: Double?) {
        let wait: Double
        switch state {
        case .refreshing(_, let phase?), .beforeFirstAnswer(let phase):
            wait = settings.every * phase
        case .refreshing(_, nil), .waiting:
            wait = settings.every * (1 + settings.jitter * (2 * random.fraction() - 1))
        }
        state = .waiting(due: now + max(wait, freshFor ?? 0), failures: 0)
    }

    /// A refresh failed at `now`; the server asked for no request for `retryAfter` seconds.
    public mutating func failed(at now: Double, retryAfter: Double?) {
        let failures = min(self.failures + 1, 62)
        let cap = min(settings.backoffMax, settings.every * Double(sign: .plus, exponent: failures, significand: 1))
        let wait = max(cap * random.fraction(), min(Self.minimumWait, cap))
        state = .waiting(due: now + max(wait, retryAfter ?? 0), failures: failures)
    }
}
