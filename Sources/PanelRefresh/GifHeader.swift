/// A header that shows frames per state (MJRefreshGifHeader): idle frames follow the pull,
/// pulling and refreshing frames loop.
@MainActor
open class GifHeader: StateHeader {
    public let gifView = ImageView()
    private var frames = GifFrames()

    open override func prepare() {
        super.prepare()
        labelLeftInset = RefreshStyle.gifLabelLeftInset
        addSubview(gifView)
    }

    /// Frames for `state`, one pass in `duration` s (default: 0.1 s per frame). The header
    /// grows to the first frame's height if that is taller. Returns self for chaining.
    @discardableResult
    public func setImages(_ images: [ImageReference], duration: Double? = nil, for state: RefreshState) -> Self {
        frames.set(images, duration: duration, for: state)
        if frames.tallestFirstFrame > height { height = frames.tallestFirstFrame }
        showFrames()
        return self
    }

    public func images(for state: RefreshState) -> GifFrameSet? { frames.frames(for: state) }

    open override func placeSubviews() {
        super.placeSubviews()
        if stateLabel.isHidden && lastUpdatedTimeLabel.isHidden {
            gifView.contentMode = .center
            gifView.frame = Rect(origin: .zero, size: frame.size)
        } else {
            gifView.contentMode = .right
            let width = frame.width * 0.5 - visibleTextWidth * 0.5 - labelLeftInset
            gifView.frame = Rect(x: 0, y: 0, width: max(width, 0), height: frame.height)
        }
    }

    open override func pullingPercentDidChange() {
        super.pullingPercentDidChange()
        if state == .idle { showFrames() }
    }

    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        showFrames()
    }

    private func showFrames() {
        frames.show(in: gifView, state: state, percent: pullingPercent, scrubIdle: true)
    }
}
