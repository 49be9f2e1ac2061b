import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

/// A source that has not answered (the network is down after the power cut), until told.
@MainActor
final class WaitingSource: ItemSource {
    var waiting: [(Result<ItemPage, Error>) -> Void] = []
    func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void) { waiting.append(completion) }
}

@MainActor
@Suite("A list that is there at boot: the last good list kept in the state directory and shown before its source answers")
struct KeptListTests {
    func configuration(state: String, feed: String) throws -> KioskConfiguration {
        var c = KioskConfiguration()
        c.stateDirectory = state
        c.locale = "en"
        let path = state + "/feed.json"
        try Data(feed.utf8).write(to: URL(fileURLWithPath: path))
        c.source = .file
        c.file = path
        c.rowFields.title = "destination"
        return c
    }

    @Test("a panel restarted with no network shows the last good list at its first frame with its age, not Loading; the refresh that answers takes the banner away")
    func restart() throws {
        let state = try scratchDirectory("state")
        let feed = #"{"departures": [{"id": 1, "destination": "Airport"}, {"id": 2, "destination": "Harbour"}]}"#
        let c = try configuration(state: state, feed: feed)
        let first = try VirtualKiosk(configuration: c)
        first.clock.epoch = Date(timeIntervalSince1970: 1_768_478_400)
        first.start()
        first.run(until: 3)
        #expect(first.list.items.map(\.title) == ["Airport", "Harbour"])
        let kept = try fileText(KioskList.keptListPath(in: state))
        #expect(kept.hasPrefix("{\"savedAt\":1768478400}\n") && kept.contains(#""destination":"Harbour""#), "written as the source sent it")
        first.host.stop()

        // Two hours later, the power back and the network not yet.
        let source = WaitingSource()
        let display = HeadlessDisplay(width: 400, height: 240)
        let second = try VirtualKiosk(configuration: c, display: display) { _ in source }
        second.clock.epoch = Date(timeIntervalSince1970: 1_768_478_400 + 7_200)
        second.start()
        second.run(until: 0.1)
        #expect(display.framesPresented >= 1)
        #expect(second.list.items.map(\.title) == ["Airport", "Harbour"], "at the first frame")
        #expect(second.list.status == nil, "no Loading view")
        #expect(!second.list.header.isRefreshing, "refreshed without the header over it")
        #expect(!second.list.banner.isHidden && second.list.banner.label.text == "items from 12:00", "its age (UTC here)")
        #expect(source.waiting.count == 1, "and its source asked at once")
        // The source answers: the banner goes, the new list is kept.
        source.waiting[0](.success(ItemPage(items: [Item(id: "3", title: "Stadium", subtitle: "")])))
        second.run(until: 1)
        #expect(second.list.items.map(\.title) == ["Stadium"])
        #expect(second.list.banner.isHidden)
    }

    @Test("a kept list the rows' fields cannot read, or a broken file, is said and left: the list waits for its source; state.keep-list = false keeps none")
    func unreadable() throws {
        let state = try scratchDirectory("state")
        try Data("not json\n".utf8).write(to: URL(fileURLWithPath: KioskList.keptListPath(in: state)))
        let c = try configuration(state: state, feed: "[]")
        let source = WaitingSource()
        let kiosk = try VirtualKiosk(configuration: c) { _ in source }
        kiosk.start()
        kiosk.run(until: 0.5)
        #expect(kiosk.list.items.isEmpty && kiosk.list.status == .loading)
        var off = try configuration(state: try scratchDirectory("state"), feed: #"[{"destination": "Airport"}]"#)
        try off.set("state.keep-list", "false")
        let other = try VirtualKiosk(configuration: off)
        other.start()
        other.run(until: 3)
        #expect(other.list.items.count == 1)
        #expect(!FileManager.default.fileExists(atPath: KioskList.keptListPath(in: off.stateDirectory)))
    }
}
