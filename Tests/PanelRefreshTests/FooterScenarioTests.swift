import Testing
@testable import PanelRefresh

/// The footer screens of MJRefresh's example app.
@MainActor
@Suite("Footer scenarios")
struct FooterScenarioTests {
    /// 30 rows of 60: content 1800, view 480; an auto footer adds 44 below: max offset 1364.
    func autoStage(_ footer: AutoFooter = AutoNormalFooter(localizer: RefreshLocalizer())) -> (RefreshStage, AutoFooter) {
        let stage = RefreshStage()
        stage.attach(footer: footer)
        stage.scene.frame()
        return (stage, footer)
    }

    /// Loads `rows` more rows and ends the footer's refresh.
    func loadMore(_ stage: RefreshStage, rows: Int) {
        stage.rows.count += rows
        stage.list.reloadData()
        stage.list.footer?.endRefreshing()
    }

    @Test("default (example 11): sits below the content in the inset, loads once at the end")
    func autoDefault() {
        let (stage, footer) = autoStage()
        #expect(footer.frame == Rect(x: 0, y: 1800, width: 800, height: 44))
        #expect(stage.list.adjustedContentInset.bottom == 44)
        #expect((footer as? AutoStateFooter)?.stateLabel.text == "Tap or pull up for more")
        stage.onRefresh["footer"] = { [unowned stage] in
            stage.scene.animator.schedule(nil, after: 0.5) { self.loadMore(stage, rows: 10) }
        }
        stage.list.contentOffset = Point(x: 0, y: 1100)
        stage.drag(from: 440, to: 40, duration: 0.2)
        #expect(footer.state == .refreshing)
        #expect((footer as? AutoNormalFooter)?.loadingView.isAnimating == true)
        #expect((footer as? AutoStateFooter)?.stateLabel.text == "Loading more…")
        stage.settle()
        #expect(stage.events == ["footer idle->refreshing", "footer refresh", "footer refreshing->idle"])
        #expect(stage.list.contentSize.height == 2400)
        #expect(footer.frame.minY == 2400)
    }

    @Test("hidden refreshing text (example 13)")
    func refreshingTitleHidden() {
        let footer = AutoNormalFooter(localizer: RefreshLocalizer())
        footer.refreshingTitleHidden = true
        let (stage, _) = autoStage(footer)
        footer.beginRefreshing()
        #expect(footer.stateLabel.text == "")
        stage.scene.frame()
        #expect(abs(footer.loadingView.frame.midX - 400) < 1e-9, "the spinner is centred without text")
        footer.endRefreshing()
        #expect(footer.stateLabel.text == "Tap or pull up for more")
    }

    @Test("all loaded (example 14): no more data until reset")
    func noMoreData() {
        let (stage, footer) = autoStage()
        footer.endRefreshingWithNoMoreData()
        #expect(footer.state == .noMoreData)
        #expect((footer as? AutoStateFooter)?.stateLabel.text == "That's everything")
        stage.list.contentOffset = Point(x: 0, y: 1100)
        stage.drag(from: 440, to: 40, duration: 0.2)
        stage.settle()
        #expect(!stage.events.contains("footer refresh"))
        #expect(footer.resetNoMoreData())
        stage.drag(from: 440, to: 300, duration: 0.2)
        #expect(stage.events.suffix(2) == ["footer idle->refreshing", "footer refresh"])
    }

    @Test("auto load disabled (example 15): a fling into the end does not load; a tap or a pull-up release does")
    func autoLoadDisabled() {
        let footer = AutoNormalFooter(localizer: RefreshLocalizer())
        footer.automaticallyRefresh = false
        let (stage, _) = autoStage(footer)
        stage.list.contentOffset = Point(x: 0, y: 500)
        // Released at 682, the fling carries the content to the end (1364).
        stage.drag(from: 440, to: 240, duration: 0.1)
        stage.settle()
        #expect(stage.list.contentOffset.y == 1364)
        #expect(footer.state == .idle)
        // The footer is at content y 1800, the view shows from 1364: screen y 436 + 22.
        var tap = GestureScript(start: stage.clock.now + 0.1)
        tap.tap(at: Point(x: 400, y: 458))
        stage.scene.play(tap.frames)
        #expect(footer.state == .refreshing)
        #expect(stage.events == ["footer idle->refreshing", "footer refresh"])
        footer.endRefreshing()
        // MJRefresh's "pull up to load more": released past the end, it loads.
        stage.pullUp(100)
        #expect(footer.state == .refreshing)
    }

