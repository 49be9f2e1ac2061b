/// MJRefreshConst's look, and the artwork the renderer draws as vector shapes.
public enum RefreshStyle {
    /// MJRefreshLabelLeftInset: gap between the text and the arrow or spinner, 25 points.
    public static let labelLeftInset: Double = 25
    /// The Gif variants' gap, 20 points (MJRefreshGifHeader / AutoGifFooter / BackGifFooter).
    public static let gifLabelLeftInset: Double = 20
    /// MJRefreshLabelTextColor: RGB(90, 90, 90).
    public static let labelTextColor = Color(red: 90, green: 90, blue: 90)
    /// MJRefreshLabelFont: bold system font, 14 points.
    public static let labelFont = Font.bold(14)
    /// MJRefresh's `arrow@2x.png` is 30×80 px: a 15×40 pt arrow pointing down.
    public static let arrow = ImageReference(artwork: .arrow, size: Size(width: 15, height: 40))
    /// MJRefresh's `trail_arrow@2x.png` is 40×40 px: 20×20 pt, pointing left.
    public static let trailArrow = ImageReference(artwork: .trailArrow, size: Size(width: 20, height: 20))
    /// Default gif frame rate when no duration is given: images.count × 0.1 s (10 fps).
    public static let gifSecondsPerFrame: Double = 0.1

    /// How far a long text shrinks before it wraps: to 0.75 of its size (the 14-point label to
    /// 10.5 points, about the smallest text a panel at arm's length stays readable at; UIKit's
    /// labels are commonly given 0.7-0.8).
    public static let minimumTextScale = 0.75
    /// Lines a component's text wraps to when it does not fit shrunk: 2, what a 54-point header
    /// half (27 points) holds at 10.5 points.
    public static let maxTextLines = 2
    /// Room kept for the arrow or spinner beside a text: the spinner's width (UIKit's medium
    /// indicator, 20 points; the arrow is 15), so a text that fits leaves the indicator on screen.
    public static let indicatorAllowance: Double = 20

    /// Styles a state or time label as MJRefresh's `mj_label`; a text too long for the
    /// component shrinks, then wraps to two lines (MJRefresh lets it run off both edges).
    @MainActor
    static func styleLabel(_ label: Label) {
        label.font = labelFont
        label.textColor = labelTextColor
        label.alignment = .center
        label.minimumScaleFactor = minimumTextScale
        label.numberOfLines = maxTextLines
    }

    /// Where a component's texts are laid out across `width`: inside the room the arrow or
    /// spinner and its gap need on both sides, so the centred text and the indicator beside it
    /// both fit.
    static func textArea(width: Double, labelLeftInset: Double) -> (x: Double, width: Double) {
        let inset = min(labelLeftInset + indicatorAllowance, width / 4)
        return (inset, max(0, width - 2 * inset))
    }

    /// Centre x of an arrow, spinner or gif beside centred text (MJ: w/2 − (textWidth/2 +
    /// labelLeftInset)), on the text's right in a right-to-left language; the centre itself when
    /// the text is hidden. Clamped so an `indicatorWidth`-wide indicator stays inside `width`
    /// (a long text once pushed it to x = -28 on a 480-wide panel).
    static func indicatorCenterX(width: Double, textWidth: Double, labelLeftInset: Double, textHidden: Bool,
                                 indicatorWidth: Double = indicatorAllowance, rightToLeft: Bool = false) -> Double {
        guard !textHidden else { return width / 2 }
        let offset = textWidth / 2 + labelLeftInset
        let x = rightToLeft ? width / 2 + offset : width / 2 - offset
        return min(max(x, indicatorWidth / 2), max(indicatorWidth / 2, width - indicatorWidth / 2))
    }
}

/// The built-in text of each state of one kind of component: the one exhaustive mapping from
/// states to texts, each kind giving its keys.
struct TitleKeys {
    /// At rest (also with the second floor open).
    let idle: RefreshTextKey
    /// Armed (also for the second floor, unless `releaseToTwoLevel` says otherwise).
    let pulling: RefreshTextKey
    /// Loading (or about to).
    let refreshing: RefreshTextKey
    /// Everything loaded.
    let noMoreData: RefreshTextKey
    /// The last load failed.
    let failed: RefreshTextKey
    /// The result on show.
    let success: RefreshTextKey, failure: RefreshTextKey
    /// Armed for the second floor; nil: as `pulling`.
    var releaseToTwoLevel: RefreshTextKey? = nil

