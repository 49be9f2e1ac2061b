import Foundation
import Testing
@testable import PanelRefresh

/// The header screens of MJRefresh's example app, driven by fingers.
@MainActor
@Suite("Header scenarios")
struct HeaderScenarioTests {
    @Test("default (example 1): begin before the first frame waits, then opens on the first frame")
    func defaultBeginRefreshing() {
        let stage = RefreshStage(firstFrame: false)
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.lastUpdatedFormatter = LastUpdatedFormatter()
        #expect(header.beginRefreshing())
        #expect(header.state == .willRefresh)
        #expect(header.isRefreshing)
        #expect(stage.events == ["header idle->willRefresh"])
        stage.scene.frame()
        #expect(header.state == .refreshing)
        stage.settle()
        #expect(stage.events == ["header idle->willRefresh", "header willRefresh->refreshing", "header refresh"])
        #expect(stage.list.contentOffset.y == -54)
        #expect(stage.list.adjustedContentInset.top == 54)
        #expect(header.stateLabel.text == "Updating…")
        #expect(header.loadingView.isAnimating)
        #expect(header.arrowView.isHidden)
        #expect(header.lastUpdatedTimeLabel.text == "Updated: never")

        stage.wait(1)
        let endedAt = stage.clock.date
        #expect(header.endRefreshing())
        stage.settle()
        #expect(header.state == .idle)
        #expect(stage.list.contentOffset.y == 0)
        #expect(stage.list.adjustedContentInset.top == 0)
        #expect(header.lastUpdatedTimeLabel.text == "Updated: today 12:00")
        #expect(header.lastUpdatedTime == endedAt)
        #expect(!header.loadingView.isAnimating)
        #expect(!header.arrowView.isHidden)
        #expect(header.pullingPercent == 0)
    }

    @Test("pull past the header's height, release: it opens, refreshes once, closes")
    func pullToRefresh() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        #expect(header.frame == Rect(x: 0, y: -54, width: 800, height: 54))
        #expect(stage.list.alwaysBounceVertical)
        // 288 px in 0.4 s at 120 Hz: 6 px steps, so the slop ends exactly at 18 px.
        stage.pullDown(288, lift: false)
        #expect(header.state == .pulling)
        #expect(header.stateLabel.text == "Let go to update")
        stage.wait(0.3)
        #expect(header.arrowView.rotation == .pi)
        // 270 px of finger past the slop, through the rubber band: 113 px.
        let overscroll = -stage.list.contentOffset.y
        #expect(abs(overscroll - RubberBand(dimension: 480).band(270)) < 1e-6)
        #expect(abs(header.pullingPercent - overscroll / 54) < 1e-9)

