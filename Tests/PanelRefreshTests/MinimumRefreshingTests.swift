import Testing
@testable import PanelRefresh

/// `minimumRefreshingDuration` on a real scene: a source that answers at once does not flash
/// the spinner.
@MainActor
@Suite("Minimum refreshing time")
struct MinimumRefreshingTests {
    @Test("a pull whose source answers at once keeps the spinner 0.3 s, then closes; the end completion runs after the close")
    func fastSource() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.minimumRefreshingDuration = RefreshComponent.defaultMinimumRefreshingDuration
        var closed = 0
        stage.onRefresh["header"] = { header.endRefreshing(completion: { closed += 1 }) }
        stage.pullDown(300)
        stage.wait(0.26)
        #expect(stage.events.contains("header refresh"), "the open arrived after the fast snap (0.25 s)")
        #expect(header.state == .refreshing && header.isEnding)
        #expect(!header.loadingView.isHidden, "the spinner still shows")
        stage.wait(0.3)
        #expect(header.state == .idle && !header.isEnding)
        #expect(closed == 0, "closing")
        stage.settle()
        #expect(closed == 1)
        #expect(stage.list.contentOffset.y == 0)
        #expect(stage.events.filter { $0.hasPrefix("header ") && $0.contains("->") } ==
                ["header idle->pulling", "header pulling->refreshing", "header refreshing->idle"])
    }

    @Test("an auto footer's load that answers at once shows its spinner for the minimum time")
    func autoFooter() {
        let stage = RefreshStage()
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        footer.minimumRefreshingDuration = 0.5
        stage.onRefresh["footer"] = { footer.endRefreshing() }
        footer.beginRefreshing()
        #expect(stage.events.contains("footer refresh"))
        #expect(footer.state == .refreshing)
        stage.wait(0.4)
        #expect(footer.state == .refreshing)
        stage.wait(0.2)
        #expect(footer.state == .idle)
    }

    @Test("end then begin in the same turn during the minimum time keeps it open and refreshes again")
    func beginWins() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.minimumRefreshingDuration = 0.3
        header.beginRefreshing()
        stage.wait(0.26)
        #expect(header.endRefreshing())
        #expect(!header.endRefreshing(), "one end is held already")
        #expect(header.beginRefreshing(), "the later call wins")
        #expect(!header.isEnding)
        stage.settle()
        #expect(header.state == .refreshing)
        #expect(stage.events.filter { $0 == "header refresh" }.count == 2)
    }

    @Test("zero gives MJRefresh's behaviour: the end takes effect at once")
    func zero() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.minimumRefreshingDuration = 0
        header.beginRefreshing()
        #expect(header.endRefreshing())
        #expect(header.state == .idle)
    }
}
