import Testing
@testable import PanelUI

@MainActor
@Suite("A row's content: picture, texts, detail, badge")
struct ListCellTests {
    /// A cell of a vertical list on a screen of `direction`, 400 x 80 points.
    func cell(_ direction: LayoutDirection = .leftToRight, image: Double = 56, detail: String = "12:40", badge: String = "3") -> ListCell {
        let scene = Scene(size: Size(width: 400, height: 480))
        scene.screen.layoutDirection = direction
        let cell = ListCell(frame: Rect(x: 0, y: 0, width: 400, height: 80))
        scene.screen.rootView.addSubview(cell)
        cell.imageSize = image
        cell.titleLabel.text = "A title"
        cell.subtitleLabel.text = "A subtitle"
        cell.detailLabel.text = detail
        cell.badgeLabel.text = badge
        cell.layoutSubviews()
        return cell
    }

    @Test("left to right: the picture at the leading margin, the texts after it, then the detail and the badge at the trailing edge")
    func leftToRight() {
        let c = cell()
        #expect(c.imageView.frame == Rect(x: 16, y: 12, width: 56, height: 56), "centred in the row")
        let texts = c.titleLabel.frame
        #expect(texts.minX == 16 + 56 + 16)
        #expect(c.subtitleLabel.frame.minX == texts.minX)
        let detail = c.detailLabel.frame, badge = c.badgeLabel.frame
        #expect(detail.width > 0 && detail.minX >= texts.maxX + 8)
        #expect(badge.minX >= detail.maxX + 8 && badge.maxX == 400 - 16)
        #expect(badge.height == 20 && badge.width >= 20 && c.badgeLabel.cornerRadius == 10)
        #expect(c.separator.frame.minX == texts.minX, "the separator starts where the texts do")
        let all = [c.imageView.frame, texts, detail, badge]
        for (i, a) in all.enumerated() { for b in all[(i + 1)...] { #expect(a.intersection(b) == nil, "\(a) and \(b) overlap") } }
    }

    @Test("right to left: the same row mirrored")
    func rightToLeft() {
        let ltr = cell(), rtl = cell(.rightToLeft)
        func mirrored(_ r: Rect) -> Rect { Rect(x: 400 - r.maxX, y: r.minY, width: r.width, height: r.height) }
        #expect(rtl.imageView.frame == mirrored(ltr.imageView.frame))
        #expect(rtl.titleLabel.frame == mirrored(ltr.titleLabel.frame))
        #expect(rtl.detailLabel.frame == mirrored(ltr.detailLabel.frame))
        #expect(rtl.badgeLabel.frame == mirrored(ltr.badgeLabel.frame))
        #expect(rtl.separator.frame == mirrored(ltr.separator.frame))
        #expect(rtl.imageView.frame.maxX == 400 - 16)
    }

    @Test("without a picture, detail or badge the texts take the whole row, as before")
    func plain() {
        let c = cell(image: 0, detail: "", badge: "")
        #expect(c.imageView.isHidden)
        #expect(c.titleLabel.frame.minX == 16 && c.titleLabel.frame.width == 400 - 32)
        #expect(c.separator.frame == Rect(x: 16, y: 79, width: 384, height: 1))
    }

    @Test("a long detail takes at most 40 % of the texts' room")
    func longDetail() {
        let c = cell(detail: String(repeating: "Detail ", count: 40))
        let room = 400 - 32 - 56 - 16 - c.badgeLabel.frame.width - 8
        #expect(c.detailLabel.frame.width <= (room * 0.4).rounded(.up))
        #expect(c.titleLabel.frame.width >= room * 0.6 - 8 - 1)
    }

    @Test("an automatic row is as tall as its picture and margins when the texts are shorter")
    func fitting() {
        let c = cell()
        #expect(c.fittingHeight(width: 400) == 56 + 16)
        c.imageSize = 0
        let texts = c.fittingHeight(width: 400)
        #expect(texts >= 44 && texts < 56 + 16, "the texts alone are lower than the picture: \(texts)")
    }

    @Test("the picture column shows the placeholder, the picture, or the broken mark")
    func pictures() {
        let c = cell()
        #expect(c.imageView.image == nil && c.imageView.backgroundColor != nil)
        c.picture = .loading
        #expect(c.imageView.image?.artwork == .placeholder && c.imageView.contentMode == .center)
        let shown = ImageReference(supplied: "20x20 /p.jpg", size: Size(width: 56, height: 56))
        c.picture = .shown(shown)
        #expect(c.imageView.image == shown && c.imageView.contentMode == .scaleToFill)
        c.picture = .failed
        #expect(c.imageView.image?.artwork == .brokenImage)
        c.prepareForReuse()
        #expect(c.picture == nil && c.imageView.image == nil && c.detailLabel.text.isEmpty && c.badgeLabel.text.isEmpty)
    }

    @Test("a pressed row shows the highlight over its own colour, which comes back after")
    func highlight() {
        let c = cell()
        c.backgroundColor = Color(red: 1, green: 2, blue: 3)
        c.isHighlighted = true
        #expect(c.backgroundColor == c.highlightColor)
        c.isHighlighted = false
        #expect(c.backgroundColor == Color(red: 1, green: 2, blue: 3))
    }
}