    func key(_ state: RefreshState, _ result: RefreshResult?) -> RefreshTextKey {
        switch state {
        case .idle, .twoLevel: idle
        case .pulling: pulling
        case .releaseToTwoLevel: releaseToTwoLevel ?? pulling
        case .refreshing, .willRefresh: refreshing
        case .noMoreData: noMoreData
        case .failed: failed
        case .finished: (result?.isSuccess ?? true) ? success : failure
        }
    }
}

/// Per-state titles of a state label: the app's own where set, else the localizer's.
@MainActor
final class StateTitles {
    let label: Label
    private var custom: [RefreshState: String] = [:]
    private let keys: TitleKeys
    /// Show no text while refreshing (AutoStateFooter's `refreshingTitleHidden`).
    var hidesWhileRefreshing = false

    init(label: Label, keys: TitleKeys) { (self.label, self.keys) = (label, keys) }

    func set(_ title: String?, for state: RefreshState) { custom[state] = title }

    func title(for state: RefreshState, of c: RefreshComponent) -> String {
        custom[state] ?? c.localizer.text(keys.key(state, c.lastResult))
    }

    /// Puts the title of the component's state on the label.
    func update(for c: RefreshComponent) {
        let hidden = hidesWhileRefreshing && (c.state == .refreshing || c.state == .willRefresh)
        label.text = hidden ? "" : title(for: c.state, of: c)
    }
}

/// Components whose state label follows the state: the State, Normal and Gif variants.
@MainActor
public protocol StateTitled: RefreshComponent {
    /// The label that says the state.
    var stateLabel: Label { get }
}

extension StateTitled {
    /// The footers' layout: the label over the whole component, a Gif variant's picture beside
    /// its text (`labelLeftInset` apart), centred when `textHidden`.
    func fillWithStateLabel(labelLeftInset: Double, textHidden: Bool) {
        let area = RefreshStyle.textArea(width: frame.width, labelLeftInset: labelLeftInset)
        stateLabel.frame = Rect(x: area.x, y: 0, width: area.width, height: frame.height)
        gif?.place(in: frame.size, textWidth: stateLabel.fittedTextWidth, labelLeftInset: labelLeftInset, textHidden: textHidden,
                   rightToLeft: isRightToLeft)
    }

    /// Whether the component's language reads from the right (its indicator goes right of the text).
    var isRightToLeft: Bool { localizer.language.layoutDirection == .rightToLeft }

    /// The State variants' part of `prepare()`: the label styled and added, its texts `keys`,
    /// and a Gif variant's picture.
    func prepareStateLabel(_ keys: TitleKeys) {
        RefreshStyle.styleLabel(stateLabel)
        addSubview(stateLabel)
        titles = StateTitles(label: stateLabel, keys: keys)
        prepareGifIfAny()
    }

    /// Sets the title of `state` (nil: back to the built-in text). Returns self for chaining.
    @discardableResult
    public func setTitle(_ title: String?, for state: RefreshState) -> Self {
        titles?.set(title, for: state)
        titles?.update(for: self)
        // A new text is fitted again (shrunk or wrapped, the indicator beside it).
        setNeedsLayout()
        return self
    }

    /// The title shown in `state`.
    public func title(for state: RefreshState) -> String { titles?.title(for: state, of: self) ?? "" }
}

/// Frames of a gif variant for one state.
public struct GifFrameSet: Sendable, Equatable {
    /// The frames, in order.
    public var images: [ImageReference]
    /// Seconds per pass through `images`.
    public var duration: Double
}

/// The frames of each state of a gif variant and how its view shows them.
@MainActor
final class GifFrames {
    enum Mode {
        /// Idle frames scrubbed by `pullingPercent`, pulling and refreshing frames looped,
        /// hidden in noMoreData (GifHeader, BackGifFooter).
        case scrubIdle
        /// Only the refreshing frames, only while refreshing (AutoGifFooter).
        case refreshingOnly
    }

    let view: ImageView
    let mode: Mode
    private var sets: [RefreshState: GifFrameSet] = [:]

    init(view: ImageView, mode: Mode) {
        (self.view, self.mode) = (view, mode)
    }

