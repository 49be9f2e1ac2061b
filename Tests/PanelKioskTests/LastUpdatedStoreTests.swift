import Foundation
import Testing
@testable import PanelHost
@testable import PanelKiosk
import PanelDisplay
import PanelRefresh
import PanelRender

@MainActor
@Suite("Last-updated file")
struct LastUpdatedStoreTests {
    func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("panel-refresh-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("the file store keeps dates across instances and leaves no temporary files")
    func fileStore() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/last-updated.json"
        let store = FileLastUpdatedStore(path: path)
        #expect(store.date(forKey: "a") == nil)
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        try store.setDate(when, forKey: "a")
        try store.setDate(when.addingTimeInterval(60), forKey: "b")
        #expect(store.lastError == nil)
        let reopened = FileLastUpdatedStore(path: path)
        #expect(reopened.date(forKey: "a") == when)
        #expect(reopened.date(forKey: "b") == when.addingTimeInterval(60))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["last-updated.json"])
    }

    @Test("a corrupt or wrongly shaped file means no record", arguments: ["{not json", "[1,2]", "{\"a\":\"yesterday\"}", ""])
    func corrupt(contents: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/last-updated.json"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        let store = FileLastUpdatedStore(path: path)
        #expect(store.date(forKey: "a") == nil)
        try store.setDate(Date(timeIntervalSince1970: 5), forKey: "a")
        #expect(FileLastUpdatedStore(path: path).date(forKey: "a") == Date(timeIntervalSince1970: 5))
    }

    @Test("a failed save names the file, the step and the errno; the time stays in memory")
    func errno() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/last-updated.json"
        let store = FileLastUpdatedStore(path: missing)
        let when = Date(timeIntervalSince1970: 7)
        #expect(throws: LastUpdatedStoreError.cannotWrite(path: missing, step: "open", errno: ENOENT)) {
            try store.setDate(when, forKey: "k")
        }
        #expect(store.date(forKey: "k") == when)
        #expect(store.lastError?.description == "cannot save the last-updated time to \(missing): open: No such file or directory (errno 2)")

        // The state "directory" is a file.
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/state"
        try Data().write(to: URL(fileURLWithPath: file))
        #expect(throws: LastUpdatedStoreError.cannotWrite(path: file + "/last-updated.json", step: "open", errno: ENOTDIR)) {
            try FileLastUpdatedStore(path: file + "/last-updated.json").setDate(when, forKey: "k")
        }
        // Fixed: saving works again and the error goes.
        let fixed = FileLastUpdatedStore(path: dir + "/last-updated.json")
        try fixed.setDate(when, forKey: "k")
        #expect(fixed.lastError == nil)
    }

    @Test("the kiosk: a state directory it cannot write is logged once per cause, said in STATUS; the list and refreshes go on")
    func runtime() throws {
        var configuration = KioskConfiguration()
        let missing = "/nonexistent-\(UUID().uuidString)"
        configuration.stateDirectory = missing
        configuration.locale = "en"
        let display = HeadlessDisplay(width: 400, height: 240)
        let notifier = RecordingNotifier()
        let kiosk = try VirtualKiosk(configuration: configuration, display: display, notifier: notifier) { _, animator, _ in
            SampleItemSource(pages: 2, delay: 1, animator: animator)
        }
        let session = kiosk.list
        func settle() { kiosk.settle() }
        kiosk.start()
        settle()
        #expect(session.items.count == 20, "the list is shown")
        let expected = "STATUS=showing 20 items; cannot save the last-updated time to \(missing)/last-updated.json: open: No such file or directory (errno 2)"
        #expect(notifier.messages.last == expected)
        #expect(session.header.lastUpdatedTime != nil, "the time is kept in memory")
        session.header.beginRefreshing()
        settle()
        session.header.beginRefreshing()
        settle()
        #expect(session.header.state == .idle)
        #expect(notifier.messages.filter { $0 == expected }.count >= 3, "STATUS says so after every refresh")
        #expect(kiosk.stage.reportedStoreCauses.count == 1, "logged once for the one cause")
    }
}
