import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

@MainActor
@Suite("A failing source is said over the rows once it outlasts data.stale-after, with since when")
struct StaleTests {
    /// A file-fed kiosk refreshing every 60 s exactly, its clock at 2026-01-15 12:00 UTC.
    func kiosk(staleAfter: Double) throws -> (kiosk: VirtualKiosk, path: String) {
        let feed = "[" + (1...5).map { #"{"id":\#($0),"title":"Row \#($0)"}"# }.joined(separator: ",") + "]"
        var (c, path) = try fileFed(feed)
        (c.refreshEvery, c.refreshJitter, c.staleAfter) = (60, 0, staleAfter)
        let kiosk = try VirtualKiosk(configuration: c)
        kiosk.clock.epoch = Date(timeIntervalSince1970: 1_768_478_400)
        return (kiosk, path)
    }

    @Test("the file goes at 12:00: nothing on the rows for 300 s, then \"offline since\" the first failure and the items' time, at that deadline; the next answer takes it away")
    func saidAfterStaleAfter() throws {
        let (kiosk, path) = try kiosk(staleAfter: 300)
        kiosk.start()
        kiosk.run(until: 1)
        let list = kiosk.list
        #expect(list.items.count == 5 && list.banner.isHidden)
        try FileManager.default.removeItem(atPath: path)
        kiosk.run(until: 200)
        let since = try #require(list.failingSince, "a timer's refresh failed")
        #expect(list.banner.isHidden && list.items.count == 5, "one failure among answers is the journal's")
        #expect(try #require(kiosk.stage.nextWakeUp) <= since + 300, "the moment it is said is a deadline")
        kiosk.run(until: since + 299.9)
        #expect(list.banner.isHidden)
        kiosk.run(until: since + 300.1)
        #expect(!list.banner.isHidden)
        let minute = Int((1_768_478_400 + since) / 60) % 60
        #expect(list.banner.label.text == "offline since 12:\(minute < 10 ? "0" : "")\(minute) · items from 12:00", "\(list.banner.label.text)")
        #expect(list.items.count == 5, "the list stays")
        try Data(#"[{"id":1,"title":"Back"}]"#.utf8).write(to: URL(fileURLWithPath: path))
        kiosk.run(until: since + 1200)
        #expect(list.items.map(\.title) == ["Back"])
        #expect(list.banner.isHidden && list.failingSince == nil && list.offlineSince == nil)
    }

    @Test("stale-after = 0 (the default): the first failed refresh over the rows says its reason at once")
    func saidAtOnce() throws {
        let (kiosk, path) = try kiosk(staleAfter: 0)
        kiosk.start()
        kiosk.run(until: 1)
        try FileManager.default.removeItem(atPath: path)
        kiosk.run(until: 200)
        let list = kiosk.list
        #expect(!list.banner.isHidden && list.banner.label.text.hasPrefix("Could not refresh:"), "\(list.banner.label.text)")
    }
}
