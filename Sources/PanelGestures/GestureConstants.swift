/// Gesture thresholds, with their sources (docs/physics.md, "Gestures").
public enum GestureConstants {
    /// Distance a finger must travel before a pan begins, px: Flutter's `kTouchSlop` = 18
    /// logical px ("started at 8.0 and increased it to 18.0 after getting complaints"). A
    /// finger on a kiosk panel is less steady than on a phone, so the larger value.
    public static let touchSlop: Double = 18
    /// Below this release speed there is no fling, px/s: Android `MINIMUM_FLING_VELOCITY` and
    /// Flutter `kMinFlingVelocity`, 50.
    public static let minFlingVelocity: Double = 50
    /// Release speeds are clamped to this, px/s: Android `MAXIMUM_FLING_VELOCITY` and Flutter
    /// `kMaxFlingVelocity`, 8000.
    public static let maxFlingVelocity: Double = 8000
    /// Velocity tracker horizon, s: Flutter `_horizonMilliseconds` and Android `HORIZON`, 100 ms.
    public static let velocityHorizon: Double = 0.100
    /// Velocity tracker history, samples: Flutter `_historySize` and Android `HISTORY_SIZE`, 20.
    public static let velocityHistorySize = 20
    /// Fewest samples for an estimate: Flutter `_minSampleSize`, 3.
    public static let velocityMinSamples = 3
    /// A gap longer than this means the finger stopped, s: Flutter
    /// `_assumePointerMoveStoppedMilliseconds` and Android `ASSUME_POINTER_STOPPED_TIME`, 40 ms.
    public static let assumeStoppedAfter: Double = 0.040
    /// A press longer than this is not a tap, s: Flutter `kLongPressTimeout`, 500 ms.
    public static let tapMaxDuration: Double = 0.500
}
