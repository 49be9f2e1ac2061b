import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

@MainActor
@Suite("interval and theme asked at run time (ctl, the broker's command topic): within the configuration's bounds, until a reload")
struct RuntimeSettingsTests {
    func answer(_ kiosk: VirtualKiosk, _ line: String) -> String {
        var said = ""
        kiosk.kiosk.request(ControlCommand(line: line) ?? .status) { reply in
            switch reply {
            case .ok(let bytes): said = "ok " + String(decoding: bytes, as: UTF8.self)
            case .error(let why): said = "error " + why
            }
        }
        return TextFormat.trimmed(said, newlines: true)
    }

    @Test("interval 300 within mqtt.interval-range refreshes every 300 s; 30 is refused with the bounds; auto goes back; theme dark shows the dark rows, auto the file's")
    func intervalAndTheme() throws {
        var c = KioskConfiguration()
        c.stateDirectory = try scratchDirectory("runtime")
        (c.refreshEvery, c.refreshJitter, c.homeAfter) = (600, 0, 0)
        let kiosk = try VirtualKiosk(configuration: c, display: HeadlessDisplay(width: 400, height: 240)) { animator in
            SampleItemSource(pages: 1, delay: 0.1, animator: animator)
        }
        kiosk.start()
        kiosk.run(until: 2)
        #expect(kiosk.list.schedule?.settings.every == 600)
        #expect(answer(kiosk, "interval 300") == "ok refreshing every 300 s until a reload")
        #expect(kiosk.list.schedule?.settings.every == 300)
        #expect(answer(kiosk, "interval 30") == "error 30 s is outside mqtt.interval-range (60-3600 s)")
        #expect(kiosk.list.schedule?.settings.every == 300, "a refusal changes nothing")
        #expect(answer(kiosk, "interval auto") == "ok refreshing as configured (600 s)")
        #expect(kiosk.list.schedule?.settings.every == 600)

        #expect(kiosk.list.rowColor == .white)
        #expect(answer(kiosk, "theme dark") == "ok the dark theme until a reload")
        kiosk.run(until: 4)
        #expect(kiosk.list.rowColor == ListTheme.dark.background && kiosk.list.items.count == 20)
        #expect(answer(kiosk, "theme auto") == "ok the light theme until a reload")
        #expect(kiosk.list.rowColor == .white)
        #expect(ControlCommand(line: "theme blue") == nil && ControlCommand(line: "interval 0") == nil)
    }
}
