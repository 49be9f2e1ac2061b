/// A trailer with a vertical state label, one character per line and a gap between words
/// (MJRefreshStateTrailer).
@MainActor
open class StateTrailer: Trailer, StateTitled {
    /// The state's text, one character per line (`Label.stacksCharacters`).
    public let stateLabel = Label()

    /// Adds the state label, one character per line.
    open override func prepare() {
        super.prepare()
        prepareStateLabel(TitleKeys(idle: .trailerIdle, pulling: .trailerPulling, refreshing: .trailerRefreshing,
                                    noMoreData: .trailerNoMoreData, failed: .trailerFailed, success: .footerFinished,
                                    failure: .footerFailed))
        // A column as tall as the list: as many lines as the text needs, at its full size.
        stateLabel.numberOfLines = 0
        stateLabel.stacksCharacters = true
        stateLabel.minimumScaleFactor = 1
    }

    /// Width of the one-character column: ceil(font size) (MJRefreshStateTrailer).
    var labelColumnWidth: Double { stateLabel.font.size.rounded(.up) }

    /// The column's font as styled (or set by the app), before it was fitted to the height.
    private var columnFont: Font?
    /// The font the last fitting chose: a different one on the label was set by the app.
    private var fittedFont: Font?

    /// The column's font for the trailer's height: the styled one if its text fits the height,
    /// else shrunk in half points as far as `RefreshStyle.minimumTextScale` (a 21-letter text
    /// needs 357 points at 14 points; the list may be 320 high). Below that it ends in "…".
    func fitColumn() {
        if stateLabel.font != fittedFont { columnFont = stateLabel.font }
        let font = fitted(columnFont ?? stateLabel.font)
        fittedFont = font
        stateLabel.font = font
    }

    private func fitted(_ base: Font) -> Font {
        guard !stateLabel.text.isEmpty, frame.height > 0 else { return base }
        let measurer = stateLabel.textMeasurer
        var font = base
        let smallest = base.size * RefreshStyle.minimumTextScale
        while font.size > smallest {
            let column = font.size.rounded(.up)
            if measurer.size(of: stateLabel.laidOutText, font: font, width: column, maxLines: 0).height <= frame.height { return font }
            font.size = max(smallest, font.size - 0.5)
        }
        return font
    }

    /// The text in a column in the middle, its size fitted to the trailer's height.
    open override func placeSubviews() {
        super.placeSubviews()
        fitColumn()
        let w = labelColumnWidth
        stateLabel.frame = Rect(x: (frame.width - w) / 2, y: 0, width: w, height: frame.height)
    }
}

/// A trailer with an arrow that turns when armed (MJRefreshNormalTrailer).
@MainActor
open class NormalTrailer: StateTrailer {
    /// The arrow that turns when the trailer is armed.
    public let arrowView = ImageView()

    /// Adds the chevron.
    open override func prepare() {
        super.prepare()
        arrowView.image = RefreshStyle.trailArrow
        arrowView.tintColor = stateLabel.textColor
        addSubview(arrowView)
    }

    /// The chevron left of the text column (right of it at a right-to-left list's left end).
    open override func placeSubviews() {
        super.placeSubviews()
        let size = arrowView.image?.size ?? RefreshStyle.trailArrow.size
        // MJRefreshNormalTrailer: arrow centre at arrowWidth/2 + 5, the label beside it.
        let centerX = size.width / 2 + 5
        arrowView.frame = Rect(x: centerX - size.width / 2, y: frame.height / 2 - size.height / 2,
                               width: size.width, height: size.height)
        let w = labelColumnWidth
        stateLabel.frame = Rect(x: size.width + 10, y: 0, width: w, height: frame.height)
        if isMirrored {
            // At the left end of a right-to-left list: the chevron beside the content, on the right.
            arrowView.frame.origin.x = frame.width - arrowView.frame.maxX
            stateLabel.frame.origin.x = frame.width - stateLabel.frame.maxX
        }
        // A state's chevron turn, set again where the list's direction became known or changed.
        if animator?.isRunning(AnimationKey(arrowView, "rotation")) != true {
            arrowView.rotation = (state == .pulling ? .pi : 0) + restingRotation
        }
    }

    /// Whether the list shows mirrored (right to left): the chevron then points right.
    var isMirrored: Bool { scrollView?.mirrorsSubviews ?? false }

    /// The chevron's turn at rest: pointing at the content (left, or right when mirrored).
    var restingRotation: Double { isMirrored ? .pi : 0 }

    /// The chevron turns when armed.
    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        let target: Double = (state == .pulling ? .pi : 0) + restingRotation
        arrowView.isHidden = state == .noMoreData
        if let animator {
            animator.animate(AnimationKey(arrowView, "rotation"), from: arrowView.rotation, to: target,
                             duration: fastAnimationDuration, apply: { [weak self] in self?.arrowView.rotation = $0 })
        } else {
            arrowView.rotation = target
        }
    }
}
