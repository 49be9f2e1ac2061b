import Foundation
import Testing
import PanelTestSupport
@testable import PanelRender
import PanelRefresh
import PanelUI

/// Rows whose texts are given.
@MainActor
final class TextRows: ListDataSource {
    let rows: [(title: String, subtitle: String)]
    init(_ rows: [(String, String)]) { self.rows = rows.map { (title: $0.0, subtitle: $0.1) } }
    func numberOfRows(in list: ListView) -> Int { rows.count }
    func list(_ list: ListView, configure cell: ListCell, forRow row: Int) {
        cell.titleLabel.text = rows[row].title
        cell.subtitleLabel.text = rows[row].subtitle
    }
}

/// Text in every script as the panel draws it, against Golden/*.png.
@MainActor
@Suite("Golden frames of text in every script")
struct GoldenTextTests {
    static let scripts: [(String, String)] = [
        ("تحديث القائمة 2026 (Swift)", "مرحبا بالعالم، ١٢٣ عنصرًا"),
        ("שלום, עולם! (בדיקה)", "רשימה של 42 פריטים."),
        ("क्षत्रिय नमस्ते हिन्दी", "श्रृंखला और संयुक्ताक्षर"),
        ("สวัสดีครับ ภาษาไทย", "น้ำ ที่นี่ ผู้ใหญ่"),
        ("中文 日本語のテキスト", "한국어 텍스트 Latin AVAWAY"),
    ]

    @Test("rows in Arabic, Hebrew, Hindi, Thai and CJK: shaped, joined, right-to-left rows against the right edge")
    func scriptRows() throws {
        let stage = try GoldenStage(rows: 0, size: Size(width: 400, height: 300))
        let rows = TextRows(Self.scripts)
        stage.list.dataSource = rows
        stage.list.reloadData()
        try stage.snapshot("rows-scripts")
        // Every row drew ink: no script came out as empty boxes or nothing.
        for (i, row) in Self.scripts.enumerated() {
            for scalar in (row.0 + row.1).unicodeScalars where !scalar.properties.isWhitespace && scalar.value > 0x7f {
                #expect(stage.fonts.canDraw(scalar, in: .system(17)), "row \(i): no face draws U+\(String(scalar.value, radix: 16))")
            }
        }
    }

    @Test("rows sized to their wrapped titles: two and three lines, each row measured once")
    func wrappedRows() throws {
        let stage = try GoldenStage(rows: 0, size: Size(width: 320, height: 400))
        let rows = TextRows([
            ("A title long enough to wrap onto a second line of the row", "and a subtitle"),
            ("Short title", "A subtitle that is long enough to need two lines of its own here"),
            ("عنوان طويل بما يكفي ليلتف على سطرين في هذا الصف من القائمة", "سطر ثانٍ"),
            ("One line", ""),
        ])
        stage.list.makeCell = {
            let cell = ListCell()
            cell.titleLabel.numberOfLines = 3
            cell.subtitleLabel.numberOfLines = 2
            return cell
        }
        stage.list.rowHeight = .automatic(estimated: 60)
        stage.list.dataSource = rows
        stage.list.reloadData()
        stage.scene.frame()
        #expect(stage.list.rowsMeasured == 4)
        let heights = (0..<4).map { stage.list.rectForRow($0).height }
        #expect(heights[0] > heights[3] && heights[2] > heights[3], "\(heights)")
        #expect(heights[3] == ListView.defaultRowHeight)
        try stage.snapshot("rows-wrapped")
        stage.scene.frame()
        #expect(stage.list.rowsMeasured == 4, "measured once, not every frame")
    }

    @Test("Arabic and Hebrew headers: texts shaped right to left, the arrow right of them")
    func rightToLeftHeader() throws {
        for (language, name) in [(RefreshLanguage.arabic, "ar"), (.hebrew, "he")] {
            let stage = try GoldenStage()
            stage.localizer.language = language
            stage.scene.screen.layoutDirection = .rightToLeft
            _ = stage.header(NormalHeader(localizer: stage.localizer))
            stage.list.contentOffset = Point(x: 0, y: -54)
            try stage.snapshot("header-\(name)")
        }
    }

    /// Whether a colour emoji face is installed (fonts-noto-color-emoji).
    nonisolated static var hasColorEmoji: Bool {
        FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
    }

    @Test("an emoji is drawn in its own colours, scaled to the text's size, beside black text",
          .enabled(if: hasColorEmoji, "needs fonts-noto-color-emoji (scripts/bootstrap installs it)"))
    func colorEmoji() throws {
        let fonts = try FontLibrary()
        let scene = Scene(size: Size(width: 120, height: 40))
        scene.screen.textMeasurer = fonts
        let label = Label(frame: Rect(x: 0, y: 0, width: 120, height: 40))
        label.font = .system(20)
        label.text = "ok 😀"
        scene.screen.rootView.addSubview(label)
        let surface = Surface(width: 120, height: 40)
        Renderer(fonts: fonts).render(scene.screen, into: surface)
        var colored = 0, minX = Int.max, maxX = 0
        for y in 0..<40 {
            for x in 0..<120 {
                let p = surface.pixel(x: x, y: y)
                let r = Int(p >> 16 & 0xff), g = Int(p >> 8 & 0xff), b = Int(p & 0xff)
                if max(r, g, b) - min(r, g, b) > 80 { colored += 1; minX = min(minX, x); maxX = max(maxX, x) }
            }
        }
        // The grinning face's yellow, about the size of a 20-pixel letter, right of "ok ".
        #expect(colored > 100, "\(colored) coloured pixels")
        #expect(maxX - minX >= 14 && maxX - minX <= 30, "\(minX)...\(maxX)")
        #expect(minX > Int(fonts.width(of: "ok", font: .system(20))))
    }
}
