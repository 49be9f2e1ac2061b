import PanelGestures

/// How a page comes over the list and goes: it slides in from the trailing side over 0.35 s
/// while the list behind it dims, slides back out the same way, and follows the finger of a
/// back swipe from the leading edge, then settles by where and how fast the finger left it:
/// closed past a third of the way or above 500 points a second towards closing, else back open.
/// This is UINavigationController's push, pop and interactive pop, and Flutter's
/// CupertinoPageRoute; before, the page appeared and vanished in one frame, and a back swipe
/// did nothing until the finger lifted.
///
/// The state is one number, `progress`: 0 open, 1 closed (off screen at the trailing side).
@MainActor
public final class PageTransition {
    /// Seconds of a whole push or pop: 0.35, UINavigationController's (and the issue's) figure.
    public static let duration = 0.35
    /// The dim over the list when the page is open: black at 0.094, Flutter's
    /// `_kCupertinoPageTransitionBarrierColor` (0x18000000).
    public static let dimAlpha = Double(0x18) / 255
    /// A back swipe closes past this share of the width...
    public static let closingShare = 1.0 / 3
    /// ...or when the finger leaves faster than this towards closing, points a second
    /// (UIKit's interactive pop and Flutter's `_kMinFlingVelocity` are about this).
    public static let closingSpeed = 500.0
    /// The shortest settle, seconds: a page let go a pixel from where it goes still moves.
    public static let shortestSettle = 0.08

    /// The page that slides.
    public let page: View
    /// The black view over what is behind it.
    public let dim = View()
    private let animator: Animator
    private let width: Double
    private let rightToLeft: Bool
    private lazy var key = AnimationKey(self, "progress")

    /// 0: open, 1: closed, in between while it moves.
    public private(set) var progress = 1.0

    /// A transition for `page` over `behind`'s parent, `width` points wide; in a right-to-left
    /// UI the page comes from the left and the back swipe starts at the right edge.
    public init(page: View, over behind: View, width: Double, rightToLeft: Bool, animator: Animator) {
        (self.page, self.width, self.rightToLeft, self.animator) = (page, width, rightToLeft, animator)
        dim.frame = behind.frame
        dim.backgroundColor = .black
        dim.isUserInteractionEnabled = false
        set(1)
    }

    /// Places the page and the dim for `progress`. The dim keeps its frame (the whole list):
    /// cut to the part the page leaves uncovered, the moving edge of a second view made the
    /// frame path's work grow by 64 % (`page-slide`, 1280x720: 5.06 million instructions a
    /// frame against 3.08; docs/benchmarks.md).
    private func set(_ value: Double) {
        progress = min(1, max(0, value))
        page.frame.origin.x = (rightToLeft ? -1 : 1) * progress * width
        dim.alpha = Self.dimAlpha * (1 - progress)
    }

    /// Slides the page in (from closed to open), or back open after a cancelled swipe.
    public func push() { settle(to: 0, velocity: 0) }

    /// Slides the page out from where it is; `done` runs once it is off screen.
    public func pop(done: @escaping () -> Void) { settle(to: 1, velocity: 0, done: done) }

    /// The finger of a back swipe has moved the page `across` points from open (towards
    /// closing; negative: past open, held at open).
    public func follow(across: Double) {
        _ = animator.cancel(key)
        set(across / width)
    }

    /// The finger left at `speed` points a second towards closing: whether the page closes
    /// (past a third, or fast enough); it settles there, and `closed` runs once it is off screen.
    @discardableResult
    public func release(speed: Double, closed: @escaping () -> Void) -> Bool {
        let closes = progress > Self.closingShare || (progress > 0 && speed > Self.closingSpeed)
        settle(to: closes ? 1 : 0, velocity: closes ? speed : -speed) { if closes { closed() } }
        return closes
    }

    /// Moves the page to `target` (0 or 1) in the time the rest of a whole slide takes, or
    /// sooner when the finger left faster than that (`velocity` towards the target, points a
    /// second), at least `shortestSettle`.
    private func settle(to target: Double, velocity: Double, done: (() -> Void)? = nil) {
        let left = abs(target - progress)
        var seconds = Self.duration * left
        if velocity > 0 { seconds = min(seconds, left * width / velocity) }
        seconds = left == 0 ? 0 : max(Self.shortestSettle, seconds)
        animator.animate(key, from: progress, to: target, duration: seconds, curve: .easeOut,
                         apply: { [weak self] in self?.set($0) },
                         completion: { finished in if finished { done?() } })
    }
}
