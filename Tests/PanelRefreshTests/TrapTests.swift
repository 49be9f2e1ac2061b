import Foundation
import Testing
@testable import PanelRefresh

/// One test (or more) per trap of docs/traps.md.
@MainActor
@Suite("MJRefresh traps")
struct TrapTests {
    func autoStage() -> (RefreshStage, AutoNormalFooter) {
        let stage = RefreshStage()
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        stage.scene.frame()
        return (stage, footer)
    }

    // MARK: T1

    @Test("T1: an end before the content grows does not fire again on the next tick of the same fling")
    func t1OncePerDrag() {
        let (stage, footer) = autoStage()
        // The load ends at once; the rows arrive later (an async reload).
        stage.onRefresh["footer"] = { [unowned footer] in footer.endRefreshing() }
        stage.list.contentOffset = Point(x: 0, y: 1100)
        stage.drag(from: 440, to: 40, duration: 0.2)
        stage.settle()
        #expect(stage.events.filter { $0 == "footer refresh" }.count == 1)
        // The rows arrive: the new content size re-arms, the next drag to the end loads.
        stage.rows.count += 10
        stage.list.reloadData()
        stage.list.contentOffset = Point(x: 0, y: 1700)
        stage.drag(from: 440, to: 40, duration: 0.2)
        stage.settle()
        #expect(stage.events.filter { $0 == "footer refresh" }.count == 2)
    }

    @Test("T1: a content-size change re-arms within the same fling")
    func t1Rearm() {
        let (stage, footer) = autoStage()
        stage.onRefresh["footer"] = { [unowned stage, unowned footer] in
            stage.rows.count += 5
            stage.list.reloadData()
            footer.endRefreshing()
        }
        stage.list.contentOffset = Point(x: 0, y: 1000)
        stage.drag(from: 440, to: 40, duration: 0.1)
        stage.settle()
        #expect(stage.events.filter { $0 == "footer refresh" }.count >= 2, "each new page re-arms while the fling runs on")
    }

    @Test("T1: the footer never loads by itself while the header refreshes, unless allowed")
    func t1NotWhileHeaderRefreshes() {
        for allowed in [false, true] {
            let (stage, footer) = autoStage()
            footer.loadsWhileHeaderRefreshing = allowed
            let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
            header.beginRefreshing()
            stage.settle()
            stage.list.contentOffset = Point(x: 0, y: 1100)
            stage.drag(from: 440, to: 40, duration: 0.2)
            #expect(stage.events.contains("footer refresh") == allowed)
        }
    }

    @Test("T1 (PR #1328): pulling down with a preload percent fires only the header, on short and on just-full content")
    func t1ShortContentPullDown() {
        // 5 rows (300 pt) do not fill the 480-pt view: the footer's pull-up-on-short-content
        // path is live (a push up loads); 9 rows (540 pt) just fill it: its offset path is
        // live (a push up past the preload threshold loads). A pull down fires neither.
        for rows in [5, 9] {
            let stage = RefreshStage(rows: rows)
            let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
            let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
            footer.triggerAutomaticallyRefreshPercent = -1
            stage.pullDown(300)
            stage.settle()
            #expect(header.state == .refreshing, "\(rows) rows")
            #expect(footer.state == .idle, "\(rows) rows")
            #expect(!stage.events.contains("footer refresh"), "\(rows) rows")
            header.endRefreshing()
            stage.settle()
            #expect(!stage.events.contains("footer refresh"), "\(rows) rows: not on the way back either")
            // The same footer does load when pushed towards the end: the path above was live.
            stage.pullUp(120)
            stage.settle()
            #expect(stage.events.contains("footer refresh"), "\(rows) rows: a push up loads")
        }
    }

    // MARK: T2

