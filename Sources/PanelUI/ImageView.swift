import FoundationEssentials
import Glibc
import PanelGestures
/// Names an image the renderer can load (a file path or a built-in shape name) and its size
/// in points.
public struct ImageReference: Hashable, Sendable {
    /// Built-in vector artwork the renderer draws itself (MJRefresh ships these as bitmaps).
    public enum Artwork: String, Hashable, Sendable {
        /// The header's arrow, pointing down at rotation 0.
        case arrow
        /// The trailer's chevron, pointing left at rotation 0.
        case trailArrow
        /// A picture still loading: a landscape (a sun over two hills) in a frame, in the tint.
        case placeholder
        /// A picture that could not be loaded: the landscape's frame struck through.
        case brokenImage
    }

    /// A picture file's path (PNG, JPEG or WebP), the artwork's name, or the name a supplied
    /// picture is known by.
    public var name: String
    /// The image's size in pixels.
    public var size: Size
    /// Set for built-in artwork: drawn as shapes, not loaded from `name`.
    public var artwork: Artwork?
    /// Set for pictures decoded elsewhere and handed to the renderer by name (a row's
    /// thumbnail, decoded by a worker off the run loop): the renderer never reads a file for
    /// it, and draws nothing while its supplier has no such picture.
    public var isSupplied = false

    /// A picture file (PNG, JPEG or WebP).
    public init(name: String, size: Size) { (self.name, self.size) = (name, size) }

    /// A picture the renderer's image supplier holds under `name`, `size` points.
    public init(supplied name: String, size: Size) { (self.name, self.size, self.isSupplied) = (name, size, true) }

    /// Built-in artwork at its natural size (points).
    public init(artwork: Artwork, size: Size) {
        name = "panel-refresh/" + artwork.rawValue
        (self.size, self.artwork) = (size, artwork)
    }
}

/// How an image is placed in its view.
public enum ContentMode: String, Sendable, Hashable {
    /// Natural size, centred.
    case center
    /// Natural size, against the right edge, centred vertically (MJRefresh's gif beside text).
    case right
    /// Natural size, against the left edge, centred vertically (the gif beside right-to-left text).
    case left
    /// Stretched to the bounds.
    case scaleToFill
    /// As large as fits, aspect kept, centred.
    case scaleAspectFit
}

/// An image, or a sequence of images played as an animation.
@MainActor
open class ImageView: View {
    /// The image shown (nil: nothing).
    public var image: ImageReference? { didSet { if image != oldValue { setNeedsDisplay() } } }
    /// Draws the image's alpha in this colour (template rendering), if set.
    public var tintColor: Color? { didSet { if tintColor != oldValue { setNeedsDisplay() } } }
    /// Rotation about the centre, radians, clockwise on screen.
    public var rotation: Double = 0 {
        didSet {
            guard rotation != oldValue else { return }
            // Where it was drawn and where it will be: a turned image leaves its bounds.
            setNeedsDisplay(Self.rotatedBox(bounds, oldValue))
            setNeedsDisplay(drawingExtent)
        }
    }

    /// The box a rect covers turned by `angle` about its centre.
    static func rotatedBox(_ r: Rect, _ angle: Double) -> Rect {
        let c = abs(cos(angle)), s = abs(sin(angle))
        let ex = c * r.width / 2 + s * r.height / 2, ey = s * r.width / 2 + c * r.height / 2
        return Rect(x: r.midX - ex, y: r.midY - ey, width: 2 * ex, height: 2 * ey)
    }

    /// The image may be larger than the view (content mode center or right) and turned.
    open override var drawingExtent: Rect {
        var box = bounds
        if let size = (currentImage ?? image)?.size {
            box = box.union(Rect(x: bounds.midX - size.width / 2, y: bounds.midY - size.height / 2, width: size.width, height: size.height))
        }
        return rotation == 0 ? box : Self.rotatedBox(box, rotation)
    }
    /// How the image fits the view.
    public var contentMode: ContentMode = .center { didSet { if contentMode != oldValue { setNeedsDisplay() } } }

    /// Frames of the animation.
    public var animationImages: [ImageReference] = [] { didSet { if animationImages != oldValue { setNeedsDisplay() } } }
    /// Seconds for one pass through `animationImages`.
    public var animationDuration: Double = 0
    /// Whether the frames of `animationImages` play.
    public private(set) var isAnimating = false
    private var animationStart: Double = 0
    private var shownFrame = -1

    /// An image view showing nothing.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
    }

    /// Plays `animationImages` in a loop from the first frame.
    public func startAnimating() {
        guard !isAnimating else { return }
        isAnimating = true
        attachAnimation()
    }

    /// Stops the frames and shows `image` again.
    public func stopAnimating() {
        guard isAnimating else { return }
        isAnimating = false
        animator?.cancel(AnimationKey(self, "frames"))
        setNeedsDisplay()
    }

    /// The image to draw now: the current animation frame while animating, else `image`.
    public var currentImage: ImageReference? {
        guard isAnimating, !animationImages.isEmpty else { return image }
        return animationImages[max(0, shownFrame) % animationImages.count]
    }

    /// Index of the animation frame `elapsed` seconds after the start.
    public func frameIndex(elapsed: Double) -> Int {
        let count = animationImages.count
        guard count > 0, animationDuration > 0 else { return 0 }
        // A nanosecond of slack: time summed from frame intervals lands a hair under a
        // boundary (0.1 × 6 = 0.5999…) and must not show the previous frame again.
        return Int((elapsed / (animationDuration / Double(count)) + 1e-9).rounded(.down)) % count
    }

    /// Plays the frames again under a new animator when it was playing.
    open override func didMoveToSuperview() {
        super.didMoveToSuperview()
        if isAnimating { attachAnimation() }
    }

    /// Registers the frame animation with the animator once one is reachable.
    private func attachAnimation() {
        guard let animator else { return }
        let key = AnimationKey(self, "frames")
        guard !animator.isRunning(key) else { return }
        animationStart = animator.clock.now
        shownFrame = 0
        setNeedsDisplay()
        animator.drive(key, step: { [weak self] elapsed in
            guard let self, self.isAnimating else { return true }
            let index = self.frameIndex(elapsed: elapsed)
            if index != self.shownFrame {
                self.shownFrame = index
                self.setNeedsDisplay()
            }
            return false
        })
    }
}
