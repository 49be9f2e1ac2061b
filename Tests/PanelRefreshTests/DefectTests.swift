import Foundation
import Testing
@testable import PanelRefresh

/// Behaviour defects found by the audit of issue 11, each pinned by a test that failed before
/// the fix.
@MainActor
@Suite("Defects")
struct DefectTests {
    @Test("a no-more-data said in the same turn as the header's end stays, whatever the order of the calls")
    func noMoreDataOrder() {
        for footerFirst in [false, true] {
            for dwell in [0.0, 1.0] {
                let stage = RefreshStage()
                let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
                let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
                header.finishedDisplayDuration = dwell
                header.beginRefreshing()
                stage.settle()
                if footerFirst {
                    footer.endRefreshingWithNoMoreData()
                    header.endRefreshing()
                } else {
                    header.endRefreshing()
                    footer.endRefreshingWithNoMoreData()
                }
                stage.settle()
                #expect(footer.state == .noMoreData, "footer first: \(footerFirst), dwell \(dwell)")
            }
        }
    }

    @Test("a no-more-data from before the refresh is reset at its successful end, not after a failure")
    func resetOnlyOnSuccess() {
        for success in [true, false] {
            let stage = RefreshStage()
            let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
            let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
            header.finishedDisplayDuration = 1
            footer.endRefreshingWithNoMoreData()
            header.beginRefreshing()
            stage.settle()
            header.endRefreshing(result: success ? .success : .failure("offline"))
            // At the end call itself, not after the result's dwell.
            #expect(footer.state == (success ? .idle : .noMoreData), "success: \(success)")
            stage.settle()
            #expect(footer.state == (success ? .idle : .noMoreData), "success: \(success), settled")
        }
    }

    @Test("only a successful refresh that opened stamps the last-updated time")
    func lastUpdatedOnSuccessOnly() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.beginRefreshing()
        stage.settle()
        header.endRefreshing(result: .failure("offline"))
        stage.settle()
        #expect(header.lastUpdatedTime == nil, "a failure is not an update")
        // Begun and ended before the first frame: it never opened.
        let early = RefreshStage(firstFrame: false)
        let unopened = early.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        unopened.beginRefreshing()
        #expect(unopened.state == .willRefresh)
        unopened.endRefreshing()
        early.settle()
        #expect(unopened.lastUpdatedTime == nil, "a refresh that never opened is not an update")
        header.beginRefreshing()
        stage.settle()
        stage.scene.wait(5)
        header.endRefreshing()
        #expect(header.lastUpdatedTime == stage.clock.date, "a success is stamped at its end")
    }

    @Test("the footer's hiding rules can be switched off again, and never override the app's own isHidden")
    func hidingRules() {
        let stage = RefreshStage(rows: 0)
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        footer.hidesWhenEmpty = true
        #expect(footer.isHidden, "empty list: hidden by the rule")
        footer.hidesWhenEmpty = false
        #expect(!footer.isHidden, "rule off: shown again")
        footer.isHidden = true
        footer.hidesWhenContentNotFull = true
        stage.rows.count = 30
        stage.list.reloadData()
        stage.settle()
        #expect(footer.isHidden, "the rule no longer hides it, but the app does")
        footer.isHidden = false
        #expect(!footer.isHidden)
        stage.rows.count = 2
        stage.list.reloadData()
        stage.settle()
        #expect(footer.isHidden, "short content: the rule hides it")
        footer.isHidden = false
        #expect(footer.isHidden, "the app's false does not beat an active rule")
        footer.hidesWhenContentNotFull = false
        #expect(!footer.isHidden)
        #expect(stage.list.adjustedContentInset.bottom == footer.height, "shown again: the footer's inset is back")
    }
}