    func set(_ images: [ImageReference], duration: Double?, for state: RefreshState) {
        guard !images.isEmpty else {
            sets[state] = nil
            return
        }
        sets[state] = GifFrameSet(images: images, duration: duration ?? Double(images.count) * RefreshStyle.gifSecondsPerFrame)
    }

    func frames(for state: RefreshState) -> GifFrameSet? { sets[state] }

    /// Tallest first frame of any state, points (the component grows to it).
    var tallestFirstFrame: Double { sets.values.compactMap { $0.images.first?.size.height }.max() ?? 0 }

    /// Shows what the component's state and pull call for.
    func update(for c: RefreshComponent) {
        switch mode {
        case .scrubIdle:
            view.isHidden = c.state == .noMoreData
            // A failed footer shows its idle frames (the label says what failed).
            let shown: RefreshState = c.state == .willRefresh ? .refreshing : (c.state == .failed ? .idle : c.state)
            show(shown, percent: c.pullingPercent)
        case .refreshingOnly:
            let open = c.state == .refreshing || c.state == .willRefresh
            view.isHidden = !open
            if open { show(.refreshing, percent: 1) } else { view.stopAnimating() }
        }
    }

    private func show(_ state: RefreshState, percent: Double) {
        guard let set = sets[state] else {
            view.stopAnimating()
            view.image = nil
            return
        }
        if state == .idle || set.images.count == 1 {
            view.stopAnimating()
            let index = Int((Double(set.images.count) * max(percent, 0)).rounded(.down))
            view.image = set.images[min(index, set.images.count - 1)]
        } else if view.animationImages != set.images || !view.isAnimating {
            view.stopAnimating()
            view.animationImages = set.images
            view.animationDuration = set.duration
            view.image = set.images.first
            view.startAnimating()
        }
    }

    /// Places the gif view: the whole component, centred, when there is no text; else the
    /// space left of the centred text, against its right edge (MJRefreshGifHeader), or right of
    /// it in a right-to-left language.
    func place(in size: Size, textWidth: Double, labelLeftInset: Double, textHidden: Bool, rightToLeft: Bool = false) {
        if textHidden {
            view.contentMode = .center
            view.frame = Rect(origin: .zero, size: size)
        } else {
            // The space beside the text on its leading side, the picture against the text.
            let width = max(0, size.width * 0.5 - textWidth * 0.5 - labelLeftInset)
            view.contentMode = rightToLeft ? .left : .right
            view.frame = Rect(x: rightToLeft ? size.width - width : 0, y: 0, width: width, height: size.height)
        }
    }
}

/// The Gif variants: frames per state in `gifView`.
@MainActor
public protocol GifAnimated: StateTitled {
    /// The view that shows the frames.
    var gifView: ImageView { get }
    /// The component's height, points: it grows to the tallest first frame.
    var height: Double { get set }
    /// Gap between the picture and the text, points.
    var labelLeftInset: Double { get set }
}

extension StateTitled {
    /// The State variants' last step of `prepare()`: a Gif variant (`gifMode` set) adds its
    /// picture.
    func prepareGifIfAny() {
        guard let gifMode, let animated = self as? any GifAnimated else { return }
        animated.prepareGif(gifMode)
    }
}

extension GifAnimated {
    /// The Gif variants' part of `prepare()`: the picture beside the text, its frames played as
    /// `mode` says.
    func prepareGif(_ mode: GifFrames.Mode) {
        labelLeftInset = RefreshStyle.gifLabelLeftInset
        addSubview(gifView)
        gif = GifFrames(view: gifView, mode: mode)
    }

}

extension GifAnimated {
    /// Frames for `state`, one pass in `duration` s (default: 0.1 s per frame, MJRefresh's
    /// 10 fps). The component grows to the first frame's height if that is taller. Returns
    /// self for chaining.
    @discardableResult
    public func setImages(_ images: [ImageReference], duration: Double? = nil, for state: RefreshState) -> Self {
        guard let gif else { return self }
        gif.set(images, duration: duration, for: state)
        if gif.tallestFirstFrame > height { height = gif.tallestFirstFrame }
        gif.update(for: self)
        return self
    }

    /// The frames set for `state`, if any.
    public func images(for state: RefreshState) -> GifFrameSet? { gif?.frames(for: state) }
}