        var script = GestureScript(start: stage.clock.now)
        script.drag(from: Point(x: 400, y: 348), to: Point(x: 400, y: 348), duration: 0.01)
        stage.scene.play(Array(script.frames.suffix(1)))
        #expect(header.state == .refreshing)
        stage.settle()
        #expect(stage.list.contentOffset.y == -54)
        #expect(stage.events == ["header idle->pulling", "header pulling->refreshing", "header refresh"])
        header.endRefreshing()
        stage.settle()
        #expect(stage.list.contentOffset.y == 0)
        #expect(stage.events.last == "header refreshing->idle")
        #expect(header.arrowView.rotation == 0)
    }

    @Test("pulling back above the trigger before the release disarms it")
    func disarm() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        stage.drag(from: 60, to: 360, duration: 0.3, lift: false)
        #expect(header.state == .pulling)
        var back = GestureScript(start: stage.clock.now + 0.01)
        back.drag(from: Point(x: 400, y: 360), to: Point(x: 400, y: 100), duration: 0.3, hold: 0.1)
        // Continue the same contact: rewrite the ids to the first finger's.
        let frames = back.frames.dropFirst().map { frame in
            TouchFrame(timestamp: frame.timestamp, touches: frame.touches.map {
                Touch(id: 1, position: $0.position, phase: $0.phase, timestamp: $0.timestamp)
            })
        }
        stage.scene.play(frames)
        stage.settle()
        #expect(header.state == .idle)
        #expect(stage.events == ["header idle->pulling", "header pulling->idle"])
        #expect(stage.list.contentOffset.y == 0)
    }

    @Test("hidden time (example 3): the state label fills the header; alpha follows the pull")
    func hiddenTime() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.lastUpdatedTimeLabel.isHidden = true
        header.automaticallyChangeAlpha = true
        stage.scene.frame()
        // The texts keep room for the arrow or spinner and its gap on both sides: 25 + 20 points.
        #expect(header.stateLabel.frame == Rect(x: 45, y: 0, width: 710, height: 54))
        #expect(header.alpha == 0)
        stage.pullDown(60, lift: false)
        #expect(header.pullingPercent > 0 && header.pullingPercent < 1)
        #expect(header.alpha == header.pullingPercent)
        stage.pullDown(0)
        stage.settle()
        #expect(header.alpha == 0)
        header.beginRefreshing()
        stage.settle()
        #expect(header.alpha == 1)
        header.endRefreshing()
        stage.settle()
        #expect(header.alpha == 0)
        // Arrow and spinner sit left of the text: w/2 − (textWidth/2 + 25).
        let center = 400 - (header.stateLabel.textWidth / 2 + 25)
        #expect(abs(header.arrowView.frame.midX - center) < 1e-9)
    }

    @Test("both labels shown: state on the top half, time on the bottom half")
    func timeLayout() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        stage.scene.frame()
        #expect(header.stateLabel.frame == Rect(x: 45, y: 0, width: 710, height: 27))
        #expect(header.lastUpdatedTimeLabel.frame == Rect(x: 45, y: 27, width: 710, height: 27))
        #expect(header.stateLabel.font == .bold(14))
        #expect(header.stateLabel.textColor == Color(red: 90, green: 90, blue: 90))
        let widest = max(header.stateLabel.textWidth, header.lastUpdatedTimeLabel.textWidth)
        #expect(abs(header.loadingView.frame.midX - (400 - widest / 2 - 25)) < 1e-9)
        #expect(header.arrowView.frame.size == Size(width: 15, height: 40))
    }

    @Test("hidden state and time, gif (example 4): idle frames follow the pull, the others loop")
    func gif() {
        let stage = RefreshStage()
        let header = GifHeader(localizer: RefreshLocalizer())
        let idle = (1...60).map { ImageReference(name: "idle-\($0)", size: Size(width: 50, height: 50)) }
        let loading = (1...3).map { ImageReference(name: "loading-\($0)", size: Size(width: 50, height: 50)) }
        header.setImages(idle, for: .idle)
        header.setImages(loading, duration: 0.3, for: .pulling)
        header.setImages(loading, for: .refreshing)
        header.stateLabel.isHidden = true
        header.lastUpdatedTimeLabel.isHidden = true
        stage.attach(header: header)
        stage.scene.frame()
        #expect(header.labelLeftInset == 20)
        #expect(header.gifView.frame == Rect(x: 0, y: 0, width: 800, height: 54))
        #expect(header.gifView.contentMode == .center)
        header.pullingPercent = 0.5
        #expect(header.gifView.image == idle[30])
        header.pullingPercent = 1.7
        #expect(header.gifView.image == idle[59])
        stage.pullDown(300, lift: false)
        #expect(header.gifView.isAnimating)
        #expect(header.gifView.animationImages == loading)
        #expect(header.gifView.animationDuration == 0.3)
        let first = header.gifView.currentImage
        stage.wait(0.1)
        #expect(header.gifView.currentImage != first, "the frames play at 10 fps")
        #expect(abs((header.images(for: .refreshing)?.duration ?? 0) - 0.3) < 1e-12, "3 frames at the default 0.1 s")
    }

    @Test("a gif taller than the header makes it grow")
    func gifGrows() {
        let header = GifHeader(localizer: RefreshLocalizer())
        header.setImages([ImageReference(name: "big", size: Size(width: 100, height: 100))], for: .idle)
        #expect(header.height == 100)
    }

    @Test("custom titles (example 5) and fonts")
    func customTitles() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.setTitle("Pull it", for: .idle).setTitle("Let it go", for: .pulling).setTitle("Working", for: .refreshing)
        header.stateLabel.font = .system(15)
        header.stateLabel.textColor = Color(red: 255, green: 0, blue: 0)
        #expect(header.stateLabel.text == "Pull it")
        stage.pullDown(300, lift: false)
        #expect(header.stateLabel.text == "Let it go")
        stage.pullDown(0)
        #expect(header.stateLabel.text == "Working")
        stage.scene.frame()
        #expect(header.arrowView.tintColor == Color(red: 255, green: 0, blue: 0))
        // The app's font and colour survive every state change.
        #expect(header.stateLabel.font == .system(15))
        #expect(header.stateLabel.font != RefreshStyle.labelFont)
        #expect(header.stateLabel.textColor == Color(red: 255, green: 0, blue: 0))
        header.setTitle(nil, for: .idle)
        #expect(header.title(for: .idle) == "Pull down to update")
    }

    @Test("a custom last-updated text replaces the built-in one")
    func customTimeText() {
        let stage = RefreshStage()
        let header = stage.attach(header: StateHeader(localizer: RefreshLocalizer()))
        header.lastUpdatedTimeText = { date in date == nil ? "first time" : "again" }
        #expect(header.lastUpdatedTimeLabel.text == "first time")
        header.beginRefreshing()
        header.endRefreshing()
        #expect(header.lastUpdatedTimeLabel.text == "again")
    }
}

@MainActor
@Suite("Auto alpha before the first frame")
struct AutoAlphaBeforeFirstFrameTests {
    @Test("a header with auto alpha begun and ended before the first frame rests invisible, not at alpha 1 (its fade-in is cancelled)")
    func beginEndBeforeFirstFrame() {
        let stage = RefreshStage(firstFrame: false)
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        header.automaticallyChangeAlpha = true
        header.beginRefreshing()
        #expect(header.state == .willRefresh)
        header.endRefreshing()
        stage.scene.frame()
        stage.settle()
        #expect(header.state == .idle)
        #expect(header.alpha == 0, "alpha \(header.alpha) while the header is closed")
        // And a pull still fades it in with the pull.
        stage.pullDown(27, lift: false)
        #expect(header.alpha > 0 && header.alpha < 1)
    }
}
