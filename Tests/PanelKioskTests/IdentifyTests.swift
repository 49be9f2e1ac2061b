import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk

@MainActor
@Suite("identify: the panel says which it is, over its list, for a while")
struct IdentifyTests {
    /// A started virtual kiosk named `name` on the host `host`, on a headless glass of that size.
    static func kiosk(name: String, host: String, width: Int, height: Int) throws -> (VirtualKiosk, HeadlessDisplay) {
        var c = KioskConfiguration()
        c.stateDirectory = try scratchDirectory("identify")
        c.panelName = name
        c.homeAfter = 0
        var machine = MachineEnvironment.neutral
        machine.hostName = host
        let display = HeadlessDisplay(width: width, height: height)
        let kiosk = try VirtualKiosk(configuration: c, display: display, machine: machine)
        kiosk.start()
        return (kiosk, display)
    }

    @Test("identify 20: a card with the name, the host and the version over the list, lit if blank, gone after 20 s by a deadline; a touch on it takes it away sooner")
    func card() throws {
        let (kiosk, display) = try Self.kiosk(name: "Hall 2", host: "kiosk-7", width: 480, height: 320)
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
        #expect(texts.first == "Hall 2", "\(texts)")
        #expect(texts.contains("host kiosk-7"), "\(texts)")
        #expect(texts.contains { $0.hasPrefix("panel-refresh ") }, "\(texts)")
        // Beside the words, a QR code of the same words, whole pixels a module.
        let qr = try #require(card.subviews.compactMap { $0 as? QRCodeView }.first?.code)
        #expect(qr == (try QRCode(text: texts.joined(separator: "\n"))))
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

    @Test("the card's QR code, read off the glass by zbarimg as a phone would, says what the card says: 480x320, 800x480 and 1280x800",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg"), "needs zbarimg (zbar-tools; scripts/bootstrap installs it)"))
    func readOffTheGlass() throws {
        for (width, height) in [(480, 320), (800, 480), (1280, 800)] {
            let (kiosk, display) = try Self.kiosk(name: "Küche 3", host: "kiosk-kitchen-3", width: width, height: height)
            kiosk.run(until: 1)
            kiosk.kiosk.request(.identify(seconds: 30)) { _ in }
            kiosk.run(until: 2)
            let card = try #require(kiosk.list.identityCard)
            let said = card.subviews.compactMap { ($0 as? Label)?.text }.filter { !$0.isEmpty }.joined(separator: "\n")
            let view = try #require(card.subviews.compactMap { $0 as? QRCodeView }.first)
            #expect(view.frame.width >= 2 * Double(try #require(view.code).size + 8), "at least 2 pixels a module")
            let path = try scratchDirectory("identify-glass") + "/glass.ppm"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(ExpectedFrame.ppm(display.backSurface))))
            let read = try Child.run("/usr/bin/zbarimg", ["--quiet", "--raw", path])
            #expect(read.code == 0, "\(width)x\(height): \(String(decoding: read.stderr, as: UTF8.self))")
            #expect(String(decoding: read.stdout, as: UTF8.self) == said + "\n", "\(width)x\(height)")
        }
    }
}
