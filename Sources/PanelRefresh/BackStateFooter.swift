/// A back footer with a state label (MJRefreshBackStateFooter).
@MainActor
open class BackStateFooter: BackFooter {
    public let stateLabel = Label()
    public var labelLeftInset = RefreshStyle.labelLeftInset { didSet { setNeedsLayout() } }

    private var titles = StateTitles { state, result in
        switch state {
        case .idle: return .backFooterIdle
        case .pulling: return .backFooterPulling
        case .refreshing, .willRefresh: return .backFooterRefreshing
        case .noMoreData: return .footerNoMoreData
        case .finished: return StateTitles.finishedKey(result, success: .footerFinished, failure: .footerFailed)
        }
    }

    @discardableResult
    public func setTitle(_ title: String?, for state: RefreshState) -> Self {
        titles.set(title, for: state)
        stateLabel.text = self.title(for: self.state)
        return self
    }

    public func title(for state: RefreshState) -> String {
        titles.title(for: state, result: lastResult, localizer: localizer)
    }

    open override func prepare() {
        super.prepare()
        RefreshStyle.styleLabel(stateLabel)
        addSubview(stateLabel)
        stateLabel.text = title(for: state)
    }

    open override func placeSubviews() {
        super.placeSubviews()
        stateLabel.frame = Rect(origin: .zero, size: frame.size)
    }

    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        stateLabel.text = title(for: state)
    }

    open override func i18nDidChange() {
        stateLabel.text = title(for: state)
        super.i18nDidChange()
    }
}

/// A back footer with an arrow (pointing up while idle) and a spinner
/// (MJRefreshBackNormalFooter).
@MainActor
open class BackNormalFooter: BackStateFooter {
    public let arrowView = ImageView()
    public let loadingView = ActivityIndicator()

    open override func prepare() {
        super.prepare()
        arrowView.image = RefreshStyle.arrow
        arrowView.rotation = .pi
        arrowView.tintColor = stateLabel.textColor
        addSubview(arrowView)
        addSubview(loadingView)
    }

    open override func placeSubviews() {
        super.placeSubviews()
        let centerX = RefreshStyle.indicatorCenterX(width: frame.width, textWidth: stateLabel.textWidth,
                                                    labelLeftInset: labelLeftInset, textHidden: stateLabel.isHidden)
        let centerY = frame.height / 2
        let arrowSize = arrowView.image?.size ?? RefreshStyle.arrow.size
        arrowView.frame = Rect(x: centerX - arrowSize.width / 2, y: centerY - arrowSize.height / 2,
                               width: arrowSize.width, height: arrowSize.height)
        let spinner = loadingView.frame.size
        loadingView.frame = Rect(x: centerX - spinner.width / 2, y: centerY - spinner.height / 2,
                                 width: spinner.width, height: spinner.height)
        arrowView.tintColor = stateLabel.textColor
    }

    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        ArrowSpinner.update(arrow: arrowView, spinner: loadingView, owner: self, state: state, old: old,
                            idleRotation: .pi, pullingRotation: 0)
    }
}

/// A back footer with frames per state (MJRefreshBackGifFooter): idle scrubbed, pulling and
/// refreshing looped, hidden in noMoreData.
@MainActor
open class BackGifFooter: BackStateFooter {
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
        if stateLabel.isHidden {
            gifView.contentMode = .center
            gifView.frame = Rect(origin: .zero, size: frame.size)
        } else {
            gifView.contentMode = .right
            let width = frame.width * 0.5 - stateLabel.textWidth * 0.5 - labelLeftInset
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
        gifView.isHidden = state == .noMoreData
        frames.show(in: gifView, state: state, percent: pullingPercent, scrubIdle: true)
    }
}
