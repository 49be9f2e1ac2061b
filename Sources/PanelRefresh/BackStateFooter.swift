/// A back footer with a state label (MJRefreshBackStateFooter).
@MainActor
open class BackStateFooter: BackFooter, StateTitled {
    /// The state's text ("Release to load more").
    public let stateLabel = Label()
    /// Gap between the arrow or spinner and the text, points.
    public var labelLeftInset = RefreshStyle.labelLeftInset { didSet { setNeedsLayout() } }

    /// Adds the state label with the back footer's texts.
    open override func prepare() {
        super.prepare()
        prepareStateLabel(TitleKeys(idle: .backFooterIdle, pulling: .backFooterPulling,
                                    refreshing: .backFooterRefreshing, noMoreData: .footerNoMoreData,
                                    failed: .footerRetryPull, success: .footerFinished, failure: .footerFailed))
    }

    /// The label over the whole footer; a Gif variant's picture beside the text.
    open override func placeSubviews() {
        super.placeSubviews()
        fillWithStateLabel(labelLeftInset: labelLeftInset, textHidden: stateLabel.isHidden)
    }
}

/// A back footer with an arrow (pointing up while idle) and a spinner
/// (MJRefreshBackNormalFooter).
@MainActor
open class BackNormalFooter: BackStateFooter {
    /// The arrow that turns when the footer is armed.
    public let arrowView = ImageView()
    /// The spinner shown while loading.
    public let loadingView = ActivityIndicator()

    /// Adds the arrow (pointing up) and the spinner.
    open override func prepare() {
        super.prepare()
        ArrowSpinner.prepare(arrow: arrowView, spinner: loadingView, in: self, tint: stateLabel.textColor, rotation: .pi)
    }

    /// The arrow and spinner left of the text.
    open override func placeSubviews() {
        super.placeSubviews()
        ArrowSpinner.place(arrow: arrowView, spinner: loadingView, beside: stateLabel, textWidth: stateLabel.fittedTextWidth,
                           labelLeftInset: labelLeftInset, in: frame.size, rightToLeft: isRightToLeft)
    }

    /// The arrow turns when armed; the spinner replaces it while loading.
    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        ArrowSpinner.update(arrow: arrowView, spinner: loadingView, owner: self, state: state, old: old,
                            idleRotation: .pi, pullingRotation: 0)
    }
}

/// A back footer with frames per state (MJRefreshBackGifFooter): idle scrubbed, pulling and
/// refreshing looped, hidden in noMoreData.
@MainActor
open class BackGifFooter: BackStateFooter, GifAnimated {
    /// The picture of the state (frames while pulling and loading).
    public let gifView = ImageView()

    override var gifMode: GifFrames.Mode? { .scrubIdle }
}
