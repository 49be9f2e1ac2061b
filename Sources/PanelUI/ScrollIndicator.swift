import PanelGestures

/// The thin bar at a scroll view's trailing edge (vertical) or bottom (horizontal) that shows
/// where the visible part lies in the content, while the content moves; it fades after
/// (UIScrollView's indicators). Its length is the visible share of the content, shortened
/// while the content is pulled past an edge.
@MainActor
public final class ScrollIndicator: View {
    /// Which way it measures.
    public let axis: Axis

    /// UIKit's default indicator: 3 points thick, 3 from the edges, at least 36 long (7 while
    /// squeezed past an edge), black at 35 %.
    static let thickness: Double = 3, inset: Double = 3, minimumLength: Double = 36, squeezedLength: Double = 7
    /// Seconds it stays after the content stops (0.5), and its fade (0.25): UIKit's, roughly.
    static let lingerSeconds = 0.5, fadeSeconds = 0.25

    init(axis: Axis) {
        self.axis = axis
        super.init(frame: .zero)
        backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 89)
        cornerRadius = Self.thickness / 2
        isUserInteractionEnabled = false
        zPosition = 2
        alpha = 0
        isHidden = true
    }

    /// A point around the bar: it moves with the content's fractional offset, which the
    /// renderer snaps to pixels, so its edges may land on the pixel beside its frame.
    public override var drawingExtent: Rect {
        Rect(x: bounds.minX - 1, y: bounds.minY - 1, width: bounds.width + 2, height: bounds.height + 2)
    }

    /// Where the bar goes in `scroll`'s bounds, or nil when the content fits along the axis.
    static func frame(axis: Axis, in scroll: ScrollView, other: Bool) -> Rect? {
        let b = scroll.bounds
        let lo = scroll.minimumContentOffset, hi = scroll.maximumContentOffset
        let vertical = axis == .vertical
        let range = vertical ? hi.y - lo.y : hi.x - lo.x
        guard range > 0.5 else { return nil }
        let visible = vertical ? b.height : b.width
        // Room along the edge, less the corner the other bar takes.
        let track = visible - 2 * inset - (other ? thickness + inset : 0)
        guard track > minimumLength else { return nil }
        let offset = vertical ? scroll.contentOffset.y : scroll.contentOffset.x
        let over = offset < (vertical ? lo.y : lo.x) ? (vertical ? lo.y : lo.x) - offset
                 : max(0, offset - (vertical ? hi.y : hi.x))
        let length = max(squeezedLength, max(minimumLength, track * visible / (visible + range)) - over)
        let progress = min(max((offset - (vertical ? lo.y : lo.x)) / range, 0), 1)
        // On whole pixels from where the content is drawn (the screen snaps the offset): a
        // fling's last sub-pixel steps move nothing and draw no frame for the bar.
        let scale = scroll.screen?.scale ?? 1
        func pixel(_ v: Double) -> Double { (v * scale).rounded() / scale }
        let origin = scroll.screen?.drawingOffset(b.origin) ?? b.origin
        let along = pixel(inset + progress * (track - length)), size = pixel(length)
        return vertical
            ? Rect(x: origin.x + b.width - inset - thickness, y: origin.y + along, width: thickness, height: size)
            : Rect(x: origin.x + along, y: origin.y + b.height - inset - thickness, width: size, height: thickness)
    }
}
