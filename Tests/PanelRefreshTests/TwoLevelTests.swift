import Foundation
import Testing
@testable import PanelRefresh

/// The second floor: a header pulled past a second threshold opens a full-screen page.
@MainActor
@Suite("Two-level refresh")
struct TwoLevelTests {
    func stage() -> (RefreshStage, NormalHeader, View) {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        let page = View()
        page.backgroundColor = Color(red: 20, green: 40, blue: 90)
        header.twoLevelView = page
        return (stage, header, page)
    }

    @Test("pulled past the second threshold it says \"Release to open\"; released, the floor opens over the screen")
    func opens() {
        let (stage, header, page) = stage()
        #expect(header.effectiveTwoLevelTrigger == 135, "2.5 times the 54-point trigger")
        #expect(page.frame == Rect(x: 0, y: -480, width: 800, height: 480), "a screen above the header")
        var opened: [Bool] = []
        header.twoLevelHandler = { opened.append($0) }
        stage.pullDown(420, lift: false)
        #expect(header.state == .releaseToTwoLevel)
        #expect(header.stateLabel.text == "Release to open")
        stage.pullDown(0)
        stage.settle()
        #expect(header.state == .twoLevel)
        #expect(stage.list.contentOffset.y == -534, "the content slid down a screen and the header")
        #expect(opened == [true])
        #expect(!stage.events.contains("header refresh"), "the second floor is not a refresh")
        #expect(stage.events.contains("header releaseToTwoLevel->twoLevel"))
    }

    @Test("back below the second threshold it is an ordinary pull again, and refreshes on release")
    func backToPulling() {
        let (stage, header, _) = stage()
        stage.pullDown(420, lift: false)
        #expect(header.state == .releaseToTwoLevel)
        stage.drag(from: 480, to: 200, duration: 0.3, hold: 0.1, lift: false)
        #expect(header.state == .pulling)
        stage.pullDown(0)
        stage.settle()
        #expect(header.state == .refreshing)
    }

    @Test("a push up closes the open floor; a short one leaves it open; closeTwoLevel() closes it too")
    func closes() {
        let (stage, header, _) = stage()
        stage.pullDown(420)
        stage.settle()
        #expect(header.state == .twoLevel)
        stage.drag(from: 300, to: 270, duration: 0.3, hold: 0.1)
        stage.settle()
        #expect(header.state == .twoLevel, "30 points is short of the 60-point close distance")
        #expect(stage.list.contentOffset.y == -534, "settled back open")
        stage.drag(from: 400, to: 200, duration: 0.3, hold: 0.1)
        stage.settle()
        #expect(header.state == .idle)
        #expect(stage.list.contentOffset.y == 0, "closed: the list is back")
        #expect(stage.list.adjustedContentInset.top == 0)
        #expect(header.openTwoLevel())
        stage.settle()
        #expect(stage.list.contentOffset.y == -534)
        #expect(!header.beginRefreshing(), "no refresh while the floor is open")
        #expect(header.closeTwoLevel())
        stage.settle()
        #expect(header.state == .idle && stage.list.contentOffset.y == 0)
        #expect(!header.closeTwoLevel(), "not open: nothing to close")
    }

    @Test("the open floor takes touches: a button in it is tapped, a list in it scrolls; its way back shows at its bottom edge")
    func touches() {
        let (stage, header, page) = stage()
        var tapped = 0
        let button = Button(title: "Open", frame: Rect(x: 300, y: 100, width: 200, height: 44))
        button.action = { tapped += 1 }
        page.addSubview(button)
        let inner = ScrollView(frame: Rect(x: 0, y: 200, width: 800, height: 200), animator: stage.scene.animator)
        inner.contentSize = Size(width: 800, height: 1000)
        page.addSubview(inner)
        #expect(header.twoLevelHint.isHidden, "no way back shows before it opens")
        #expect(header.openTwoLevel())
        stage.settle()
        #expect(!header.twoLevelHint.isHidden && header.twoLevelHint.text == "Push up to go back")
        let hint = header.twoLevelHint.convert(Rect(origin: .zero, size: header.twoLevelHint.frame.size), to: nil)
        #expect(hint.maxY <= 480 && hint.minY > 400, "at the bottom edge of the screen: \(hint)")
        // A tap on the button: it was falling through to the list under the 54-point header.
        var script = GestureScript(start: stage.scene.clock.now + 0.1)
        script.tap(at: Point(x: 400, y: 122))
        stage.scene.play(script.frames)
        stage.settle()
        #expect(tapped == 1)
        // A drag up inside the inner list scrolls it, not the floor.
        var drag = GestureScript(start: stage.scene.clock.now + 0.1)
        drag.drag(from: Point(x: 400, y: 380), to: Point(x: 400, y: 230), duration: 0.4, hold: 0.2)
        stage.scene.play(drag.frames)
        stage.settle()
        #expect(inner.contentOffset.y > 100, "\(inner.contentOffset.y)")
        #expect(header.state == .twoLevel && stage.list.contentOffset.y == -534)
        // Elsewhere, the push up closes it as before; the hint goes with it.
        stage.drag(from: 470, to: 250, duration: 0.3, hold: 0.1)
        stage.settle()
        #expect(header.state == .idle && header.twoLevelHint.isHidden)
    }

    @Test("the way back in every language")
    func hintLanguages() {
        for language in RefreshLanguage.allCases {
            let (stage, header, _) = stage()
            header.localizer = RefreshLocalizer(language: language)
            #expect(header.openTwoLevel())
            #expect(header.twoLevelHint.text == RefreshLocalizer(language: language).text(.twoLevelBackHint))
            withExtendedLifetime(stage) {}
        }
    }

    @Test("without a second floor a long pull is an ordinary refresh")
    func withoutFloor() {
        let stage = RefreshStage()
        let header = stage.attach(header: NormalHeader(localizer: RefreshLocalizer()))
        stage.pullDown(420)
        stage.settle()
        #expect(header.state == .refreshing)
        #expect(!header.openTwoLevel())
    }
}