    @Test("auto trigger times 2 (example 20): two loads in one drag when the content does not grow", arguments: [1, 2, -1])
    func autoTriggerTimes(times: Int) {
        let (stage, footer) = autoStage()
        footer.autoTriggerTimes = times
        // MJRefresh has no failed state: a failure goes back to idle, as there.
        footer.keepsFailedState = false
        // Each load fails at once: the content stays the same.
        stage.onRefresh["footer"] = { [unowned footer] in footer.endRefreshing(result: .failure("offline")) }
        stage.list.contentOffset = Point(x: 0, y: 1100)
        stage.drag(from: 440, to: 40, duration: 0.4, hold: 0.1)
        let loads = stage.events.filter { $0 == "footer refresh" }.count
        switch times {
        case 1: #expect(loads == 1)
        case 2: #expect(loads == 2)
        default: #expect(loads > 2, "unlimited fires on every tick past the end while moving down")
        }
        // A new drag re-arms.
        stage.drag(from: 300, to: 100, duration: 0.2)
        #expect(stage.events.filter { $0 == "footer refresh" }.count > loads)
    }

    @Test("hide after loading (example 17): a hidden footer gives back its inset and never loads")
    func hideAfterLoading() {
        let (stage, footer) = autoStage()
        stage.onRefresh["footer"] = { [unowned stage, unowned footer] in
            self.loadMore(stage, rows: 10)
            footer.isHidden = true
        }
        stage.list.contentOffset = Point(x: 0, y: 1100)
        stage.drag(from: 440, to: 40, duration: 0.2)
        stage.settle()
        #expect(footer.isHidden)
        #expect(stage.list.adjustedContentInset.bottom == 0)
        stage.list.contentOffset = Point(x: 0, y: 1700)
        stage.drag(from: 440, to: 40, duration: 0.2)
        stage.settle()
        #expect(stage.events.filter { $0 == "footer refresh" }.count == 1)
    }

    @Test("back footer (example 18): the user's bottom inset 30, ignored by the footer")
    func backFooterWithInset() {
        let stage = RefreshStage()
        stage.list.contentInset = EdgeInsets(bottom: 30)
        let footer = BackNormalFooter(localizer: RefreshLocalizer())
        footer.ignoredScrollViewContentInsetBottom = 30
        stage.attach(footer: footer)
        #expect(footer.frame == Rect(x: 0, y: 1830, width: 800, height: 44))
        #expect(footer.arrowView.rotation == .pi, "points up while idle")
        #expect(stage.list.adjustedContentInset.bottom == 30, "a back footer takes no inset until it refreshes")
        stage.list.contentOffset = Point(x: 0, y: 1350)
        stage.pullUp(300, lift: false)
        #expect(footer.state == .pulling)
        #expect(footer.stateLabel.text == "Let go to load more")
        stage.wait(0.3)
        #expect(footer.arrowView.rotation == 0)
        stage.pullUp(0)
        #expect(footer.state == .refreshing)
        stage.settle()
        #expect(stage.list.adjustedContentInset.bottom == 74)
        #expect(stage.list.contentOffset.y == 1394)
        #expect(footer.loadingView.isAnimating)
        footer.endRefreshing()
        stage.settle()
        #expect(stage.list.adjustedContentInset.bottom == 30)
        #expect(stage.list.contentOffset.y == 1350)
        #expect(stage.events == ["footer idle->pulling", "footer pulling->refreshing", "footer refresh", "footer refreshing->idle"])
    }

    @Test("back footer with short content sits below the view and opens there")
    func backFooterShortContent() {
        let stage = RefreshStage(rows: 3)
        let footer = BackStateFooter(localizer: RefreshLocalizer())
        stage.attach(footer: footer)
        #expect(footer.frame.minY == 480)
        stage.pullUp(300)
        stage.settle()
        #expect(footer.state == .refreshing)
        // 300 px of rows missing plus the footer's 44.
        #expect(stage.list.adjustedContentInset.bottom == 44 + 300)
        #expect(stage.list.contentOffset.y == 44)
    }

