/// A trailer with a vertical state label, one character per line (MJRefreshStateTrailer).
@MainActor
open class StateTrailer: Trailer {
    public let stateLabel = Label()

    private var titles = StateTitles { state, result in
        switch state {
        case .idle: return .trailerIdle
        case .pulling: return .trailerPulling
        case .refreshing, .willRefresh: return .trailerRefreshing
        case .noMoreData: return .trailerNoMoreData
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
        stateLabel.numberOfLines = 0
        addSubview(stateLabel)
        stateLabel.text = title(for: state)
    }

    /// Width of the one-character column: ceil(font size) (MJRefreshStateTrailer).
    var labelColumnWidth: Double { stateLabel.font.size.rounded(.up) }

    open override func placeSubviews() {
        super.placeSubviews()
        let w = labelColumnWidth
        stateLabel.frame = Rect(x: (frame.width - w) / 2, y: 0, width: w, height: frame.height)
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

/// A trailer with an arrow that turns when armed (MJRefreshNormalTrailer).
@MainActor
open class NormalTrailer: StateTrailer {
    public let arrowView = ImageView()

    open override func prepare() {
        super.prepare()
        arrowView.image = RefreshStyle.trailArrow
        arrowView.tintColor = stateLabel.textColor
        addSubview(arrowView)
    }

    open override func placeSubviews() {
        super.placeSubviews()
        let size = arrowView.image?.size ?? RefreshStyle.trailArrow.size
        // MJRefreshNormalTrailer: arrow centre at arrowWidth/2 + 5, the label beside it.
        let centerX = size.width / 2 + 5
        arrowView.frame = Rect(x: centerX - size.width / 2, y: frame.height / 2 - size.height / 2,
                               width: size.width, height: size.height)
        let w = labelColumnWidth
        stateLabel.frame = Rect(x: size.width + 10, y: 0, width: w, height: frame.height)
    }

    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        let target: Double = state == .pulling ? .pi : 0
        arrowView.isHidden = state == .noMoreData
        if let animator {
            animator.animate(AnimationKey(arrowView, "rotation"), from: arrowView.rotation, to: target,
                             duration: fastAnimationDuration, apply: { [weak self] in self?.arrowView.rotation = $0 })
        } else {
            arrowView.rotation = target
        }
    }
}
