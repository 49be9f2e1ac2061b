import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelDisplay
import PanelRefresh
@testable import PanelRender

/// A source whose loads answer as told: held (never, until released), or at once.
@MainActor
final class TellingSource: ItemSource {
    var next: Result<[Item], Error>?
    func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void) {
        guard page == 0 else { return completion(.success(ItemPage(items: []))) }
        if let next { completion(next.map { ItemPage(items: $0) }) }
    }
}

/// What a list says when it has no rows, and the banner over rows whose refresh failed, as
/// the kiosk draws them, against Golden/*.png.
@MainActor
@Suite("Golden frames of the list's states")
struct GoldenStateTests {
    @MainActor struct Stage {
        let kiosk: Kiosk
        let source: TellingSource
        let display: HeadlessDisplay
        var session: KioskList { kiosk.list }

        init(_ settings: [(String, String)] = [], first: Result<[Item], Error>?) throws {
            var c = KioskConfiguration()
            // A state folder of its own: the shared temporary folder holds the last-updated
            // time other tests wrote, which the header then showed ("today 12:00", or "never"
            // where those tests had not run first).
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("golden-state-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            c.stateDirectory = state
            for (key, value) in settings { try c.set(key, value) }
            let source = TellingSource()
            source.next = first
            self.source = source
            display = HeadlessDisplay(width: 400, height: 300)
            kiosk = try Kiosk.virtual(configuration: c, display: display) { _, _, _ in source }
            kiosk.start(at: 0)
            settle()
        }

        func settle(_ seconds: Double = 3) { VirtualTimeDriver(kiosk.host).advance(by: seconds) }

        func check(_ name: String) throws {
            if let problem = try Golden.check(display.backSurface, name) { Issue.record("\(problem)") }
        }
    }

    static let failure = DataSourceError.unreachable(source: "https://example.org/items", reason: "Could not resolve host: example.org")

    @Test("the first load: a spinner over Loading…")
    func loading() throws {
        let stage = try Stage(first: nil)
        #expect(stage.session.status == .loading)
        try stage.check("list-loading")
    }

    @Test("an empty list says so and suggests the pull")
    func empty() throws {
        let stage = try Stage(first: .success([]))
        #expect(stage.session.status == .empty)
        #expect(stage.session.statusView.hintLabel.text == "Pull down to refresh")
        try stage.check("list-empty")
    }

    @Test("a failed first load: the reason, the pull that retries, a retry button")
    func failed() throws {
        let stage = try Stage(first: .failure(Self.failure))
        #expect(stage.session.status == .failed(reason: "no connection"), "words for a passer-by, not the host's name")
        #expect(!stage.session.statusView.retryButton.isHidden)
        try stage.check("list-failed")
    }

    @Test("a failed refresh over rows leaves them and shows the banner with the reason and the items' time")
    func banner() throws {
        let stage = try Stage(first: .success((1...8).map { Item(id: "\($0)", title: "Item \($0)", subtitle: "Shown before") }))
        stage.source.next = .failure(Self.failure)
        stage.session.reload()
        stage.settle()
        #expect(stage.session.items.count == 8 && stage.session.status == nil)
        #expect(!stage.session.banner.isHidden)
        #expect(stage.session.banner.label.text.hasPrefix("Could not refresh: no connection"))
        #expect(stage.session.banner.label.text.hasSuffix(" · items from 12:00"))
        try stage.check("list-refresh-failed")
    }

    @Test("a horizontal list: its failure in its place with the button (it has no header to pull)")
    func horizontalFailed() throws {
        let stage = try Stage([("list.orientation", "horizontal"), ("rows.height", "160")], first: .failure(Self.failure))
        #expect(stage.session.status == .failed(reason: "no connection"), "words for a passer-by, not the host's name")
        #expect(stage.session.statusView.hintLabel.text.isEmpty && !stage.session.statusView.retryButton.isHidden)
        try stage.check("horizontal-failed")
    }

    @Test("Arabic: the failed list right to left")
    func arabic() throws {
        let stage = try Stage([("appearance.locale", "ar")], first: .failure(Self.failure))
        #expect(stage.session.statusView.titleLabel.text == "تعذّر التحميل")
        try stage.check("list-failed-ar")
    }
}
