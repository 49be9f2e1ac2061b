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
    public static let arrow = ImageReference(name: "panel-refresh/arrow", size: Size(width: 15, height: 40))
    /// MJRefresh's `trail_arrow@2x.png` is 40×40 px: 20×20 pt, pointing left.
    public static let trailArrow = ImageReference(name: "panel-refresh/trail-arrow", size: Size(width: 20, height: 20))
    /// Default gif frame rate when no duration is given: images.count × 0.1 s (10 fps).
    public static let gifSecondsPerFrame: Double = 0.1

    /// Styles a state or time label as MJRefresh's `mj_label`.
    @MainActor
    static func styleLabel(_ label: Label) {
        label.font = labelFont
        label.textColor = labelTextColor
        label.alignment = .center
    }

    /// Centre x of an arrow, spinner or gif beside centred text (MJ: w/2 − (textWidth/2 +
    /// labelLeftInset)); the centre itself when the text is hidden.
    static func indicatorCenterX(width: Double, textWidth: Double, labelLeftInset: Double, textHidden: Bool) -> Double {
        textHidden ? width / 2 : width / 2 - (textWidth / 2 + labelLeftInset)
    }
}

/// Per-state titles: the app's own where set, else the localizer's.
@MainActor
struct StateTitles {
    private var custom: [RefreshState: String] = [:]
    private let defaults: (RefreshState, RefreshResult?) -> RefreshTextKey

    init(defaults: @escaping (RefreshState, RefreshResult?) -> RefreshTextKey) {
        self.defaults = defaults
    }

    mutating func set(_ title: String?, for state: RefreshState) { custom[state] = title }

    func title(for state: RefreshState, result: RefreshResult?, localizer: RefreshLocalizer) -> String {
        custom[state] ?? localizer.text(defaults(state, result))
    }

    static func finishedKey(_ result: RefreshResult?, success: RefreshTextKey, failure: RefreshTextKey) -> RefreshTextKey {
        (result?.isSuccess ?? true) ? success : failure
    }
}

/// Frames of a gif variant for one state.
public struct GifFrameSet: Sendable, Equatable {
    public var images: [ImageReference]
    /// Seconds per pass through `images`.
    public var duration: Double
}

/// The frames of each state and how the gif view shows them: idle frames scrubbed by
/// `pullingPercent` (not played), the others played in a loop.
@MainActor
struct GifFrames {
    private var sets: [RefreshState: GifFrameSet] = [:]

    mutating func set(_ images: [ImageReference], duration: Double?, for state: RefreshState) {
        guard !images.isEmpty else {
            sets[state] = nil
            return
        }
        sets[state] = GifFrameSet(images: images, duration: duration ?? Double(images.count) * RefreshStyle.gifSecondsPerFrame)
    }

    func frames(for state: RefreshState) -> GifFrameSet? { sets[state] }

    /// Tallest first frame of any state, points (the component grows to it).
    var tallestFirstFrame: Double { sets.values.compactMap { $0.images.first?.size.height }.max() ?? 0 }

    /// Shows the frames of `state` in `view`; `scrubIdle`: idle picks the frame at `percent`.
    func show(in view: ImageView, state: RefreshState, percent: Double, scrubIdle: Bool) {
        let key: RefreshState = state == .willRefresh ? .refreshing : state
        guard let set = sets[key] else {
            view.stopAnimating()
            view.image = nil
            return
        }
        if key == .idle && scrubIdle || set.images.count == 1 {
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
}
