/// An auto footer with a state label; tapping the label while idle loads
/// (MJRefreshAutoStateFooter).
@MainActor
open class AutoStateFooter: AutoFooter, StateTitled {
    /// The state's text ("Loading more…").
    public let stateLabel = Label()
    /// Gap between the spinner or picture and the text, points.
    public var labelLeftInset = RefreshStyle.labelLeftInset { didSet { setNeedsLayout() } }
    /// Hide the text while refreshing (the spinner alone shows).
    public var refreshingTitleHidden = false {
        didSet {
            titles?.hidesWhileRefreshing = refreshingTitleHidden
            titles?.update(for: self)
        }
    }

    /// Adds the state label with the auto footer's texts.
    open override func prepare() {
        super.prepare()
        prepareStateLabel(TitleKeys(idle: .autoFooterIdle, pulling: .autoFooterIdle,
                                    refreshing: .autoFooterRefreshing, noMoreData: .footerNoMoreData,
                                    failed: .footerRetryTap, success: .footerFinished, failure: .footerFailed))
    }

    /// The label over the whole footer; a Gif variant's picture beside the text.
    open override func placeSubviews() {
        super.placeSubviews()
        fillWithStateLabel(labelLeftInset: labelLeftInset, textHidden: isTextHidden)
    }

    /// Whether no text shows beside the spinner or gif.
    var isTextHidden: Bool { stateLabel.isHidden || refreshingTitleHidden }

    /// A tap on the text loads (also after a failure).
    open override func handleTap(at point: Point) -> Bool {
        // The whole footer answers, not only the text's part of it.
        guard !stateLabel.isHidden, Rect(origin: .zero, size: frame.size).contains(point), state == .idle || state == .failed else { return false }
        beginRefreshingFromTap()
        return true
    }
}

/// An auto footer with a spinner beside the text (MJRefreshAutoNormalFooter).
@MainActor
open class AutoNormalFooter: AutoStateFooter {
    /// The spinner shown while loading.
    public let loadingView = ActivityIndicator()

    /// Adds the spinner.
    open override func prepare() {
        super.prepare()
        addSubview(loadingView)
    }

    /// The spinner left of the text, or centred without it.
    open override func placeSubviews() {
        super.placeSubviews()
        let centerX = RefreshStyle.indicatorCenterX(width: frame.width, textWidth: stateLabel.fittedTextWidth,
                                                    labelLeftInset: labelLeftInset, textHidden: isTextHidden,
                                                    rightToLeft: isRightToLeft)
        let size = loadingView.frame.size
        loadingView.frame = Rect(x: centerX - size.width / 2, y: frame.height / 2 - size.height / 2,
                                 width: size.width, height: size.height)
    }

    /// The spinner turns while loading.
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
open class AutoGifFooter: AutoStateFooter, GifAnimated {
    /// The picture of the state (one frame, or frames while loading).
    public let gifView = ImageView()

    override var gifMode: GifFrames.Mode? { .refreshingOnly }
}
