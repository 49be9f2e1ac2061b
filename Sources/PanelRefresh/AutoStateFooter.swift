/// An auto footer with a state label; tapping the label while idle loads
/// (MJRefreshAutoStateFooter).
@MainActor
open class AutoStateFooter: AutoFooter {
    public let stateLabel = Label()
    public var labelLeftInset = RefreshStyle.labelLeftInset { didSet { setNeedsLayout() } }
    /// Hide the text while refreshing (the spinner alone shows).
    public var refreshingTitleHidden = false { didSet { updateStateText() } }

    private var titles = StateTitles { state, result in
        switch state {
        case .idle, .pulling: return .autoFooterIdle
        case .refreshing, .willRefresh: return .autoFooterRefreshing
        case .noMoreData: return .footerNoMoreData
        case .finished: return StateTitles.finishedKey(result, success: .footerFinished, failure: .footerFailed)
        }
    }

    @discardableResult
    public func setTitle(_ title: String?, for state: RefreshState) -> Self {
        titles.set(title, for: state)
        updateStateText()
        return self
    }

    public func title(for state: RefreshState) -> String {
        titles.title(for: state, result: lastResult, localizer: localizer)
    }

    open override func prepare() {
        super.prepare()
        RefreshStyle.styleLabel(stateLabel)
        addSubview(stateLabel)
        updateStateText()
    }

    open override func placeSubviews() {
        super.placeSubviews()
        stateLabel.frame = Rect(origin: .zero, size: frame.size)
    }

    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        updateStateText()
    }

    open override func i18nDidChange() {
        updateStateText()
        super.i18nDidChange()
    }

    private func updateStateText() {
        let hidden = refreshingTitleHidden && (state == .refreshing || state == .willRefresh)
        stateLabel.text = hidden ? "" : title(for: state)
    }

    open override func handleTap(at point: Point) -> Bool {
        guard !stateLabel.isHidden, stateLabel.frame.contains(point), state == .idle else { return false }
        beginRefreshingFromTap()
        return true
    }
}

/// An auto footer with a spinner beside the text (MJRefreshAutoNormalFooter).
@MainActor
open class AutoNormalFooter: AutoStateFooter {
    public let loadingView = ActivityIndicator()

    open override func prepare() {
        super.prepare()
        addSubview(loadingView)
    }

    open override func placeSubviews() {
        super.placeSubviews()
        let centerX = RefreshStyle.indicatorCenterX(width: frame.width, textWidth: stateLabel.textWidth,
                                                    labelLeftInset: labelLeftInset,
                                                    textHidden: stateLabel.isHidden || refreshingTitleHidden)
        let size = loadingView.frame.size
        loadingView.frame = Rect(x: centerX - size.width / 2, y: frame.height / 2 - size.height / 2,
                                 width: size.width, height: size.height)
    }

    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        if state == .refreshing || state == .willRefresh {
            loadingView.startAnimating()
        } else {
            loadingView.stopAnimating()
        }
    }
}

/// An auto footer with frames while refreshing; hidden in idle and noMoreData
/// (MJRefreshAutoGifFooter).
@MainActor
open class AutoGifFooter: AutoStateFooter {
    public let gifView = ImageView()
    private var frames = GifFrames()

    open override func prepare() {
        super.prepare()
        labelLeftInset = RefreshStyle.gifLabelLeftInset
        addSubview(gifView)
    }

    @discardableResult
    public func setImages(_ images: [ImageReference], duration: Double? = nil, for state: RefreshState) -> Self {
        frames.set(images, duration: duration, for: state)
        if frames.tallestFirstFrame > height { height = frames.tallestFirstFrame }
        showFrames()
        return self
    }

    open override func placeSubviews() {
        super.placeSubviews()
        let textHidden = stateLabel.isHidden || refreshingTitleHidden
        if textHidden {
            gifView.contentMode = .center
            gifView.frame = Rect(origin: .zero, size: frame.size)
        } else {
            gifView.contentMode = .right
            let width = frame.width * 0.5 - stateLabel.textWidth * 0.5 - labelLeftInset
            gifView.frame = Rect(x: 0, y: 0, width: max(width, 0), height: frame.height)
        }
    }

    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        showFrames()
    }

    private func showFrames() {
        let open = state == .refreshing || state == .willRefresh
        gifView.isHidden = !open
        if open {
            frames.show(in: gifView, state: .refreshing, percent: 1, scrubIdle: false)
        } else {
            gifView.stopAnimating()
        }
    }
}
