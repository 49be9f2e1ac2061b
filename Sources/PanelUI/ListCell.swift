import PanelGestures

/// What a row's picture shows.
public enum RowPicture: Sendable, Hashable {
    /// The placeholder: the picture is on its way.
    case loading
    /// The picture, decoded (usually a supplied one: `ImageReference(supplied:size:)`).
    case shown(ImageReference)
    /// The broken-picture mark: it could not be fetched or decoded.
    case failed
}

/// A row of a list, as UITableViewCell's subtitle style with the parts a kiosk's rows carry: a
/// leading picture (thumbnail), a title over a subtitle, a trailing detail text (a time, a
/// price, a status) and a badge, and a separator under it. In a right-to-left screen the row
/// is mirrored: the picture at the right, the detail and badge at the left. The press, the
/// selection and reuse come from `RowCell`; a row of other views subclasses that instead.
@MainActor
open class ListCell: RowCell {
    /// The first line of text.
    public let titleLabel = Label()
    /// The second line, smaller and grey.
    public let subtitleLabel = Label()
    /// The trailing text, grey, on one line; empty: none.
    public let detailLabel = Label()
    /// A short count or state in a pill after the detail; empty: none.
    public let badgeLabel = Label()
    /// The leading picture, `imageSize` points square; shown while `imageSize > 0`. Its
    /// background is the placeholder behind a picture still loading.
    public let imageView = ImageView()
    /// The line under the row.
    public let separator = View()
    /// What the picture column shows (nil: its empty placeholder square); set by the data source.
    public var picture: RowPicture? {
        didSet {
            guard picture != oldValue else { return }
            // The marks are half the square, centred; a picture fills it.
            let mark = Size(width: imageSize / 2, height: imageSize / 2)
            switch picture {
            case nil: imageView.image = nil
            case .loading?: imageView.image = ImageReference(artwork: .placeholder, size: mark)
            case .failed?: imageView.image = ImageReference(artwork: .brokenImage, size: mark)
            case .shown(let image)?: imageView.image = image
            }
            imageView.contentMode = picture.map { if case .shown = $0 { return .scaleToFill } else { return .center } } ?? .center
        }
    }
    /// Left margin of the texts and the separator, points (UITableViewCell's 16).
    public var contentMargin: Double = 16 { didSet { setNeedsLayout() } }
    /// Space above and below the texts of a row sized to them, points (UITableViewCell's 11).
    public var verticalMargin: Double = 11 { didSet { setNeedsLayout() } }
    /// The picture's side, points; 0: the row has no picture column (UITableViewCell's
    /// `imageView` takes the row's height less its margins; a kiosk's thumbnails are one size).
    public var imageSize: Double = 0 { didSet { if imageSize != oldValue { setNeedsLayout() } } }
    /// Space above and below the picture of a row sized to it, points.
    public var imageMargin: Double = 8 { didSet { setNeedsLayout() } }

    /// Space between the picture and the texts, and between the texts and the detail, points
    /// (UITableViewCell's 16 and 8 at the default margins).
    static let imageGap: Double = 16, detailGap: Double = 8
    /// The widest the detail gets, a fraction of the texts' room: the title keeps the rest.
    static let maxDetailShare = 0.4
    /// The badge's height and the room around its text across, points (iOS's 20-point pill).
    static let badgeHeight: Double = 20, badgePadding: Double = 7
    /// The pill's height for the badge's font: 20 points at iOS's 13, growing with it.
    var pillHeight: Double { max(Self.badgeHeight, (badgeLabel.font.size * 20 / 13).rounded()) }
    /// The badge's red (iOS's system red, 255 59 48).
    public static let badgeColor = Color(red: 255, green: 59, blue: 48)

