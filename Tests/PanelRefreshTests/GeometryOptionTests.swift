import Testing
@testable import PanelRefresh

/// Options that move components or change when they trigger.
@MainActor
@Suite("Geometry options")
struct GeometryOptionTests {
    @Test("ignoredScrollViewContentInsetTop moves the header up, above the app's own top inset")
    func ignoredTop() {
        let stage = RefreshStage()
        stage.list.contentInset = EdgeInsets(top: 40)
        stage.list.contentOffset = Point(x: 0, y: -40)
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.ignoredScrollViewContentInsetTop = 40
        #expect(header.frame.minY == -54 - 40)
        header.beginRefreshing()
        stage.settle()
        #expect(stage.list.contentOffset.y == -94)
        #expect(stage.list.adjustedContentInset.top == 94)
    }

    @Test("a preload percent of 0.5 loads when half the footer shows; 1 waits for all of it")
    func preload() {
        for percent in [0.5, 1.0] {
            let stage = RefreshStage()
            let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
            footer.triggerAutomaticallyRefreshPercent = percent
            // Max offset 1364; the footer starts to show at 1320. Drag slowly to 1345
            // (63 px in 1 px steps at 120 Hz, less the 18 px slop).
            stage.list.contentOffset = Point(x: 0, y: 1300)
            stage.drag(from: 300, to: 237, duration: 0.525, lift: false)
            // The finger rests; the frames after its last event bring the content under it.
            stage.scene.wait(0.05)
            #expect(abs(stage.list.contentOffset.y - 1345) < 1e-9)
            #expect((footer.state == .refreshing) == (percent == 0.5))
        }
    }

    @Test("short content: a pull-up release loads, unless loadsWhenContentNotFull is off")
    func shortContent() {
        for allowed in [true, false] {
            let stage = RefreshStage(rows: 4)
            let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
            footer.loadsWhenContentNotFull = allowed
            stage.pullUp(100)
            #expect((footer.state == .refreshing) == allowed)
        }
    }

    @Test("the back footer follows the content size")
    func backFooterFollows() {
        let stage = RefreshStage()
        let footer = stage.attach(footer: BackNormalFooter(localizer: RefreshLocalizer()))
        #expect(footer.frame.minY == 1800)
        stage.rows.count = 50
        stage.list.reloadData()
        #expect(footer.frame.minY == 3000)
        stage.rows.count = 2
        stage.list.reloadData()
        #expect(footer.frame.minY == 480, "pinned below the view when the content is short")
    }

    @Test("after a load, the new rows stay where they are (no bounce back over them)")
    func newRowsStay() {
        let stage = RefreshStage()
        let footer = stage.attach(footer: BackNormalFooter(localizer: RefreshLocalizer()))
        stage.list.contentOffset = Point(x: 0, y: 1320)
        stage.pullUp(300)
        stage.settle()
        #expect(footer.state == .refreshing)
        #expect(stage.list.contentOffset.y == 1364)
        stage.rows.count += 10
        stage.list.reloadData()
        footer.endRefreshing()
        stage.settle()
        #expect(stage.list.contentOffset.y == 1364, "the new rows show below; nothing jumps")
        #expect(footer.frame.minY == 2400)
    }

    @Test("the gif header of example 2: 60 idle frames scrubbed, 3 loading frames for pulling and refreshing")
    func chiBaoZi() {
        let stage = RefreshStage()
        let header = GifHeader(localizer: RefreshLocalizer())
        // dropdown_anim__0001…0060 are 100×100 px @2x: 50×50 pt.
        let idle = (1...60).map { ImageReference(name: "dropdown_anim__\($0)", size: Size(width: 50, height: 50)) }
        let loading = (1...3).map { ImageReference(name: "dropdown_loading_0\($0)", size: Size(width: 50, height: 50)) }
        header.setImages(idle, for: .idle).setImages(loading, for: .pulling).setImages(loading, for: .refreshing)
        stage.attach(header: header)
        stage.scene.frame()
        #expect(header.height == 54, "50 pt frames fit the 54 pt header")
        #expect(header.gifView.contentMode == .right)
        let textWidth = max(header.stateLabel.textWidth, header.lastUpdatedTimeLabel.textWidth)
        #expect(header.gifView.frame.width == 400 - textWidth / 2 - 20)
        stage.pullDown(60, lift: false)
        let percent = header.pullingPercent
        #expect(header.gifView.image == idle[Int(60 * percent)])
        #expect(!header.gifView.isAnimating)
        stage.pullDown(300)
        #expect(header.state == .refreshing)
        #expect(header.gifView.isAnimating)
        #expect(header.gifView.animationImages == loading)
    }
}

@MainActor
@Suite("Resizing")
struct ResizingTests {
    @Test("components follow the scroll view when it is resized (a rotated panel)")
    func rotate() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        let footer = stage.attach(footer: AutoNormalFooter(localizer: RefreshLocalizer()))
        stage.list.frame = Rect(x: 0, y: 0, width: 480, height: 800)
        stage.scene.frame()
        #expect(header.frame.width == 480)
        #expect(footer.frame.width == 480)
        #expect(header.stateLabel.frame.width == 480 - 2 * 45)
        #expect(stage.list.contentSize.width == 480)
        #expect(!stage.list.canScrollHorizontally)
        #expect(stage.list.visibleCells.values.allSatisfy { $0.frame.width == 480 })
        #expect(abs(header.arrowView.frame.midX - (240 - max(header.stateLabel.textWidth, header.lastUpdatedTimeLabel.textWidth) / 2 - 25)) < 1e-9)
    }
}