/// Paths the audit found untested.
@MainActor
@Suite("Footer paths")
struct FooterPathTests {
    @Test("scrolling back over the auto footer's threshold does not load; only a move towards the end does, once per drag")
    func backOverThreshold() {
        let stage = RefreshStage(rows: 30)
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        let end = stage.list.maximumContentOffset.y
        stage.list.contentOffset = Point(x: 0, y: end - 200)
        stage.settle()
        // A finger down, then back and forth across the threshold in one drag.
        var script = GestureScript(start: stage.clock.now + 0.1)
        script.drag(from: Point(x: 400, y: 400), to: Point(x: 400, y: 100), duration: 0.3, hold: 0.1, lift: false)
        stage.scene.play(script.frames)
        #expect(stage.events.filter { $0 == "footer refresh" }.count == 1, "reaching the end loads")
        footer.endRefreshing()
        stage.scene.wait(0.5)
        // The same finger goes back up across the threshold: nothing loads.
        var back = GestureScript(start: stage.clock.now + 0.1)
        back.drag(from: Point(x: 400, y: 100), to: Point(x: 400, y: 400), duration: 0.3, hold: 0.1)
        stage.scene.play(back.frames)
        stage.settle()
        #expect(stage.list.contentOffset.y < end - 150, "scrolled back over the threshold")
        #expect(stage.events.filter { $0 == "footer refresh" }.count == 1, "moving back never loads")
        // A new drag towards the end re-arms and loads once more.
        var again = GestureScript(start: stage.clock.now + 0.1)
        again.drag(from: Point(x: 400, y: 400), to: Point(x: 400, y: 100), duration: 0.3, hold: 0.1)
        stage.scene.play(again.frames)
        stage.settle()
        #expect(stage.events.filter { $0 == "footer refresh" }.count == 2, "a new drag re-arms once")
    }

    @Test("the auto footer's end completion runs once, after it has closed")
    func endCompletion() {
        let stage = RefreshStage(rows: 30)
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        footer.beginRefreshing()
        stage.settle()
        var completions = 0
        var stateAtCompletion: RefreshState?
        #expect(footer.endRefreshing { completions += 1; stateAtCompletion = footer.state })
        stage.settle()
        #expect(completions == 1)
        #expect(stateAtCompletion == .idle)
        #expect(!footer.endRefreshing { completions += 1 }, "not refreshing: ignored")
        stage.settle()
        #expect(completions == 1)
    }

    @Test("the back footer does not load while the header refreshes, unless allowed")
    func backFooterWhileHeaderRefreshes() {
        for allowed in [false, true] {
            let stage = RefreshStage(rows: 30)
            let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
            let footer = stage.attach(footer: BackNormalFooter(localizer: RefreshLocalizer()))
            footer.loadsWhileHeaderRefreshing = allowed
            header.beginRefreshing()
            stage.settle()
            stage.list.contentOffset = stage.list.maximumContentOffset
            stage.settle()
            stage.pullUp(300)
            stage.settle()
            #expect(stage.events.contains("footer refresh") == allowed, "allowed: \(allowed)")
            #expect(header.state == .refreshing)
        }
    }
}

@MainActor
@Suite("Scroll to the top")
struct ScrollToTopTests {
    @Test("scroll durations: the snap for a screen or less, longer for further, capped; 0 stays 0")
    func durations() {
        #expect(ScrollView.scrollDuration(distance: 300, viewport: 480, base: 0.25) == 0.25)
        #expect(abs(ScrollView.scrollDuration(distance: 480 * 3, viewport: 480, base: 0.25) - 0.45) < 1e-9)
        #expect(ScrollView.scrollDuration(distance: 1e9, viewport: 480, base: 0.25) == ScrollView.maxScrollDuration)
        #expect(ScrollView.scrollDuration(distance: 1e9, viewport: 480, base: 0) == 0)
        #expect(ScrollView.scrollDuration(distance: .nan, viewport: 480, base: 0.25) == 0.25)
    }

