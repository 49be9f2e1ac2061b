import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost

/// What the stage gives an app's own views as it gives the kiosk's list: blanking with its wake
/// touch, and the state directory its headers keep their last-updated time in.
@MainActor
@Suite("An app's views on the stage")
struct AppStageTests {
    /// A shelf app on a 320x480 card in memory, blanking after `blankAfter` seconds, its state
    /// in `state`.
    static func host(state: String, blankAfter: Double = 0, notifier: RecordingNotifier = RecordingNotifier())
        throws -> (KioskHost, Shelf, HeadlessDisplay, VirtualTimeDriver) {
        var configuration = Configuration()
        configuration.stateDirectory = state
        configuration.blankAfter = blankAfter
        let display = HeadlessDisplay(width: 320, height: 480)
        let host = try KioskHost.virtual(configuration: configuration, display: display, notifier: notifier)
        let shelf = try host.show { scene in Shelf(scene: scene) }
        return (host, shelf, display, VirtualTimeDriver(host))
    }

    @Test("idle for blank-after seconds an app's panel goes blank and STATUS says so; the first touch wakes it and reaches none of its views; the next one pulls")
    func blanking() throws {
        let state = try scratchDirectory("app-blank")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let notifier = RecordingNotifier()
        let (host, shelf, display, time) = try Self.host(state: state, blankAfter: 10, notifier: notifier)
        host.start(at: 0)
        time.advance(to: 5)
        #expect(!display.isBlank)
        #expect(notifier.messages.prefix(2) == ["READY=1", "STATUS=showing the panel"], "an app's panel, not the kiosk's list")
        time.advance(to: 15)
        #expect(display.isBlank)
        #expect(notifier.messages.last == "STATUS=panel blank (touch to wake); the panel")
        let frames = display.framesPresented
        // A long pull from the top: were it a pan, it would pass the header's trigger.
        var wake = GestureScript(start: host.now + 0.1)
        wake.drag(from: Point(x: 160, y: 10), to: Point(x: 160, y: 300), duration: 0.4, hold: 0.2)
        time.play(wake.frames)
        time.advance(by: 1)
        #expect(!display.isBlank)
        #expect(display.framesPresented == frames + 1, "one whole frame on waking, nothing more")
        #expect(shelf.refreshes == 0 && shelf.header.state == .idle && shelf.list.contentOffset.y == 0)
        var pull = GestureScript(start: host.now + 0.1)
        pull.drag(from: Point(x: 160, y: 10), to: Point(x: 160, y: 300), duration: 0.4, hold: 0.2)
        time.play(pull.frames)
        #expect(time.settle())
        #expect(shelf.refreshes == 1 && shelf.items.first == "Fresh 1", "the next touch is the app's")
    }

    @Test("an app's header keeps its last-updated time in the state directory: a new host on it shows the time of the last refresh")
    func lastUpdatedKept() throws {
        let state = try scratchDirectory("app-updated")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let (host, shelf, _, time) = try Self.host(state: state)
        host.start(at: 0)
        #expect(time.settle())
        #expect(shelf.header.lastUpdatedTime == nil)
        shelf.header.beginRefreshing()
        #expect(time.settle())
        let updated = try #require(shelf.header.lastUpdatedTime)
        #expect(try fileText(state + "/last-updated.json").contains(shelf.header.lastUpdatedTimeKey))
        host.stop()

        let (again, shelfAgain, _, _) = try Self.host(state: state)
        again.start(at: 0)
        #expect(shelfAgain.header.lastUpdatedTime == updated, "the time survives the restart")
        again.stop()
    }
}
