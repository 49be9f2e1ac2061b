import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelRefresh

@MainActor
@Suite("A list that always says what it is doing: loading, empty, failed, a failed refresh")
struct ListStateTests {
    static let failure = DataSourceError.timeout(source: "/usr/bin/items", seconds: 10)

    @Test("the person at the panel reads what happened in words for a passer-by, in the panel's language; the journal keeps the address, the path, the status and the bytes")
    func passerBy() {
        let cases: [(DataSourceError, String)] = [
            (.busy(source: "http://127.0.0.1:18080/board.json", status: 503, retryAfter: 25), "the server is busy"),
            (.unreachable(source: "/var/lib/board.json", reason: "cannot read the file: it is a directory"), "no connection"),
            (.tooLarge(source: "panel/board", limit: 8_388_608), "the answer could not be read"),
            (.malformed(source: "fleet/lobby/list", reason: "item 1 has no string \"title\""), "the answer could not be read"),
            (.exitStatus(command: "/usr/local/lib/board/fetch", status: 1, stderr: "no route"), "the list could not be loaded"),
            (.timeout(source: "https://user:secret@example.org/board", seconds: 10), "no connection"),
        ]
        for (error, words) in cases {
            #expect(DataSourceError.passerByText(error, language: .english) == words, "\(error)")
            for leak in ["127.0.0.1", "/var/lib", "8388608", "fleet/lobby", "/usr/local", "secret", "503"] {
                #expect(!DataSourceError.passerByText(error, language: .english).contains(leak))
            }
        }
        #expect(DataSourceError.passerByText(DataSourceError.busy(source: "x", status: 429, retryAfter: 5), language: .german) == "der Server ist ausgelastet")
        #expect(DataSourceError.words.count == RefreshLanguage.allCases.count && DataSourceError.words.values.allSatisfy { $0.count == DataSourceError.Trouble.allCases.count })
        // The journal keeps the whole of it.
        #expect(DataSourceError.busy(source: "http://127.0.0.1:18080/board.json", status: 503, retryAfter: 25).description
                == "http://127.0.0.1:18080/board.json is busy (HTTP 503) and asks for no request for 25 s")
    }

    @Test("vertical: loading while the first page is on its way; failed with the reason; the retry button loads it; the list shows")
    func vertical() throws {
        let kiosk = try TapKiosk(answers: [.failure(Self.failure), .success(ScriptedSource.items(20))], holding: true)
        let session = kiosk.session
        #expect(session.status == .loading && session.statusView.spinner.isAnimating)
        kiosk.source.release()
        kiosk.run(for: 3)
        // The glass says what happened for a passer-by; the trace keeps the command's path.
        #expect(session.status == .failed(reason: "no connection"))
        #expect(kiosk.trace.contains { $0.json.contains("/usr/bin/items gave no answer") })
        #expect(session.statusView.hintLabel.text == "Pull down to retry")
        // The button takes the tap (the list's pull would too).
        kiosk.source.holding = false
        let button = session.statusView.retryButton
        kiosk.tap(session.statusView.convert(Point(x: button.frame.midX, y: button.frame.midY), to: nil))
        kiosk.run(for: 3)
        #expect(kiosk.count("retry") == 1)
        #expect(session.status == nil && session.items.count == 20)
        #expect(session.statusView.isHidden)
    }

    @Test("an empty answer says so and suggests the pull; a pull then loads what came")
    func empty() throws {
        let kiosk = try TapKiosk(answers: [.success([]), .success(ScriptedSource.items(3))])
        #expect(kiosk.session.status == .empty)
        #expect(kiosk.session.statusView.titleLabel.text == "Nothing here yet")
        #expect(kiosk.session.statusView.retryButton.isHidden, "a vertical list is pulled")
        kiosk.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 450), duration: 0.6, hold: 0.3)
        kiosk.run(for: 3)
        #expect(kiosk.session.status == nil && kiosk.session.items.count == 3)
    }

    @Test("a first load shows the Loading view from the first frame, whatever the source, not the header over a blank list")
    func firstFrame() throws {
        let display = HeadlessDisplay(width: 400, height: 240)
        var configuration = KioskConfiguration()
        configuration.stateDirectory = try scratchDirectory("state")
        let kiosk = try VirtualKiosk(configuration: configuration, display: display) { _, animator, _ in
            let source = ScriptedSource([.success(ScriptedSource.items(3))], animator: animator)
            source.holding = true
            return source
        }
        kiosk.start()
        let session = kiosk.list
        // Before any time passes (the header is still opening): the list says it is loading.
        #expect(session.status == .loading)
        #expect(session.statusView.spinner.isAnimating && !session.statusView.isHidden)
        #expect(session.statusView.titleLabel.text == session.statusView.localizer.text(.listLoading))
    }

    @Test("a failed refresh over a list leaves the list and shows the banner until the next success")
    func banner() throws {
        let kiosk = try TapKiosk(answers: [.success(ScriptedSource.items(20)), .failure(Self.failure), .success(ScriptedSource.items(5))])
        let session = kiosk.session
        session.reload()
        kiosk.run(for: 4)
        #expect(session.items.count == 20 && session.status == nil)
        #expect(!session.banner.isHidden)
        #expect(session.banner.label.text.hasPrefix("Could not refresh: no connection") && !session.banner.label.text.contains("/usr/bin"))
        #expect(session.list.contentInset.bottom == RefreshBanner.height, "the last rows scroll up from under it")
        session.reload()
        kiosk.run(for: 4)
        #expect(session.banner.isHidden && session.list.contentInset.bottom == 0)
        #expect(session.items.count == 5)
    }

    @Test("horizontal: loading, then the failure in the list's place with the button; no header is asked")
    func horizontal() throws {
        let kiosk = try TapKiosk([("list.orientation", "horizontal"), ("rows.height", "200")],
                                 answers: [.failure(Self.failure), .success([])], holding: true)
        let session = kiosk.session
        #expect(session.status == .loading)
        kiosk.source.release()
        kiosk.run(for: 1)
        #expect(session.status == .failed(reason: "no connection"))
        #expect(session.header.state == .idle, "the unattached header saw nothing")
        #expect(!session.statusView.retryButton.isHidden && session.statusView.hintLabel.text.isEmpty)
        kiosk.source.holding = false
        session.statusView.retryAction?()
        kiosk.run(for: 1)
        #expect(session.status == .empty)
        #expect(!session.statusView.retryButton.isHidden, "an empty horizontal list offers the button: there is no pull")
    }

    @Test("the texts in every language", arguments: RefreshLanguage.allCases)
    func languages(language: RefreshLanguage) {
        let localizer = RefreshLocalizer(language: language)
        for key in [RefreshTextKey.listLoading, .listEmpty, .listEmptyHint, .listFailed, .listRetryHint, .retry, .refreshFailed, .itemsFrom, .back, .twoLevelBackHint] {
            #expect(!localizer.text(key).isEmpty)
        }
        #expect(localizer.text(.itemsFrom).contains("{time}"))
        if language != .english { #expect(localizer.text(.listLoading) != RefreshLocalizer(language: .english).text(.listLoading)) }
    }
}
