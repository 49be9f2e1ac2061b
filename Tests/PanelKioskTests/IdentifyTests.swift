import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

@MainActor
@Suite("identify: the panel says which it is, over its list, for a while")
struct IdentifyTests {
    @Test("identify 20: a card with the name, the host and the version over the list, lit if blank, gone after 20 s by a deadline; a touch on it takes it away sooner")
    func card() throws {
        var c = KioskConfiguration()
        c.stateDirectory = try scratchDirectory("identify")
        c.panelName = "Hall 2"
        c.homeAfter = 0
        var machine = MachineEnvironment.neutral
        machine.hostName = "kiosk-7"
        let display = HeadlessDisplay(width: 480, height: 320)
        let kiosk = try VirtualKiosk(configuration: c, display: display, machine: machine)
        kiosk.start()
        kiosk.run(until: 2)
        #expect(kiosk.stage.blankNow())
        var answers: [String] = []
        kiosk.kiosk.request(.identify(seconds: 20)) { reply in
            if case .ok(let bytes) = reply { answers.append(String(decoding: bytes, as: UTF8.self)) }
        }
        #expect(answers == ["showing Hall 2's name, host and addresses for 20 s\n"])
        kiosk.run(until: 3)
        #expect(!display.isBlank, "lit for it")
        let card = try #require(kiosk.list.identityCard)
        let texts = card.subviews.compactMap { ($0 as? Label)?.text }.filter { !$0.isEmpty }
        #expect(texts.first == "Hall 2" && texts.last?.contains("host kiosk-7") == true && texts.last?.contains("panel-refresh ") == true, "\(texts)")
        #expect(kiosk.stage.nextWakeUp == 22, "the card's end is the deadline")
        kiosk.run(until: 21.9)
        #expect(kiosk.list.identityCard != nil)
        kiosk.run(until: 22.1)
        #expect(kiosk.list.identityCard == nil && card.superview == nil)
        #expect(kiosk.stage.nextWakeUp == nil)

        // Asked again, a tap on the card takes it away.
        kiosk.kiosk.request(.identify(seconds: 600)) { _ in }
        kiosk.run(until: 23)
        let again = try #require(kiosk.list.identityCard)
        var tap = GestureScript(start: 23.1)
        tap.tap(at: Point(x: again.frame.midX, y: again.frame.midY))
        kiosk.play(tap.frames)
        kiosk.run(until: 24)
        #expect(kiosk.list.identityCard == nil)
        #expect(ControlCommand(line: "identify 601") == nil && ControlCommand(line: "identify") == .identify(seconds: 30))
    }
}