    @Test("beginRefreshing deep in a list scrolls up over a time that grows with the distance, then refreshes")
    func beginFromDeep() {
        for rows in [30, 300] {
            let stage = RefreshStage(rows: rows)
            let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
            stage.list.contentOffset = Point(x: 0, y: stage.list.maximumContentOffset.y)
            stage.scene.frame()
            let start = stage.clock.now
            var arrived: Double?
            header.refreshingAction = { arrived = stage.clock.now }
            header.beginRefreshing()
            stage.settle()
            #expect(stage.list.contentOffset.y == -54, "\(rows) rows: open at the top")
            let took = (arrived ?? 99) - start
            let distance = Double(rows) * 60 - 480 + 54
            #expect(abs(took - ScrollView.scrollDuration(distance: distance, viewport: 480, base: 0.25)) < 0.05, "\(rows) rows took \(took) s")
            if rows == 300 { #expect(took > 0.7, "a long way is not a 0.25 s jump") }
        }
    }

    @Test("scrollToTop(animated:) from the end of a long list: the top, over the capped duration")
    func scrollToTop() {
        let stage = RefreshStage(rows: 1000)
        stage.list.contentOffset = stage.list.maximumContentOffset
        var done: Double?
        let start = stage.clock.now
        stage.list.scrollToTop(animated: true) { _ in done = stage.clock.now }
        stage.settle()
        #expect(stage.list.contentOffset.y == 0)
        #expect(abs((done ?? 99) - start - ScrollView.maxScrollDuration) < 0.05)
        stage.list.contentOffset = Point(x: 0, y: 500)
        stage.list.scrollToTop(animated: false)
        #expect(stage.list.contentOffset.y == 0, "not animated: at once")
    }
}

@MainActor
@Suite("A failed load that stays")
struct FailedLoadTests {
    @Test("auto footer: a failed load stays failed (\"Tap to retry\"), no automatic retry in the same drag; a tap retries")
    func autoFooterTap() {
        let stage = RefreshStage(rows: 30)
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        var attempts = 0
        stage.onRefresh["footer"] = { [unowned footer] in
            attempts += 1
            if attempts == 1 { footer.endRefreshing(result: .failure("offline")) }
        }
        stage.list.contentOffset = Point(x: 0, y: 1100)
        stage.drag(from: 440, to: 40, duration: 0.4, hold: 0.1)
        #expect(attempts == 1)
        #expect(footer.state == .failed)
        #expect(footer.stateLabel.text == "Could not load. Tap to retry.")
        stage.settle()
        #expect(footer.state == .failed, "stays until retried")
        #expect(attempts == 1, "no automatic retry as the content settles at the end")
        // A tap on the footer retries.
        let footerY = footer.frame.minY - stage.list.contentOffset.y + footer.height / 2
        #expect(footerY > 400 && footerY < 480, "the footer is on screen at \(footerY)")
        var tap = GestureScript(start: stage.clock.now + 0.1)
        tap.tap(at: Point(x: 400, y: footerY))
        stage.scene.play(tap.frames)
        #expect(attempts == 2)
        #expect(footer.state == .refreshing)
    }

    @Test("auto footer: a new drag retries a failed load; a result dwell shows the failure first")
    func autoFooterDrag() {
        let stage = RefreshStage(rows: 30)
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        footer.finishedDisplayDuration = 1
        var attempts = 0
        stage.onRefresh["footer"] = { [unowned footer] in
            attempts += 1
            if attempts == 1 { footer.endRefreshing(result: .failure("offline")) }
        }
        stage.list.contentOffset = Point(x: 0, y: 1100)
        stage.drag(from: 440, to: 40, duration: 0.4, hold: 0.1)
        #expect(footer.state == .finished)
        #expect(footer.stateLabel.text == "Could not load more")
        stage.settle()
        #expect(footer.state == .failed)
        stage.drag(from: 300, to: 100, duration: 0.2)
        stage.settle()
        #expect(attempts == 2, "the new drag retried")
        #expect(footer.state == .refreshing)
    }

    @Test("back footer: a failed load stays (\"Pull up to retry\") until a new pull past the trigger")
    func backFooter() {
        let stage = RefreshStage(rows: 30)
        let footer = stage.attach(footer: BackNormalFooter(localizer: RefreshLocalizer()))
        var attempts = 0
        stage.onRefresh["footer"] = { [unowned footer] in
            attempts += 1
            if attempts == 1 { footer.endRefreshing(result: .failure("offline")) }
        }
        stage.list.contentOffset = stage.list.maximumContentOffset
        stage.settle()
        stage.pullUp(300)
        stage.settle()
        #expect(attempts == 1)
        #expect(footer.state == .failed)
        #expect(footer.stateLabel.text == "Could not load. Pull up to retry.")
        stage.pullUp(20)
        stage.settle()
        #expect(footer.state == .failed, "a pull short of the trigger leaves it failed")
        stage.pullUp(300)
        stage.settle()
        #expect(attempts == 2)
        #expect(footer.state == .refreshing)
    }

    @Test("a failed trailer says so and that a swipe retries (it said \"Swipe for details\"), in every language")
    func trailerFailed() {
        let stage = RefreshStage(rows: 30)
        let trailer = NormalTrailer(localizer: RefreshLocalizer())
        stage.list.trailer = trailer
        stage.scene.frame()
        trailer.beginRefreshing()
        trailer.endRefreshing(result: .failure("offline"))
        stage.settle()
        #expect(trailer.state == .failed)
        #expect(trailer.stateLabel.text == "Failed. Swipe to retry")
        #expect(trailer.stateLabel.text != trailer.localizer.text(.trailerIdle))
        let localizer = RefreshLocalizer()
        let texts = Set(RefreshLanguage.allCases.map { localizer.text(.trailerFailed, in: $0) })
        #expect(texts.count == RefreshLanguage.allCases.count, "each language its own")
    }

