import Glibc
import PanelGestures

/// The 1-euro filter on a contact's positions (Casiez, Roussel and Vogel, "1€ Filter: A Simple
/// Speed-based Low-pass Filter for Noisy Input in Interactive Systems", CHI 2012): a low-pass
/// filter whose cutoff rises with the contact's speed, so a finger at rest or moving slowly
/// is smoothed hard (a sensor's wandering points no longer shake the list) and a fast one
/// barely (little lag where lag shows). For noisy sensors only: every filter lags, and on a
/// clean sensor that is all it does (docs/input.md, "Noisy sensors", has its cost on the feel
/// bench).
///
/// One value per contact, fed its positions in order (`filter`); a new contact starts a new one.
public struct OneEuroFilter: Sendable {
    /// The filter's settings.
    public struct Parameters: Sendable, Hashable, CustomStringConvertible {
        /// The cutoff at rest, Hz: lower smooths a still finger more.
        public var minimumCutoff: Double
        /// How fast the cutoff rises with speed, Hz per (pt/s): higher lags a moving finger less.
        public var beta: Double
        /// The cutoff of the speed's own smoothing, Hz: 1, the paper's.
        public var derivativeCutoff: Double

        /// Settings; the default is `standard`'s.
        public init(minimumCutoff: Double = 1, beta: Double = 0.05, derivativeCutoff: Double = 1) {
            (self.minimumCutoff, self.beta, self.derivativeCutoff) = (minimumCutoff, beta, derivativeCutoff)
        }

        /// A cutoff of 1 Hz at rest and 0.05 Hz more per pt/s. The speed is read against the last
        /// filtered point (the paper's algorithm), so a steady drag at 500 pt/s, a brisk one,
        /// settles near 38 Hz (a lag of about 4 ms, 2 pt); a finger at rest whose points wander
        /// is smoothed at a few hertz.
        public static let standard = Parameters()

        /// The settings' text as the configuration takes it: "MIN-CUTOFF BETA".
        public var description: String { "\(minimumCutoff) \(beta)" }
    }

    /// The settings.
    public var parameters: Parameters
    /// The last event's time (seconds), filtered position (pt) and smoothed velocity (pt/s).
    private var last: (time: Double, position: Point, velocity: Point)?

    /// A filter with `parameters` that has seen nothing yet.
    public init(_ parameters: Parameters = .standard) { self.parameters = parameters }

    /// The filtered position for `position` at `time` (seconds): the first one as it is; an
    /// event no later than the last gives the last filtered position.
    public mutating func filter(_ position: Point, at time: Double) -> Point {
        guard let last else {
            self.last = (time, position, Point(x: 0, y: 0))
            return position
        }
        let dt = time - last.time
        guard dt > 0 else { return last.position }
        // The velocity against the last filtered position (the paper's x̂ᵢ₋₁), smoothed at the
        // derivative cutoff.
        let raw = (position - last.position) * (1 / dt)
        let velocity = last.velocity + (raw - last.velocity) * Self.smoothing(parameters.derivativeCutoff, dt)
        let cutoff = parameters.minimumCutoff + parameters.beta * velocity.length
        let filtered = last.position + (position - last.position) * Self.smoothing(cutoff, dt)
        self.last = (time, filtered, velocity)
        return filtered
    }

    /// The share of a new value an exponential filter at `cutoff` Hz takes after `dt` seconds:
    /// 1 / (1 + τ/dt), τ = 1 / (2π·cutoff).
    static func smoothing(_ cutoff: Double, _ dt: Double) -> Double {
        let tau = 1 / (2 * Double.pi * max(cutoff, 1e-6))
        return 1 / (1 + tau / dt)
    }
}

/// How a touchscreen's positions are smoothed before the gestures see them (`input.filter`,
/// or udev's PANEL_REFRESH_TOUCH_FILTER for one device).
public enum TouchFilter: Sendable, Hashable, CustomStringConvertible {
    /// The positions as the sensor reports them (the default).
    case off
    /// The 1-euro filter with these settings.
    case oneEuro(OneEuroFilter.Parameters)

    /// Parses "off", "one-euro" (the standard settings) or "one-euro MIN-CUTOFF BETA" (Hz, and
    /// Hz per pt/s: a cutoff of 0.01 to 100 Hz, a beta of 0 to 10).
    public init(text: String) throws(InputError) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        switch words.first {
        case "off" where words.count == 1: self = .off
        case "one-euro" where words.count == 1: self = .oneEuro(.standard)
        case "one-euro" where words.count == 3:
            guard let cutoff = Double(words[1]), let beta = Double(words[2]), cutoff >= 0.01, cutoff <= 100, beta >= 0, beta <= 10 else {
                throw .badFilter(text)
            }
            self = .oneEuro(OneEuroFilter.Parameters(minimumCutoff: cutoff, beta: beta))
        default: throw .badFilter(text)
        }
    }

    /// The setting's text, as `init(text:)` reads it.
    public var description: String {
        switch self {
        case .off: return "off"
        case .oneEuro(let p): return p == .standard ? "one-euro" : "one-euro \(p)"
        }
    }
}