    /// A cell with empty texts.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        backgroundColor = .white
        titleLabel.font = .system(17)
        subtitleLabel.font = .system(13)
        detailLabel.font = .system(15)
        badgeLabel.font = .bold(13)
        // Arabic and Hebrew rows start at the right; the rest at the left.
        titleLabel.alignment = .natural
        subtitleLabel.alignment = .natural
        detailLabel.alignment = .center
        badgeLabel.alignment = .center
        let grey = Color(red: 110, green: 110, blue: 115)
        subtitleLabel.textColor = grey
        detailLabel.textColor = grey
        badgeLabel.textColor = .white
        badgeLabel.backgroundColor = Self.badgeColor
        // UIKit's systemGray6 (#F2F2F7): a quiet square where the picture will be.
        imageView.backgroundColor = Color(red: 242, green: 242, blue: 247)
        // The marks' grey: UIKit's systemGray2 (#AEAEB2), quiet on the square.
        imageView.tintColor = Color(red: 174, green: 174, blue: 178)
        separator.backgroundColor = .separator
        for view in [imageView, titleLabel, subtitleLabel, detailLabel, badgeLabel, separator] as [View] { addSubview(view) }
    }

    /// Takes the list's theme: the row's colours, its texts' and its separator's.
    open override func apply(_ theme: ListTheme) {
        super.apply(theme)
        titleLabel.textColor = theme.text
        subtitleLabel.textColor = theme.secondaryText
        detailLabel.textColor = theme.secondaryText
        separator.backgroundColor = theme.separator
        imageView.backgroundColor = theme.selection
    }

    /// Clears what the previous row left before the data source configures the cell.
    open override func prepareForReuse() {
        super.prepareForReuse()
        titleLabel.text = ""
        subtitleLabel.text = ""
        detailLabel.text = ""
        badgeLabel.text = ""
        picture = nil
    }

    /// The room the title and subtitle have across a row `width` wide, and the detail's and
    /// the badge's widths, points.
    private func columns(width: Double) -> (texts: Double, detail: Double, badge: Double) {
        var room = width - 2 * contentMargin - (imageSize > 0 ? imageSize + Self.imageGap : 0)
        var badge = 0.0
        if !badgeLabel.text.isEmpty {
            badge = max(pillHeight, (badgeLabel.textWidth + 2 * Self.badgePadding).rounded(.up))
            room -= badge + Self.detailGap
        }
        var detail = 0.0
        if !detailLabel.text.isEmpty {
            detail = min((detailLabel.textWidth).rounded(.up), max(0, room * Self.maxDetailShare))
            room -= detail + Self.detailGap
        }
        return (max(0, room), detail, badge)
    }

    /// The heights of the title and the subtitle laid out in `width` points with their line limits.
    private func textHeights(width: Double) -> (title: Double, subtitle: Double) {
        func height(_ label: Label) -> Double {
            guard !label.text.isEmpty else { return 0 }
            return label.textMeasurer.size(of: label.text, font: label.font, width: width, maxLines: label.numberOfLines).height
        }
        return (height(titleLabel), height(subtitleLabel))
    }

    /// Gap between the title and the subtitle of wrapped texts, points: 2, the one-line
    /// layout's (its title ends at the row's middle, its subtitle starts 2 points below).
    static let textGap: Double = 2

    /// The row height the content needs at `width` (an automatic row's): the title's and
    /// subtitle's lines, the gap, `verticalMargin` above and below, or the picture and
    /// `imageMargin` above and below if taller; at least `minimumHeight`.
    open override func fittingHeight(width: Double) -> Double {
        let h = textHeights(width: columns(width: width).texts)
        let texts = h.title + (h.subtitle > 0 ? Self.textGap + h.subtitle : 0) + 2 * verticalMargin
        let picture = imageSize > 0 ? imageSize + 2 * imageMargin : 0
        return max(minimumHeight, max(texts, picture).rounded(.up))
    }

    /// Picture, title over subtitle, detail, badge from the leading edge; the separator under
    /// the texts.
    open override func layoutSubviews() {
        let c = columns(width: frame.width)
        // Laid out left to right, then reflected for a right-to-left screen.
        let mirrored = screen?.layoutDirection == .rightToLeft && list?.orientation != .horizontal
        func place(_ view: View, _ r: Rect) {
            view.frame = mirrored && r.width > 0 ? Rect(x: frame.width - r.maxX, y: r.minY, width: r.width, height: r.height) : r
        }
        var x = contentMargin
        if imageSize > 0 {
            imageView.isHidden = false
            place(imageView, Rect(x: x, y: ((frame.height - imageSize) / 2).rounded(.down), width: imageSize, height: imageSize))
            x += imageSize + Self.imageGap
        } else {
            imageView.isHidden = true
            imageView.frame = .zero
        }
        let textStart = x
        if titleLabel.numberOfLines != 1 || subtitleLabel.numberOfLines != 1 {
            // Lines that wrap: the block of both texts centred in the row.
            let h = textHeights(width: c.texts)
            let block = h.title + (h.subtitle > 0 ? Self.textGap + h.subtitle : 0)
            let top = ((frame.height - block) / 2).rounded(.down)
            place(titleLabel, Rect(x: x, y: top, width: c.texts, height: h.title))
            place(subtitleLabel, h.subtitle > 0 ? Rect(x: x, y: top + h.title + Self.textGap, width: c.texts, height: h.subtitle) : .zero)
        } else if subtitleLabel.text.isEmpty {
            place(titleLabel, Rect(x: x, y: 0, width: c.texts, height: frame.height))
            subtitleLabel.frame = .zero
        } else {
            let half = frame.height / 2
            place(titleLabel, Rect(x: x, y: half - 24, width: c.texts, height: 24))
            place(subtitleLabel, Rect(x: x, y: half + 2, width: c.texts, height: 18))
        }
        x += c.texts
        if c.detail > 0 {
            x += Self.detailGap
            place(detailLabel, Rect(x: x, y: 0, width: c.detail, height: frame.height))
            x += c.detail
        } else {
            detailLabel.frame = .zero
        }
        if c.badge > 0 {
            x += Self.detailGap
            let pill = pillHeight
            place(badgeLabel, Rect(x: x, y: ((frame.height - pill) / 2).rounded(.down), width: c.badge, height: pill))
            badgeLabel.cornerRadius = pill / 2
        } else {
            badgeLabel.frame = .zero
        }
        if list?.orientation == .horizontal {
            // Columns: the separator runs down the edge towards the next column (the left one in a
            // right-to-left list).
            let x = list?.mirrorsSubviews == true ? 0 : frame.width - 1
            separator.frame = Rect(x: x, y: contentMargin, width: 1, height: frame.height - 2 * contentMargin)
        } else {
            // Inset to where the texts start (past the picture), at the leading edge.
            place(separator, Rect(x: textStart, y: frame.height - 1, width: frame.width - textStart, height: 1))
        }
    }
}