    @Test("no-more-data and explicit begins work from the failed state; every language has the retry texts")
    func fromFailed() {
        let stage = RefreshStage(rows: 30)
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        footer.beginRefreshing()
        footer.endRefreshing(result: .failure(nil))
        #expect(footer.state == .failed)
        #expect(footer.endRefreshingWithNoMoreData())
        #expect(footer.state == .noMoreData)
        footer.resetNoMoreData()
        footer.beginRefreshing()
        footer.endRefreshing(result: .failure(nil))
        #expect(footer.beginRefreshing(), "an explicit begin retries")
        let localizer = RefreshLocalizer()
        for language in RefreshLanguage.allCases where language != .english {
            #expect(localizer.text(.footerRetryTap, in: language) != localizer.text(.footerRetryTap, in: .english))
            #expect(localizer.text(.footerRetryPull, in: language) != localizer.text(.footerRetryTap, in: language))
        }
    }
}

@MainActor
@Suite("Trigger distance and maximum drag beyond the header")
struct EdgeOptionTests {
    /// The back footer's pull past the end, in displayed points, at the finger's deepest.
    func backPull(trigger: Double?, maxDrag: Double?) -> (state: RefreshState, overscroll: Double) {
        let stage = RefreshStage(rows: 30)
        let footer = stage.attach(footer: BackNormalFooter(localizer: RefreshLocalizer()))
        footer.triggerDistance = trigger
        footer.maxDragDistance = maxDrag
        stage.list.contentOffset = stage.list.maximumContentOffset
        stage.settle()
        stage.pullUp(200, lift: false)
        return (footer.state, stage.list.contentOffset.y - stage.list.maximumContentOffset.y)
    }

    @Test("back footer: a trigger distance apart from the height, and a cap on the pull")
    func backFooter() {
        let plain = backPull(trigger: nil, maxDrag: nil)
        #expect(plain.state == .pulling, "the default trigger is the height (44)")
        #expect(plain.overscroll > 60)
        let far = backPull(trigger: plain.overscroll + 20, maxDrag: nil)
        #expect(far.state == .idle, "the same pull is short of a longer trigger")
        let capped = backPull(trigger: nil, maxDrag: 50)
        #expect(capped.overscroll <= 50.001)
        #expect(capped.state == .pulling)
    }

    @Test("trailer: a trigger distance apart from the width, a cap on the pull, and a result dwell")
    func trailer() {
        func pull(trigger: Double?, maxDrag: Double?, dwell: Double = 0) -> (Trailer, ScrollView, Scene) {
            let scene = Scene(size: Size(width: 800, height: 480))
            let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 800, height: 480), animator: scene.animator)
            scroll.contentSize = Size(width: 1600, height: 480)
            scene.screen.rootView.addSubview(scroll)
            scene.dispatcher.scrollView = scroll
            let trailer = NormalTrailer(localizer: RefreshLocalizer())
            trailer.triggerDistance = trigger
            trailer.maxDragDistance = maxDrag
            trailer.finishedDisplayDuration = dwell
            scroll.trailer = trailer
            scene.frame()
            scroll.contentOffset = Point(x: 800, y: 0)
            var script = GestureScript(start: 0.5)
            script.drag(from: Point(x: 700, y: 240), to: Point(x: 300, y: 240), duration: 0.4, hold: 0.1, lift: false)
            scene.play(script.frames)
            return (trailer, scroll, scene)
        }
        let (plain, plainScroll, _) = pull(trigger: nil, maxDrag: nil)
        let over = plainScroll.contentOffset.x - 800
        #expect(plain.state == .pulling && over > 60)
        #expect(pull(trigger: over + 20, maxDrag: nil).0.state == .idle)
        let (capped, cappedScroll, _) = pull(trigger: nil, maxDrag: 40)
        #expect(cappedScroll.contentOffset.x - 800 <= 40.001)
        #expect(capped.state == .idle, "capped below the 60-point width: never armed")
        let (dwelling, _, scene) = pull(trigger: nil, maxDrag: nil, dwell: 1)
        var lift = GestureScript(start: scene.clock.now + 0.05)
        lift.drag(from: Point(x: 300, y: 240), to: Point(x: 300, y: 240), duration: 0.01)
        scene.dispatcher.cancelAll(at: scene.clock.now)
        dwelling.beginRefreshing()
        scene.wait(0.5)
        dwelling.endRefreshing()
        #expect(dwelling.state == .finished, "finishedDisplayDuration works on the trailer too")
        scene.wait(1.5)
        #expect(dwelling.state == .idle)
    }
}
