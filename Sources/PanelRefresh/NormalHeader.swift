/// A header with an arrow that flips when armed and a spinner while refreshing
/// (MJRefreshNormalHeader).
@MainActor
open class NormalHeader: StateHeader {
    /// The arrow that turns when the header is armed.
    public let arrowView = ImageView()
    /// The spinner shown while refreshing.
    public let loadingView = ActivityIndicator()

    /// Adds the arrow and the spinner.
    open override func prepare() {
        super.prepare()
        ArrowSpinner.prepare(arrow: arrowView, spinner: loadingView, in: self, tint: stateLabel.textColor, rotation: 0)
    }

    /// The arrow and spinner left of the texts (right of them in Arabic and Hebrew).
    open override func placeSubviews() {
        super.placeSubviews()
        ArrowSpinner.place(arrow: arrowView, spinner: loadingView, beside: stateLabel, textWidth: visibleTextWidth,
                           labelLeftInset: labelLeftInset, in: frame.size, rightToLeft: isRightToLeft)
    }

    /// The arrow flips when armed; the spinner replaces it while refreshing.
    open override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        ArrowSpinner.update(arrow: arrowView, spinner: loadingView, owner: self, state: state, old: old,
                            idleRotation: 0, pullingRotation: .pi)
    }
}

/// The arrow-and-spinner behaviour shared by NormalHeader and BackNormalFooter: the arrow flips
/// between its idle and pulling directions over the fast duration; while open the spinner
/// turns; after an end the spinner fades out over the slow duration.
@MainActor
enum ArrowSpinner {
    static func prepare(arrow: ImageView, spinner: ActivityIndicator, in owner: View, tint: Color, rotation: Double) {
        arrow.image = RefreshStyle.arrow
        arrow.rotation = rotation
        arrow.tintColor = tint
        arrow.frame = Rect(origin: .zero, size: RefreshStyle.arrow.size)
        spinner.hidesWhenStopped = true
        owner.addSubview(arrow)
        owner.addSubview(spinner)
    }

    /// Centres both left of the label's centred text (right of it in a right-to-left language;
    /// in the middle when it is hidden);
    /// the arrow takes the label's colour.
    static func place(arrow: ImageView, spinner: ActivityIndicator, beside label: Label, textWidth: Double,
                      labelLeftInset: Double, in size: Size, rightToLeft: Bool) {
        let center = Point(x: RefreshStyle.indicatorCenterX(width: size.width, textWidth: textWidth,
                                                            labelLeftInset: labelLeftInset, textHidden: label.isHidden,
                                                            rightToLeft: rightToLeft),
                           y: size.height / 2)
        let arrowSize = arrow.image?.size ?? RefreshStyle.arrow.size
        arrow.frame = Rect(x: center.x - arrowSize.width / 2, y: center.y - arrowSize.height / 2,
                           width: arrowSize.width, height: arrowSize.height)
        let size = spinner.frame.size
        spinner.frame = Rect(x: center.x - size.width / 2, y: center.y - size.height / 2,
                             width: size.width, height: size.height)
        arrow.tintColor = label.textColor
    }

    static func update(arrow: ImageView, spinner: ActivityIndicator, owner: RefreshComponent,
                       state: RefreshState, old: RefreshState, idleRotation: Double, pullingRotation: Double) {
        let animator = owner.animator
        let rotate = { (to: Double, duration: Double) in
            if let animator {
                animator.animate(AnimationKey(arrow, "rotation"), from: arrow.rotation, to: to, duration: duration,
                                 apply: { [weak arrow] in arrow?.rotation = $0 })
            } else {
                arrow.rotation = to
            }
        }
        switch state {
        case .idle, .noMoreData, .failed, .twoLevel:
            if old == .refreshing || old == .finished {
                arrow.rotation = idleRotation
                let fade = { [weak spinner, weak arrow, weak owner] (_: Bool) in
                    guard let spinner, let arrow, let owner else { return }
                    guard owner.state == .idle || owner.state == .noMoreData || owner.state == .failed else { return }
                    spinner.alpha = 1
                    spinner.stopAnimating()
                    arrow.isHidden = owner.state == .noMoreData
                }
                if let animator {
                    animator.animate(AnimationKey(spinner, "alpha"), from: spinner.alpha, to: 0,
                                     duration: owner.slowAnimationDuration,
                                     apply: { [weak spinner] in spinner?.alpha = $0 }, completion: fade)
                } else {
                    fade(true)
                }
            } else {
                spinner.stopAnimating()
                arrow.isHidden = state == .noMoreData
                rotate(idleRotation, owner.fastAnimationDuration)
            }
        case .pulling, .releaseToTwoLevel:
            spinner.stopAnimating()
            arrow.isHidden = false
            rotate(pullingRotation, owner.fastAnimationDuration)
        case .refreshing, .willRefresh:
            spinner.alpha = 1
            spinner.startAnimating()
            arrow.isHidden = true
        case .finished:
            spinner.stopAnimating()
            arrow.isHidden = true
        }
    }
}
