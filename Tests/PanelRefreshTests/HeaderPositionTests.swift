import Testing
@testable import PanelRefresh

/// `RefreshHeader.position`: push (MJRefresh), behind, front.
@MainActor
@Suite("Header position")
struct HeaderPositionTests {
    /// Where `view` is on the screen, points.
    func onScreen(_ view: View) -> Rect {
        view.superview?.convert(view.frame, to: nil) ?? view.frame
    }

    func firstCell(_ stage: RefreshStage) throws -> View {
        try #require(stage.list.subviews.filter { $0 is ListCell }.min { $0.frame.minY < $1.frame.minY })
    }

    @Test("push: the pull moves the content down and the header with it, above the content")
    func push() throws {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        stage.pullDown(200, lift: false)
        let pulled = -stage.list.contentOffset.y
        #expect(pulled > 60)
        #expect(try onScreen(firstCell(stage)).minY == pulled)
        #expect(onScreen(header).maxY == pulled)
        #expect(header.state == .pulling)
    }

    @Test("behind: the header stays at the top, behind the rows, revealed as the content slides down")
    func behind() throws {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.position = .behind
        #expect(onScreen(header).maxY <= 0, "nothing of it shows at rest")
        stage.pullDown(40, lift: false)
        let small = -stage.list.contentOffset.y
        #expect(small > 0 && small < 54)
        #expect(onScreen(header).minY == 0, "fixed at the top")
        #expect(try onScreen(firstCell(stage)).minY == small, "the content slid down over it")
        let order = stage.list.subviews(reaching: stage.list.bounds)
        let headerIndex = try #require(order.firstIndex { $0 === header })
        let cellIndex = try #require(order.firstIndex { $0 is ListCell })
        #expect(headerIndex < cellIndex, "drawn behind the rows")
        stage.pullDown(200, lift: false)
        #expect(onScreen(header).minY == 0)
        stage.scene.dispatcher.cancelAll(at: stage.clock.now)
        stage.settle()
        #expect(header.state == .idle)
        #expect(onScreen(header).maxY <= 0)
    }

    @Test("front: the content stays; the header slides down over it, refreshes there and slides back up")
    func front() throws {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.position = .front
        let cell = try firstCell(stage)
        stage.pullDown(200, lift: false)
        let revealed = -stage.list.contentOffset.y
        #expect(revealed > 60)
        #expect(onScreen(cell).minY == 0, "the content did not move")
        #expect(onScreen(header).maxY == revealed, "the header's bottom is where the pull reached")
        #expect(header.state == .pulling)
        let order = stage.list.subviews(reaching: stage.list.bounds).filter { !($0 is ScrollIndicator) }
        #expect(order.last === header, "drawn in front of the rows (under the scroll bar only)")
        var hit = stage.list.hitTest(stage.scene.screen.rootView.convert(Point(x: 400, y: revealed - 10), to: stage.list))
        while let view = hit, view !== header { hit = view.superview }
        #expect(hit === header, "touched first where it covers the rows")
        stage.drag(from: 260, to: 260, duration: 0.01)
        stage.settle()
        #expect(header.state == .refreshing)
        #expect(stage.events.contains("header refresh"))
        #expect(onScreen(header).minY == 0 && onScreen(header).maxY == 54, "open at the top, over the rows")
        #expect(onScreen(cell).minY == 0)
        header.endRefreshing()
        stage.settle()
        #expect(header.state == .idle)
        #expect(onScreen(header).maxY <= 0)
        #expect(stage.list.contentOffset.y == 0)
        header.position = .push
        #expect(stage.list.pinnedContentTop == nil)
    }

    @Test("front: scrolling the list still moves the content; the header rides above the first row")
    func frontScrolls() throws {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.position = .front
        stage.list.contentOffset = Point(x: 0, y: 300)
        stage.scene.frame()
        let cell = try firstCell(stage)
        #expect(cell.frame.minY == 300 && onScreen(cell).minY == 0, "row 5 at the top")
        #expect(onScreen(header).maxY == -300)
    }
}
