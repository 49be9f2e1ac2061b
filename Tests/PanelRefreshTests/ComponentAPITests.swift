import Testing
@testable import PanelRefresh

/// A do-it-yourself header, as MJRefresh's example 6: records every hook.
@MainActor
final class DIYHeader: RefreshHeader {
    var hooks: [String] = []
    let label = Label()

    override func prepare() {
        super.prepare()
        height = 50
        hooks.append("prepare")
        addSubview(label)
    }
    override func placeSubviews() {
        super.placeSubviews()
        hooks.append("placeSubviews")
        label.frame = Rect(origin: .zero, size: frame.size)
    }
    override func scrollViewContentOffsetDidChange(_ change: Change<Point>) {
        super.scrollViewContentOffsetDidChange(change)
        hooks.append("offset")
    }
    override func scrollViewContentSizeDidChange(_ change: Change<Size>) {
        super.scrollViewContentSizeDidChange(change)
        hooks.append("size")
    }
    override func scrollViewPanStateDidChange(_ change: Change<PanRecognizer.State>) {
        super.scrollViewPanStateDidChange(change)
        hooks.append("pan \(change.new.rawValue)")
    }
    override func stateDidChange(from old: RefreshState) {
        super.stateDidChange(from: old)
        label.text = "\(state.rawValue) \(Int(pullingPercent * 100))%"
    }
    override func pullingPercentDidChange() {
        super.pullingPercentDidChange()
        // The example's colour follows the pull.
        label.textColor = Color(red: UInt8(min(255, pullingPercent * 255)), green: 0, blue: 0)
    }
}

@MainActor
@Suite("Component API")
struct ComponentAPITests {
    @Test("a custom component gets every hook (example 6)")
    func hooks() {
        let stage = RefreshStage()
        let header = stage.attach(header: DIYHeader(localizer: RefreshLocalizer()))
        #expect(header.hooks == ["prepare"])
        stage.scene.frame()
        #expect(header.hooks.contains("placeSubviews"))
        #expect(header.frame.height == 50)
        stage.pullDown(300)
        stage.rows.count = 40
        stage.list.reloadData()
        #expect(header.hooks.contains("offset"))
        #expect(header.hooks.contains("pan began"))
        #expect(header.hooks.contains("pan ended"))
        #expect(header.hooks.last == "size")
        #expect(header.label.text == "refreshing 100%")
        #expect(header.label.textColor.red == 255)
    }

    @Test("hidden components ignore offsets and pans but follow the content size; disabled ones ignore all")
    func ignoring() {
        let stage = RefreshStage()
        let header = stage.attach(header: DIYHeader(localizer: RefreshLocalizer()))
        header.isHidden = true
        header.hooks.removeAll()
        stage.pullDown(100)
        stage.rows.count = 10
        stage.list.reloadData()
        var observed: [String] { header.hooks.filter { $0 != "placeSubviews" } }
        #expect(observed == ["size"])
        header.isUserInteractionEnabled = false
        stage.rows.count = 11
        stage.list.reloadData()
        #expect(observed == ["size"])
    }

    @Test("callbacks: refreshing, begin completion, end animation begin, end completion, each once")
    func callbacks() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        var log: [String] = []
        header.refreshingAction = { log.append("refreshing") }
        header.beginRefreshingCompletion = { log.append("begin completion") }
        header.endRefreshingAnimationBegin = { log.append("end animation begin") }
        header.endRefreshingCompletion = { log.append("end completion") }
        header.beginRefreshing { log.append("begin once") }
        stage.settle()
        header.endRefreshing { log.append("end once") }
        stage.settle()
        #expect(log == ["refreshing", "begin once", "begin completion", "end animation begin", "end once", "end completion"])
        header.beginRefreshing()
        stage.settle()
        header.endRefreshing()
        stage.settle()
        #expect(log.filter { $0.hasSuffix("once") }.count == 2, "the one-shot completions ran once")
    }

    @Test("disabled animations open and close at once")
    func animationDisabled() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()).setAnimationDisabled())
        #expect(header.fastAnimationDuration == 0 && header.slowAnimationDuration == 0)
        header.beginRefreshing()
        #expect(stage.list.contentOffset.y == -54)
        #expect(stage.events.last == "header refresh")
        header.endRefreshing()
        #expect(stage.list.contentOffset.y == 0)
    }

    @Test("the default durations are MJRefresh's 0.25 s and 0.4 s")
    func durations() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        #expect(header.fastAnimationDuration == 0.25 && header.slowAnimationDuration == 0.4)
        header.beginRefreshing()
        stage.wait(0.24)
        #expect(stage.list.contentOffset.y > -54)
        stage.wait(0.02)
        #expect(stage.list.contentOffset.y == -54)
        header.endRefreshing()
        stage.wait(0.39)
        #expect(stage.list.contentOffset.y < 0)
        stage.wait(0.02)
        #expect(stage.list.contentOffset.y == 0)
    }

    @Test("header / footer / trailer sit at index 0; a new one replaces the old and its inset")
    func attachment() {
        let stage = RefreshStage()
        let first = AutoNormalFooter(localizer: RefreshLocalizer())
        stage.list.footer = first
        #expect(stage.list.subviews.first === first)
        #expect(stage.list.adjustedContentInset.bottom == 44)
        let second = BackNormalFooter(localizer: RefreshLocalizer())
        stage.list.footer = second
        #expect(first.superview == nil)
        #expect(stage.list.footer === second)
        #expect(stage.list.adjustedContentInset.bottom == 0)
        stage.list.footer = nil
        #expect(stage.list.footer == nil)
        #expect(second.scrollView == nil)
    }
}
