#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Velocity multiplier per millisecond of a decelerating scroll: v(t) = v₀·rate^(1000·t).
///
/// Values from UIScrollView.decelerationRate as cited by Flutter's
/// `widgets/scroll_simulation.dart` ("0.998^1000 = ~0.135") and pub.dev `fk_webview`
/// (`IOSUIScrollViewDecelerationRate`: NORMAL 0.998, FAST 0.99). See
/// docs/physics.md, "Scrolling".
public struct DecelerationRate: Sendable, Equatable, Hashable {
    /// Multiplier per millisecond, in (0, 1).
    public var rawValue: Double

    /// A rate: the share of velocity kept after each millisecond (UIKit's normal is 0.998).
    public init(rawValue: Double) {
        precondition(rawValue > 0 && rawValue < 1, "a deceleration rate is a multiplier in (0, 1)")
        self.rawValue = rawValue
    }

    /// UIScrollView's `.normal`: 0.998 per ms; a fling travels 0.4995·v₀.
    public static let normal = DecelerationRate(rawValue: 0.998)
    /// UIScrollView's `.fast`: 0.99 per ms; a fling travels 0.0995·v₀.
    public static let fast = DecelerationRate(rawValue: 0.99)

    /// Natural decay constant k = 1000·ln(rate), per second (negative).
    public var decayPerSecond: Double { 1000 * log(rawValue) }
}