    @Test("T2: opening and closing move continuously from where the content is")
    func t2Continuous() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        stage.pullDown(300, lift: false)
        let released = stage.list.contentOffset.y
        let opening = stage.recordOffsets {
            stage.pullDown(0)
            stage.settle()
        }
        var previous = released
        for offset in opening {
            #expect(abs(offset - previous) < 12, "no jump between frames at 60 Hz")
            #expect(offset >= previous - 1e-9, "the content only moves towards the open position")
            previous = offset
        }
        #expect(previous == -54)
        header.endRefreshing()
        let closing = stage.recordOffsets { stage.settle() }
        previous = -54
        for offset in closing {
            #expect(abs(offset - previous) < 12)
            previous = offset
        }
        #expect(previous == 0)
    }

    // MARK: T3

    @Test("T3: while open, the header's inset follows what is visible of it")
    func t3StickyInset() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.beginRefreshing()
        stage.settle()
        #expect(stage.list.componentInset(for: header).top == 54)
        stage.list.contentOffset = Point(x: 0, y: -24)
        #expect(stage.list.componentInset(for: header).top == 24)
        stage.list.contentOffset = Point(x: 0, y: 300)
        #expect(stage.list.componentInset(for: header).top == 0)
        stage.list.contentOffset = Point(x: 0, y: -80)
        #expect(stage.list.componentInset(for: header).top == 54)
    }

    // MARK: T4

    @Test("T4: an end while the header is still opening wins")
    func t4EndDuringSnap() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        stage.pullDown(300)
        #expect(header.state == .refreshing)
        stage.wait(0.1)
        #expect(stage.list.isAnimatingOffset)
        #expect(header.endRefreshing())
        #expect(header.state == .idle)
        stage.settle()
        #expect(header.state == .idle)
        #expect(!stage.events.contains("header refresh"), "the refresh was over before it began")
        #expect(stage.list.contentOffset.y == 0)
        #expect(stage.list.adjustedContentInset.top == 0)
    }

    @Test("T4: begin and end are synchronous and idempotent")
    func t4Idempotent() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        var ends = 0
        header.endRefreshingCompletion = { ends += 1 }
        #expect(header.beginRefreshing())
        #expect(!header.beginRefreshing())
        #expect(header.state == .refreshing)
        stage.settle()
        #expect(header.endRefreshing())
        #expect(!header.endRefreshing())
        #expect(header.state == .idle)
        #expect(header.beginRefreshing(), "end then begin runs in that order")
        #expect(header.state == .refreshing)
        stage.settle()
        #expect(stage.events.filter { $0 == "header refresh" }.count == 2)
        #expect(ends == 0, "the first close was interrupted by the second refresh")
        header.endRefreshing()
        stage.settle()
        #expect(ends == 1)
    }

    @Test("T4 (#800): many refreshes leave the insets exactly as they were")
    func t4NoDrift() {
        let stage = RefreshStage()
        stage.list.contentInset = EdgeInsets(top: 20, bottom: 10)
        stage.list.contentOffset = Point(x: 0, y: -20)
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        let footer = stage.attach(footer: BackNormalFooter(localizer: RefreshLocalizer()))
        for round in 0..<5 {
            header.beginRefreshing()
            if round % 2 == 0 { stage.wait(0.1) } else { stage.settle() }
            header.endRefreshing()
            footer.beginRefreshing()
            stage.settle()
            footer.endRefreshing()
            stage.settle()
        }
        header.beginRefreshing()
        stage.settle()
        header.endRefreshing()
        stage.settle()
        #expect(stage.list.adjustedContentInset == EdgeInsets(top: 20, bottom: 10))
        #expect(stage.list.contentOffset.y == -20)
    }

    // MARK: T5

    @Test("T5: no more data sticks until reset; reset then begin works at once")
    func t5NoMoreSticks() {
        let (stage, footer) = autoStage()
        footer.beginRefreshing()
        footer.endRefreshingWithNoMoreData()
        #expect(footer.state == .noMoreData)
        #expect(!footer.endRefreshing())
        #expect(footer.state == .noMoreData)
        #expect(!footer.beginRefreshing())
        #expect(footer.state == .noMoreData)
        #expect(!footer.endRefreshingWithNoMoreData())
        #expect(footer.resetNoMoreData())
        #expect(footer.beginRefreshing(), "PR #1606: reset + begin must not be overwritten")
        #expect(footer.state == .refreshing)
        #expect(stage.events.filter { $0 == "footer refresh" }.count == 2)
    }

    // MARK: T6

    @Test("T6: a finished header resets the footer's no more data, unless told not to")
    func t6ResetOnHeaderEnd() {
        for resets in [true, false] {
            let stage = RefreshStage()
            let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
            let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
            header.resetsFooterNoMoreDataOnEnd = resets
            footer.endRefreshingWithNoMoreData()
            header.beginRefreshing()
            stage.settle()
            header.endRefreshing()
            #expect(footer.state == (resets ? .idle : .noMoreData))
        }
    }

    // MARK: T7

    @Test("T7: the user's inset survives a refresh and changes made during it")
    func t7UserInset() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        header.beginRefreshing()
        stage.settle()
        stage.list.contentInset = EdgeInsets(top: 20, bottom: 15)
        #expect(stage.list.adjustedContentInset == EdgeInsets(top: 74, bottom: 59))
        header.endRefreshing()
        stage.settle()
        #expect(stage.list.contentInset == EdgeInsets(top: 20, bottom: 15), "never overwritten")
        #expect(stage.list.adjustedContentInset == EdgeInsets(top: 20, bottom: 59))
        #expect(stage.list.contentOffset.y == -20)
        list(stage.list, hasFooterAt: 1800, footer)
    }

    func list(_ list: ListView, hasFooterAt y: Double, _ footer: RefreshFooter) {
        #expect(footer.frame.minY == y)
        #expect(list.componentInset(for: footer).bottom == 44)
    }

    // MARK: T8

    @Test("T8: begin before the component is even attached waits and opens on the first frame")
    func t8BeforeAttach() {
        let stage = RefreshStage(firstFrame: false)
        let header = NormalHeader(localizer: RefreshLocalizer())
        header.beginRefreshing()
        #expect(header.state == .willRefresh)
        stage.attach(header: header)
        #expect(header.state == .willRefresh)
        stage.scene.frame()
        #expect(header.state == .refreshing)
        stage.settle()
        #expect(stage.list.contentOffset.y == -54)
        #expect(stage.events.contains("header refresh"))
    }

    // MARK: T9

    @Test("T9: the footer hides when the list is empty or not full, and shows again")
    func t9Hiding() {
        let stage = RefreshStage(rows: 0)
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        footer.hidesWhenEmpty = true
        #expect(footer.isHidden)
        #expect(stage.list.adjustedContentInset.bottom == 0)
        stage.rows.count = 3
        stage.list.reloadData()
        #expect(!footer.isHidden)
        footer.hidesWhenContentNotFull = true
        #expect(footer.isHidden, "3 rows of 60 do not fill 480")
        stage.rows.count = 30
        stage.list.reloadData()
        #expect(!footer.isHidden)
        #expect(stage.list.adjustedContentInset.bottom == 44)
    }

    // MARK: T10

    @Test("T10: the trigger distance is separate from the height")
    func t10Trigger() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.triggerDistance = 100
        stage.pullDown(150, lift: false)
        #expect(-stage.list.contentOffset.y > 54 && -stage.list.contentOffset.y < 100)
        #expect(header.state == .idle)
        stage.pullDown(0)
        stage.pullDown(400, lift: false)
        #expect(header.state == .pulling)
    }

    @Test("T10 (#814): a max drag distance caps the pull; a tall header still reaches pulling")
    func t10MaxDrag() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.height = 160
        header.triggerDistance = 80
        header.maxDragDistance = 120
        stage.pullDown(600, lift: false)
        #expect(stage.list.contentOffset.y == -120)
        #expect(header.state == .pulling)
        stage.pullDown(0)
        stage.settle()
        #expect(stage.list.contentOffset.y == -160)
    }

    @Test("T10: a finished state shows the result for its time, then closes")
    func t10Finished() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.finishedDisplayDuration = 0.5
        header.beginRefreshing()
        stage.settle()
        #expect(header.endRefreshing(result: .failure("timeout")))
        #expect(header.state == .finished)
        #expect(header.stateLabel.text == "Update failed")
        #expect(header.isRefreshing)
        #expect(!header.loadingView.isAnimating)
        stage.wait(0.45)
        #expect(header.state == .finished)
        #expect(stage.list.contentOffset.y == -54)
        stage.wait(0.1)
        #expect(header.state == .idle)
        stage.settle()
        #expect(stage.list.contentOffset.y == 0)
        header.beginRefreshing()
        stage.settle()
        header.endRefreshing(result: .success)
        #expect(header.stateLabel.text == "Up to date")
        #expect(stage.events.filter { $0.hasSuffix("->finished") }.count == 2)
    }

    @Test("T10: no more data asked for while the result shows is where it settles")
    func t10FinishedThenNoMore() {
        let (stage, footer) = autoStage()
        footer.finishedDisplayDuration = 0.5
        footer.beginRefreshing()
        footer.endRefreshing()
        #expect(footer.state == .finished)
        footer.endRefreshingWithNoMoreData()
        stage.wait(0.6)
        #expect(footer.state == .noMoreData)
    }

    @Test("a cancelled pan (device lost mid-drag) goes back to idle and loses nothing")
    func cancelledPan() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        stage.pullDown(300, lift: false)
        #expect(header.state == .pulling)
        stage.scene.dispatcher.cancelAll(at: stage.clock.now)
        #expect(header.state == .idle)
        stage.settle()
        #expect(stage.list.contentOffset.y == 0)
        #expect(!stage.events.contains("header refresh"))
        #expect(stage.list.visibleCells.count == 8)
    }
}

