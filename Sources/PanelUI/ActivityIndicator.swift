import PanelGestures
/// A spinner: a ring of spokes whose bright spoke turns while animating.
@MainActor
open class ActivityIndicator: View {
    /// Spokes in the ring, and steps per turn: UIActivityIndicatorView draws 12.
    public static let spokes = 12
    /// Seconds per turn: UIActivityIndicatorView turns about once a second.
    public static let period: Double = 1.0
    /// Side of the medium style (iOS 13+ MJRefresh default), points.
    public static let mediumSize = Size(width: 20, height: 20)

    /// The spokes' colour.
    public var color: Color = .gray { didSet { if color != oldValue { setNeedsDisplay() } } }
    /// Hide while stopped, as UIActivityIndicatorView does by default.
    public var hidesWhenStopped = true { didSet { setNeedsDisplay() } }
    /// Whether the spokes turn (they are shown only then).
    public private(set) var isAnimating = false
    /// Which spoke is brightest, 0..<spokes.
    public private(set) var phase = 0

    /// An indicator of UIKit's medium size.
    public override init(frame: Rect = Rect(origin: .zero, size: ActivityIndicator.mediumSize)) {
        super.init(frame: frame)
    }

    /// Whether the renderer should draw it.
    public var isVisible: Bool { !isHidden && (isAnimating || !hidesWhenStopped) }

    /// Shows the indicator and starts turning.
    public func startAnimating() {
        guard !isAnimating else { return }
        isAnimating = true
        setNeedsDisplay()
        attachAnimation()
    }

    /// Stops turning and hides the indicator.
    public func stopAnimating() {
        guard isAnimating else { return }
        isAnimating = false
        animator?.cancel(AnimationKey(self, "spin"))
        setNeedsDisplay()
    }

    /// Starts turning again under a new animator when it was turning.
    open override func didMoveToSuperview() {
        super.didMoveToSuperview()
        if isAnimating { attachAnimation() }
    }

    private func attachAnimation() {
        guard let animator else { return }
        let key = AnimationKey(self, "spin")
        guard !animator.isRunning(key) else { return }
        animator.drive(key, step: { [weak self] elapsed in
            guard let self, self.isAnimating else { return true }
            // The same nanosecond of slack as ImageView.frameIndex.
            let steps = Int((elapsed / Self.period * Double(Self.spokes) + 1e-9).rounded(.down))
            let phase = steps % Self.spokes
            if phase != self.phase {
                self.phase = phase
                self.setNeedsDisplay()
            }
            return false
        })
    }
}
