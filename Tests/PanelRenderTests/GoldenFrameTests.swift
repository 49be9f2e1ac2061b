import Foundation
import Testing
import PanelTestSupport
@testable import PanelRender
import PanelKiosk
import PanelRefresh

/// The default look, state by state, against Golden/*.png.
@MainActor
@Suite("Golden frames")
struct GoldenFrameTests {
    @Test("header: at rest, half pulled, armed, refreshing (two spinner frames)")
    func header() throws {
        let stage = try GoldenStage()
        let header = stage.header(NormalHeader(localizer: stage.localizer))
        try stage.snapshot("list-top")
        stage.list.contentOffset = Point(x: 0, y: -27)
        #expect(header.pullingPercent == 0.5)
        try stage.snapshot("header-50")
        stage.list.contentOffset = .zero
        stage.pullDown(260)
        #expect(header.state == .pulling)
        stage.scene.wait(0.3)
        try stage.snapshot("header-pulling")
        header.setAnimationDisabled()
        stage.scene.dispatcher.cancelAll(at: stage.scene.clock.now)
        header.beginRefreshing()
        stage.scene.wait(1)
        try stage.snapshot("header-refreshing-a")
        stage.scene.wait(0.25)
        try stage.snapshot("header-refreshing-b")
    }

    @Test("header without the last-updated line, and after a refresh")
    func withoutTime() throws {
        let stage = try GoldenStage()
        let header = stage.header(NormalHeader(localizer: stage.localizer))
        header.setAnimationDisabled()
        header.beginRefreshing()
        // An end before the minimum refreshing time would wait for it.
        stage.scene.wait(RefreshComponent.defaultMinimumRefreshingDuration)
        header.endRefreshing()
        stage.list.contentOffset = Point(x: 0, y: -54)
        try stage.snapshot("header-updated-today")
        header.lastUpdatedTimeLabel.isHidden = true
        try stage.snapshot("header-no-time")
    }

    @Test("header texts in Chinese, Korean, Russian, German and Japanese")
    func languages() throws {
        for (language, name) in [(RefreshLanguage.simplifiedChinese, "zh-hans"), (.korean, "ko"), (.russian, "ru"),
                                 (.german, "de"), (.japanese, "ja")] {
            let stage = try GoldenStage()
            stage.localizer.language = language
            _ = stage.header(NormalHeader(localizer: stage.localizer))
            stage.list.contentOffset = Point(x: 0, y: -54)
            try stage.snapshot("header-\(name)")
        }
    }

    @Test("two-level header: \"Release to open\" with the floor showing above it, then the floor open")
    func twoLevel() throws {
        let stage = try GoldenStage(size: Size(width: 400, height: 480))
        let header = stage.header(NormalHeader(localizer: stage.localizer))
        let page = View()
        page.backgroundColor = Color(red: 24, green: 48, blue: 96)
        let title = Label()
        title.text = "Second floor"
        title.textColor = .white
        title.font = .bold(24)
        title.alignment = .center
        title.frame = Rect(x: 0, y: 200, width: 400, height: 40)
        page.addSubview(title)
        header.twoLevelView = page
        header.setAnimationDisabled()
        stage.pullDown(420)
        #expect(header.state == .releaseToTwoLevel)
        stage.scene.wait(0.3)
        try stage.snapshot("two-level-release")
        stage.scene.dispatcher.cancelAll(at: stage.scene.clock.now)
        #expect(header.openTwoLevel())
        stage.scene.wait(1)
        #expect(stage.list.contentOffset.y == -534)
        try stage.snapshot("two-level-open")
    }

    @Test("header behind the rows and in front of them, pulled past the trigger", arguments: [RefreshHeader.Position.behind, .front])
    func positions(position: RefreshHeader.Position) throws {
        let stage = try GoldenStage()
        let header = stage.header(NormalHeader(localizer: stage.localizer))
        header.position = position
        header.lastUpdatedTimeLabel.isHidden = true
        stage.pullDown(160)
        #expect(header.state == .pulling)
        try stage.snapshot("header-\(position.rawValue)-pulling")
    }

    @Test("a horizontal list: items as columns, the trailer pulled past the last one")
    func horizontal() throws {
        let stage = try GoldenStage(rows: 6)
        stage.list.rowHeight = .fixed(140)
        stage.list.orientation = .horizontal
        let trailer = NormalTrailer(localizer: stage.localizer)
        stage.list.trailer = trailer
        stage.list.contentOffset = stage.list.maximumContentOffset
        stage.scene.frame()
        var s = GestureScript(start: stage.scene.clock.now + 0.1)
        s.drag(from: Point(x: 380, y: 120), to: Point(x: 100, y: 120), duration: 0.3, hold: 0.3, lift: false)
        stage.scene.play(s.frames)
        #expect(trailer.state == .pulling)
        #expect(stage.list.visibleRows == 3..<6)
        try stage.snapshot("horizontal-trailer-pulling")
    }