    @Test("back gif footer (example 19): alpha follows the pull; it ends in no more data")
    func backGifFooter() {
        let stage = RefreshStage()
        let footer = BackGifFooter(localizer: RefreshLocalizer())
        let idle = (1...10).map { ImageReference(name: "f\($0)", size: Size(width: 40, height: 40)) }
        footer.setImages(idle, for: .idle).setImages(Array(idle.prefix(3)), for: .refreshing)
        footer.automaticallyChangeAlpha = true
        stage.attach(footer: footer)
        #expect(footer.alpha == 0)
        stage.list.contentOffset = Point(x: 0, y: 1320)
        stage.pullUp(60, lift: false)
        #expect(footer.pullingPercent > 0 && footer.pullingPercent < 1)
        #expect(footer.alpha == footer.pullingPercent)
        #expect(footer.gifView.image == idle[Int(10 * footer.pullingPercent)])
        stage.pullUp(300)
        #expect(footer.state == .refreshing)
        stage.settle()
        #expect(footer.alpha == 1)
        #expect(footer.gifView.isAnimating)
        footer.endRefreshingWithNoMoreData()
        stage.settle()
        #expect(footer.state == .noMoreData)
        #expect(footer.alpha == 0)
        #expect(footer.gifView.isHidden)
        #expect(footer.stateLabel.text == "That's everything")
        stage.pullUp(300)
        stage.settle()
        #expect(footer.state == .noMoreData, "no more data never triggers")
    }

    @Test("auto gif footer: frames only while refreshing")
    func autoGifFooter() {
        let footer = AutoGifFooter(localizer: RefreshLocalizer())
        let frames = (1...4).map { ImageReference(name: "g\($0)", size: Size(width: 30, height: 30)) }
        footer.setImages(frames, for: .refreshing)
        let (stage, _) = autoStage(footer)
        #expect(footer.gifView.isHidden)
        footer.beginRefreshing()
        stage.scene.frame()
        #expect(!footer.gifView.isHidden)
        #expect(footer.gifView.isAnimating)
        footer.endRefreshingWithNoMoreData()
        #expect(footer.gifView.isHidden)
    }
}

@MainActor
@Suite("Trailer scenario")
struct TrailerScenarioTests {
    @Test("pull left past the end (example 42): it opens, refreshes, springs back")
    func trailer() {
        let scene = Scene(size: Size(width: 800, height: 480))
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 800, height: 480), animator: scene.animator)
        scroll.contentSize = Size(width: 1600, height: 480)
        scene.screen.rootView.addSubview(scroll)
        scene.dispatcher.scrollView = scroll
        let trailer = NormalTrailer(localizer: RefreshLocalizer())
        var events: [String] = []
        trailer.stateDidChangeHandler = { events.append("\($0.rawValue)->\($1.rawValue)") }
        trailer.refreshingAction = { events.append("refresh") }
        scroll.trailer = trailer
        scene.frame()
        #expect(scroll.alwaysBounceHorizontal)
        #expect(!scroll.alwaysBounceVertical)
        #expect(trailer.frame == Rect(x: 1600, y: 0, width: 60, height: 480))
        #expect(trailer.stateLabel.text == "Swipe for details")
        #expect(trailer.stateLabel.numberOfLines == 0)
        #expect(trailer.stateLabel.frame.width == 14)
        scroll.contentOffset = Point(x: 800, y: 0)
        var script = GestureScript(start: 0.5)
        script.drag(from: Point(x: 700, y: 240), to: Point(x: 300, y: 240), duration: 0.4, hold: 0.1, lift: false)
        scene.play(script.frames)
        #expect(trailer.state == .pulling)
        #expect(trailer.stateLabel.text == "Let go for details")
        scene.wait(0.3)
        #expect(trailer.arrowView.rotation == .pi)
        #expect(scroll.contentOffset.y == 0, "a horizontal pull does not move the content vertically")
        var lift = GestureScript(start: scene.clock.now)
        lift.drag(from: Point(x: 300, y: 240), to: Point(x: 300, y: 240), duration: 0.01)
        scene.play(Array(lift.frames.suffix(1)))
        scene.wait(1)
        #expect(events == ["idle->pulling", "pulling->refreshing", "refresh"])
        #expect(scroll.adjustedContentInset.right == 60)
        #expect(scroll.contentOffset.x == 860)
        trailer.endRefreshing()
        scene.wait(1)
        #expect(scroll.contentOffset.x == 800)
        #expect(scroll.adjustedContentInset.right == 0)
        #expect(trailer.arrowView.rotation == 0)
    }

    @Test("trailer texts exist in every language")
    func texts() {
        let localizer = RefreshLocalizer()
        let trailer = StateTrailer(localizer: localizer)
        #expect(trailer.stateLabel.text == "Swipe for details")
        var seen = Set<String>()
        for language in RefreshLanguage.allCases {
            localizer.language = language
            // The label follows a language change at once, and each language has its own text.
            #expect(trailer.stateLabel.text == RefreshLocalizer(language: language).text(.trailerIdle))
            #expect(seen.insert(trailer.stateLabel.text).inserted, "\(language) repeats another language's text")
        }
        localizer.language = .simplifiedChinese
        #expect(trailer.stateLabel.text == "左滑查看详情")
        #expect(trailer.title(for: .pulling) == "松手查看详情")
    }
}
