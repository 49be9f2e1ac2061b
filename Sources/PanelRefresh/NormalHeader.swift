/// A header with an arrow that flips when armed and a spinner while refreshing
/// (MJRefreshNormalHeader).
@MainActor
open class NormalHeader: StateHeader {
    public let arrowView = ImageView()
    public let loadingView = ActivityIndicator()

    open override func prepare() {
        super.prepare()
        arrowView.image = RefreshStyle.arrow
        arrowView.tintColor = stateLabel.textColor
        arrowView.frame = Rect(origin: .zero, size: RefreshStyle.arrow.size)
        loadingView.hidesWhenStopped = true
        addSubview(arrowView)
        addSubview(loadingView)
    }

    open override func placeSubviews() {
        super.placeSubviews()
        let centerX = RefreshStyle.indicatorCenterX(width: frame.width, textWidth: visibleTextWidth,
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
                            idleRotation: 0, pullingRotation: .pi)
    }
}

/// The arrow-and-spinner behaviour shared by NormalHeader and BackNormalFooter: the arrow flips
/// between its idle and pulling directions over the fast duration; while open the spinner
/// turns; after an end the spinner fades out over the slow duration.
@MainActor
enum ArrowSpinner {
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
        case .idle, .noMoreData:
            if old == .refreshing || old == .finished {
                arrow.rotation = idleRotation
                let fade = { [weak spinner, weak arrow, weak owner] (_: Bool) in
                    guard let spinner, let arrow, let owner else { return }
                    guard owner.state == .idle || owner.state == .noMoreData else { return }
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
        case .pulling:
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