    @Test("gif header: idle frames scrubbed by the pull")
    func gif() throws {
        let stage = try GoldenStage()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("panel-refresh-gif-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let frames = try gifFrames(count: 5, directory: dir)
        let header = GifHeader(localizer: stage.localizer)
        header.setImages(frames, for: .idle)
        _ = stage.header(header)
        stage.list.contentOffset = Point(x: 0, y: -40)
        try stage.snapshot("gif-header")
    }

    @Test("auto footer: idle, loading, no more data; back footer armed")
    func footers() throws {
        let stage = try GoldenStage()
        let footer = AutoNormalFooter(localizer: stage.localizer)
        stage.list.footer = footer
        stage.list.contentOffset = stage.list.maximumContentOffset
        try stage.snapshot("footer-auto-idle")
        footer.beginRefreshing()
        try stage.snapshot("footer-auto-refreshing")
        stage.scene.wait(RefreshComponent.defaultMinimumRefreshingDuration)
        footer.endRefreshingWithNoMoreData()
        try stage.snapshot("footer-auto-no-more-data")

        let back = try GoldenStage()
        let backFooter = BackNormalFooter(localizer: back.localizer)
        back.list.footer = backFooter
        back.list.contentOffset = back.list.maximumContentOffset
        var s = GestureScript(start: back.scene.clock.now + 0.1)
        s.drag(from: Point(x: 200, y: 220), to: Point(x: 200, y: 20), duration: 0.3, hold: 0.3, lift: false)
        back.scene.play(s.frames)
        back.scene.wait(0.3)
        #expect(backFooter.state == .pulling)
        try back.snapshot("footer-back-pulling")
        backFooter.setAnimationDisabled()
        back.scene.dispatcher.cancelAll(at: back.scene.clock.now)
        backFooter.beginRefreshing()
        back.scene.wait(0.5)
        try back.snapshot("footer-back-refreshing")
        backFooter.endRefreshingWithNoMoreData()
        back.list.contentOffset = back.list.maximumContentOffset + Point(x: 0, y: 30)
        try back.snapshot("footer-back-no-more-data")
    }

    @Test("header showing a failed refresh for its dwell time")
    func finished() throws {
        let stage = try GoldenStage()
        let header = stage.header(NormalHeader(localizer: stage.localizer))
        header.setAnimationDisabled()
        header.finishedDisplayDuration = 1
        header.beginRefreshing()
        stage.scene.wait(RefreshComponent.defaultMinimumRefreshingDuration)
        header.endRefreshing(result: .failure("timeout"))
        #expect(header.state == .finished)
        try stage.snapshot("header-finished-failure")
    }

    @Test("trailer, armed")
    func trailer() throws {
        let stage = try GoldenStage(rows: 0)
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 240), animator: stage.scene.animator)
        scroll.contentSize = Size(width: 800, height: 240)
        for i in 0..<4 {
            let card = View(frame: Rect(x: Double(i) * 200 + 10, y: 10, width: 180, height: 220))
            card.backgroundColor = Color(red: UInt8(200 - i * 30), green: 220, blue: UInt8(120 + i * 30))
            card.cornerRadius = 12
            scroll.addSubview(card)
        }
        stage.list.removeFromSuperview()
        stage.scene.screen.rootView.addSubview(scroll)
        stage.scene.dispatcher.scrollView = scroll
        let trailer = NormalTrailer(localizer: stage.localizer)
        scroll.trailer = trailer
        scroll.contentOffset = Point(x: 400, y: 0)
        var s = GestureScript(start: stage.scene.clock.now + 0.1)
        s.drag(from: Point(x: 380, y: 120), to: Point(x: 80, y: 120), duration: 0.3, hold: 0.3, lift: false)
        stage.scene.play(s.frames)
        stage.scene.wait(0.3)
        #expect(trailer.state == .pulling)
        try stage.snapshot("trailer-pulling")
    }

    @Test("the kiosk sizes: 800x480 refreshing, 1280x720 loading more")
    func kiosk() throws {
        let small = try GoldenStage(rows: 50, size: Size(width: 800, height: 480))
        let header = small.header(NormalHeader(localizer: small.localizer))
        header.setAnimationDisabled()
        header.beginRefreshing()
        small.scene.wait(0.5)
        try small.snapshot("kiosk-800x480-refreshing")

        let large = try GoldenStage(rows: 50, size: Size(width: 1280, height: 720))
        _ = large.header(NormalHeader(localizer: large.localizer))
        let footer = AutoNormalFooter(localizer: large.localizer)
        large.list.footer = footer
        large.list.contentOffset = large.list.maximumContentOffset
        footer.beginRefreshing()
        large.scene.wait(0.5)
        try large.snapshot("kiosk-1280x720-loading")
    }

    @Test("the demo's key moments: the first load, a train's page, the failed refresh, armed, refreshing, loading the next page, no more data, the new rows' chip, a minute on, dimmed")
    func demo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("panel-demo-golden-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try DemoCommand.run(width: 320, height: 200, directory: dir)
        #expect(Set(result.moments.keys) == ["first-load", "detail", "failed", "pulling", "refreshing", "loading", "no-more-data",
                                             "new-rows", "ticked", "dimmed"])
        for (moment, path) in result.moments.sorted(by: { $0.key < $1.key }) {
            if let problem = try Golden.check(try PNG.read(path: path), "demo-\(moment)") { Issue.record("\(problem)") }
        }
    }

    @Test("the demo's board at 800x480 while it refreshes: the README's first picture")
    func demoBoard() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("panel-demo-board-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try DemoCommand.run(width: 800, height: 480, directory: dir)
        let path = try #require(result.moments["refreshing"])
        if let problem = try Golden.check(try PNG.read(path: path), "demo-board") { Issue.record("\(problem)") }
    }

    @Test("a list mid-scroll")
    func midScroll() throws {
        let stage = try GoldenStage(rows: 1000)
        stage.list.contentOffset = Point(x: 0, y: 33_333)
        try stage.snapshot("list-mid-scroll")
    }
}
