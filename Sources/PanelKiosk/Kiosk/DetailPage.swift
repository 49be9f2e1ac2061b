import FoundationEssentials
import PanelHost

/// `rows.tap = detail`: the page a tapped row opens over the list: the item's picture, its
/// title and its body, wrapped, in a scroll view with the list's physics, and a back control
/// at the leading top (an edge swipe from the leading side closes it too: the list's `PageStack`).
/// The list underneath stays as it was: back on it, its header's pull refreshes it.
@MainActor
public final class DetailPage: View {
    /// Closes the page.
    public let backButton = Button()
    /// Holds the picture, the title and the body.
    public let scrollView: ScrollView
    /// The item's picture (16:9, filled), when it has one.
    public let imageView = ImageView()
    /// The item's title, wrapped.
    public let titleLabel = Label()
    /// The row's other texts under the title: its subtitle (when the body is its own), detail
    /// and badge, "S1 · platform 2 · in 5 min · +2"; hidden when it has none.
    public let factsLabel = Label()
    /// The item the page shows.
    public private(set) var item: Item?
    /// The body's paragraphs, one label each (only those on screen are drawn).
    public private(set) var paragraphs: [Label] = []
    /// The row the page shows.
    public private(set) var row = -1
    /// The back control's height and the page's margin, points.
    static let barHeight: Double = 56, margin: Double = 16
    /// Lines a paragraph shows at most (the renderer's limit for a label without one).
    static let maxParagraphLines = 256

    /// A page of `frame` whose scrolling `animator` drives, texts in `localizer`'s language.
    public init(frame: Rect, animator: Animator, localizer: RefreshLocalizer) {
        scrollView = ScrollView(frame: .zero, animator: animator)
        super.init(frame: frame)
        backgroundColor = .white
        scrollView.alwaysBounceVertical = true
        backButton.titleLabel.text = "‹ " + localizer.text(.back)
        backButton.fillColor = Color(red: 242, green: 242, blue: 247)
        backButton.pressedColor = Color(red: 209, green: 209, blue: 214)
        backButton.titleLabel.textColor = Color(red: 0, green: 122, blue: 255)
        imageView.backgroundColor = Color(red: 242, green: 242, blue: 247)
        imageView.tintColor = Color(red: 174, green: 174, blue: 178)
        titleLabel.font = .bold(22)
        titleLabel.numberOfLines = 4
        titleLabel.alignment = .natural
        addSubview(scrollView)
        addSubview(backButton)
        factsLabel.font = .system(15)
        factsLabel.numberOfLines = 3
        factsLabel.alignment = .natural
        factsLabel.textColor = Color(red: 110, green: 110, blue: 115)
        for view in [imageView, titleLabel, factsLabel] as [View] { scrollView.addSubview(view) }
    }

    /// The facts line of `item` as it reads at `now` (its times from now ticking).
    public func showFacts(now: Date, clock: ItemClock, badge: BadgeStyle) {
        guard let item else { return }
        let texts = [item.body.isEmpty ? "" : item.text(.subtitle, now: now, clock: clock), item.text(.detail, now: now, clock: clock),
                     badge.styled(item.text(.badge, now: now, clock: clock)).text]
        let facts = texts.filter { !$0.isEmpty }.joined(separator: " · ")
        guard facts != factsLabel.text else { return }
        factsLabel.text = facts
        factsLabel.isHidden = facts.isEmpty
        setNeedsLayout()
    }

    /// Shows `item` of `row`; `picture`: what its picture shows now (nil: it has none).
    public func show(_ item: Item, row: Int, picture: RowPicture?) {
        self.row = row
        self.item = item
        titleLabel.text = item.title
        titleLabel.font.language = item.fontLanguage
        factsLabel.font.language = item.fontLanguage
        for label in paragraphs { label.removeFromSuperview() }
        let body = item.body.isEmpty ? item.subtitle : item.body
        paragraphs = body.split(separator: "\n", omittingEmptySubsequences: true).map { text in
            let label = Label()
            label.text = String(text)
            label.font = Font(size: 17, language: item.fontLanguage)
            label.numberOfLines = Self.maxParagraphLines
            label.alignment = .natural
            label.textColor = Color(red: 60, green: 60, blue: 67)
            scrollView.addSubview(label)
            return label
        }
        setPicture(picture)
        scrollView.contentOffset = .zero
        setNeedsLayout()
    }

    /// What the picture shows (nil: the item has none).
    public private(set) var picture: RowPicture?

    /// The picture became ready or failed; shown at the next layout, where its marks are sized.
    public func setPicture(_ picture: RowPicture?) {
        self.picture = picture
        imageView.isHidden = picture == nil
        setNeedsLayout()
    }

    /// The picture's size, points, for a page `width` wide: the text column's width, 9/16 of
    /// it high, at most half the page.
    public func pictureSize(width: Double, height: Double) -> Size {
        let w = max(0, width - 2 * Self.margin)
        return Size(width: w, height: min((w * 9 / 16).rounded(.down), (height / 2).rounded(.down)))
    }

    /// The back control at the leading top, the scroll view under it; in the scroll view the
    /// picture, the title and the paragraphs one under the other.
    public override func layoutSubviews() {
        let rightToLeft = screen?.layoutDirection == .rightToLeft
        let button = backButton.fittingSize(maxWidth: frame.width / 2)
        backButton.frame = Rect(x: rightToLeft ? frame.width - Self.margin / 2 - button.width : Self.margin / 2, y: 6,
                                width: button.width, height: button.height)
        scrollView.frame = Rect(x: 0, y: Self.barHeight, width: frame.width, height: max(0, frame.height - Self.barHeight))
        let width = frame.width - 2 * Self.margin
        var y = 0.0
        if !imageView.isHidden {
            let size = pictureSize(width: frame.width, height: frame.height)
            imageView.frame = Rect(x: Self.margin, y: y, width: size.width, height: size.height)
            // A mark is half the square it would fill, at most 48 points; a picture fills the frame.
            let side = min(size.height, 96) / 2
            switch picture {
            case .shown(let image)?:
                imageView.image = image
                imageView.contentMode = .scaleToFill
            case .loading?, .failed?:
                imageView.image = ImageReference(artwork: picture == .failed ? .brokenImage : .placeholder, size: Size(width: side, height: side))
                imageView.contentMode = .center
            case nil:
                imageView.image = nil
            }
            y += size.height + Self.margin
        }
        func place(_ label: Label) {
            let h = label.textMeasurer.size(of: label.text, font: label.font, width: width, maxLines: label.numberOfLines).height.rounded(.up)
            label.frame = Rect(x: Self.margin, y: y, width: width, height: h)
            y += h + 10
        }
        place(titleLabel)
        if !factsLabel.isHidden && !factsLabel.text.isEmpty { place(factsLabel) }
        for label in paragraphs { place(label) }
        scrollView.contentSize = Size(width: frame.width, height: y + Self.margin)
    }
}
