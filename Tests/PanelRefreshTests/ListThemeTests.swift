import Testing
@testable import PanelRefresh

@MainActor
@Suite("One theme for a list, its rows and its components")
struct ListThemeTests {
    /// A list of `rows` with a normal header and its first row's cell.
    static func staged(rows: Int) throws -> (RefreshStage, NormalHeader, ListCell) {
        let stage = RefreshStage(rows: rows)
        let header = NormalHeader()
        stage.list.header = header
        return (stage, header, try #require(stage.list.visibleCells[0]))
    }

    @Test("list.theme = .dark colours the list, every row (made before and after), the header set before and the footer added after")
    func darkBoard() throws {
        let (stage, header, before) = try Self.staged(rows: 40)
        stage.list.theme = .dark
        let footer = AutoNormalFooter()
        stage.list.footer = footer
        stage.scene.frame()
        #expect(stage.list.backgroundColor == .black)
        #expect(before.backgroundColor == .black && before.titleLabel.textColor == .white)
        #expect(before.subtitleLabel.textColor == ListTheme.dark.secondaryText && before.separator.backgroundColor == ListTheme.dark.separator)
        #expect(header.stateLabel.textColor == ListTheme.dark.secondaryText && header.lastUpdatedTimeLabel.textColor == ListTheme.dark.secondaryText)
        // The arrow takes its text's colour, as MJRefresh's does; the spinner the tint.
        #expect(header.loadingView.color == ListTheme.dark.tint && header.arrowView.tintColor == ListTheme.dark.secondaryText)
        #expect(footer.stateLabel.textColor == ListTheme.dark.secondaryText && footer.loadingView.color == ListTheme.dark.tint)
        // Rows that come on screen later are made or reused in the theme; a press shows its colour and goes.
        stage.list.contentOffset = Point(x: 0, y: 1200)
        stage.scene.frame()
        let later = try #require(stage.list.visibleCells[25])
        #expect(later.backgroundColor == .black && later.titleLabel.textColor == .white)
        later.isHighlighted = true
        #expect(later.backgroundColor == ListTheme.dark.highlight)
        later.isHighlighted = false
        #expect(later.backgroundColor == .black)
    }

    @Test("no theme: every view keeps its own colours (nothing changes unasked)")
    func noTheme() throws {
        let (stage, header, cell) = try Self.staged(rows: 10)
        #expect(stage.list.theme == nil)
        #expect(cell.backgroundColor == .white && cell.titleLabel.textColor == .black)
        #expect(header.stateLabel.textColor == RefreshStyle.labelTextColor)
    }
}
