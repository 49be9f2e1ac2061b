import Foundation
import Glibc
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

/// What the seams between the host and the list used to lose, each in virtual time over the
/// configured file source: `ctl refresh` jumped to the top of the list, a reload of only
/// `[refresh]` built the list again (its place lost), and a reload that changed nothing
/// replaced STATUS's failure with "reloaded the configuration".
@MainActor
@Suite("The reader's place and the operator's status across requests and reloads")
struct SeamPlaceTests {
    /// A kiosk over `dir`/items.json (100 items), reading `dir`/config, started and settled.
    static func kiosk(_ dir: String, _ extra: String = "", notifier: any ServiceNotifier = SilentNotifier(),
                      items: Int = 100) throws -> (Kiosk, VirtualTimeDriver) {
        try write(items: items, to: dir + "/items.json")
        let text = "[data]\nsource = file\nfile = \(dir)/items.json\npage-size = 200\n[state]\ndirectory = \(dir)\n" + extra
        try text.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        let kiosk = try Kiosk.virtual(configuration: try KioskConfiguration.load(path: dir + "/config"),
                                      display: HeadlessDisplay(width: 320, height: 480), notifier: notifier)
        kiosk.configurationPath = dir + "/config"
        let time = VirtualTimeDriver(kiosk.host)
        kiosk.start(at: 0)
        time.advance(by: 3)
        #expect(kiosk.list.items.count == items)
        return (kiosk, time)
    }

    static func write(items count: Int, first: Int = 1, to path: String) throws {
        let items = (first..<first + count).map { #"{"id":"id-\#($0)","title":"Item \#($0)"}"# }
        try ("[" + items.joined(separator: ",") + "]").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Where row `row`'s item sits on the glass, points from the list's top.
    static func place(_ list: KioskList, of id: String) -> Double? {
        guard let row = list.items.firstIndex(where: { $0.id == id }) else { return nil }
        return list.list.rectForRow(row).minY - list.list.contentOffset.y
    }

    @Test("ctl refresh refreshes as the timer does: the reader's place kept (it jumped to the top of the list)")
    func controlRefreshKeepsThePlace() throws {
        let dir = try scratchDirectory("ctl-refresh-place")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (kiosk, time) = try Self.kiosk(dir)
        let list = kiosk.list
        list.list.contentOffset = Point(x: 0, y: 40 * 72 - 30)
        #expect(time.settle())
        let before = try #require(Self.place(list, of: "id-41"))
        // Three new items on top, then the operator's refresh.
        try Self.write(items: 103, first: -2, to: dir + "/items.json")
        var answers: [ControlReply] = []
        kiosk.request(.refresh) { answers.append($0) }
        #expect(answers == [.ok(Array("refreshing\n".utf8))])
        #expect(time.settle())
        #expect(list.items.count == 103 && list.items.first?.id == "id--2", "the refresh brought the new items")
        #expect(Self.place(list, of: "id-41") == before, "row 41's item stays where it was on the glass")
        #expect(list.list.contentOffset.y > 0, "not at the top")
    }

    @Test("a reload that changes only [refresh] keys takes them in place: the same list, its place, the new timing")
    func refreshOnlyReloadKeepsTheList() throws {
        let dir = try scratchDirectory("reload-refresh-only")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (kiosk, time) = try Self.kiosk(dir, "[refresh]\nevery = 600\n")
        let list = kiosk.list
        list.list.contentOffset = Point(x: 0, y: 30 * 72)
        time.advance(by: 0.5)
        let offset = list.list.contentOffset.y
        let text = try fileText(dir + "/config")
        try text.replacingOccurrences(of: "every = 600", with: "every = 900\ntrigger-distance = 80\nquiet-after-touch = 5")
            .write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        #expect(kiosk.host.signal(SIGHUP, at: kiosk.host.now + 0.1) == .handled)
        time.advance(by: 0.5)
        #expect(kiosk.list === list && kiosk.host.stage.content === list, "the list was not built again")
        #expect(list.list.contentOffset.y == offset, "its place kept")
        #expect(list.schedule?.settings.every == 900 && list.header.triggerDistance == 80 && list.quietAfterTouch == 5)
        #expect(kiosk.configuration.refreshEvery == 900)
    }

    @Test("a reload that changes nothing leaves STATUS saying the last refresh failed (it said \"reloaded the configuration\")")
    func unchangedReloadKeepsTheFailure() throws {
        let dir = try scratchDirectory("reload-keeps-failure")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let notifier = RecordingNotifier()
        let (kiosk, time) = try Self.kiosk(dir, notifier: notifier)
        // The file gone: the next refresh fails, the list stays.
        try FileManager.default.removeItem(atPath: dir + "/items.json")
        kiosk.list.header.beginRefreshing()
        #expect(time.settle())
        let failure = try #require(notifier.messages.last { $0.hasPrefix("STATUS=") })
        #expect(failure.hasPrefix("STATUS=last refresh failed: ") && failure.contains("items.json"), "\(failure)")

        let failed = kiosk.list.counters.failed
        let before = notifier.messages.count
        #expect(kiosk.host.signal(SIGHUP, at: kiosk.host.now + 0.1) == .handled)
        #expect(time.settle())
        let status = notifier.messages.filter { $0.hasPrefix("STATUS=") }
        #expect(status.last == failure, "STATUS still says what the operator must know: \(status.suffix(3))")
        let after = Array(notifier.messages[before...])
        let reloading = after.firstIndex { $0.hasPrefix("RELOADING=1") }, ready = after.firstIndex { $0 == "READY=1" }
        #expect(reloading != nil && ready != nil && reloading! < ready!, "the reload is told as systemd's reload protocol says: \(after)")
        // SIGHUP refreshed the list too (the file is still gone: it failed again).
        #expect(kiosk.list.counters.failed == failed + 1)
    }

    @Test("SIGHUP refreshes the list, as configuration.md says: a reload that changes nothing shows the file's new items, the place kept")
    func reloadRefreshes() throws {
        let dir = try scratchDirectory("reload-refreshes")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (kiosk, time) = try Self.kiosk(dir)
        let list = kiosk.list
        try Self.write(items: 103, to: dir + "/items.json")
        #expect(kiosk.host.signal(SIGHUP, at: kiosk.host.now + 0.1) == .handled)
        #expect(time.settle())
        #expect(kiosk.list === list, "the list was not built again")
        #expect(kiosk.list.items.count == 103, "the reload refreshed the list: \(kiosk.list.items.count) items")
    }
}