/// Traps listed as "lesser but recurring" in §2.
@MainActor
@Suite("Lesser traps")
struct LesserTrapTests {
    @MainActor
    final class CountingRows: ListDataSource {
        var counts = 0
        func numberOfRows(in list: ListView) -> Int {
            counts += 1
            return 30
        }
        func list(_ list: ListView, configure cell: ListCell, forRow row: Int) {}
    }

    @Test("#518: ending a refresh never calls back into the data source")
    func noImplicitReload() {
        let stage = RefreshStage()
        let rows = CountingRows()
        stage.list.dataSource = rows
        stage.list.reloadData()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        let before = rows.counts
        header.beginRefreshing()
        stage.settle()
        header.endRefreshing()
        footer.beginRefreshing()
        footer.endRefreshingWithNoMoreData()
        footer.resetNoMoreData()
        footer.hidesWhenEmpty = true
        stage.settle()
        #expect(rows.counts == before)
        // The count does see a reload: an implicit one above would have shown.
        stage.list.reloadData()
        #expect(rows.counts == before + 1)
    }

    @Test("headers with different keys keep separate last-updated times in one store")
    func separateKeys() {
        let store = InMemoryLastUpdatedStore()
        let stage = RefreshStage()
        let first = stage.attach(header: StateHeader(localizer: RefreshLocalizer()))
        first.lastUpdatedStore = store
        first.lastUpdatedTimeKey = "news"
        first.beginRefreshing()
        first.endRefreshing()
        let second = StateHeader(localizer: RefreshLocalizer())
        second.lastUpdatedStore = store
        second.lastUpdatedTimeKey = "weather"
        #expect(second.lastUpdatedTime == nil)
        #expect(store.date(forKey: "news") == first.lastUpdatedTime)
        #expect(first.lastUpdatedTime != nil)
    }

    @Test("a hidden footer label puts the spinner in the middle")
    func hiddenFooterLabel() {
        let stage = RefreshStage()
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        stage.scene.frame()
        #expect(footer.loadingView.frame.midX < 400)
        footer.stateLabel.isHidden = true
        stage.scene.frame()
        #expect(footer.loadingView.frame.midX == 400)
    }
}
