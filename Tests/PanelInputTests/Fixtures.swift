import Foundation
@testable import PanelInput
import PanelGestures

/// The real recordings in Fixtures/ (see Fixtures/SOURCES.md).
enum Fixture: String, CaseIterable, Sendable {
    case pixelSwipe = "01-pixel-tablet-nvt.mt-b.1fg-swipe.evemu"
    case atmelDrag = "02-atmel-maxtouch.mt-b.1fg-drag-up-down.evemu"
    case atmelTaps = "03-atmel-maxtouch.mt-b.1fg-fast-taps.evemu"
    case elanDrag = "05-elan-cando.mt-b.1fg-drag-up-down.events"
    case ntrigDrag = "07-ntrig.mt-a.1fg-drag-nw-se.events"
    case egalax = "10-egalax-usb.single-touch-quirk.events"

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    var path: String { Fixture.directory + "/" + rawValue }

    var descriptionPath: String? {
        switch self {
        case .elanDrag: return Fixture.directory + "/05-elan-cando.desc"
        case .ntrigDrag: return Fixture.directory + "/07-ntrig.desc"
        case .egalax: return Fixture.directory + "/10-egalax-usb.desc"
        case .pixelSwipe, .atmelDrag, .atmelTaps: return nil
        }
    }

    /// The eGalax reports positions on ABS_Z / ABS_RX.
    var configuration: TouchAssembler.Configuration {
        self == .egalax ? .init(positionAxes: (AbsCode.z, AbsCode.rx)) : .init()
    }

    /// A screen with the panel's own aspect, so velocities keep their direction.
    var screen: (width: Double, height: Double) {
        switch self {
        case .pixelSwipe: return (800, 1280)
        case .ntrigDrag: return (1200, 900)
        case .atmelDrag, .atmelTaps: return (800, 480)
        case .elanDrag: return (1504, 928)
        case .egalax: return (1024, 1024)
        }
    }

    func recording() throws -> EvemuRecording {
        try EvemuRecording.load(path: path, descriptionPath: descriptionPath)
    }

    func frames() throws -> [TouchFrame] {
        try EvemuReplay(recording: try recording(), width: screen.width, height: screen.height,
                        configuration: configuration).frames()
    }
}

/// Runs frames through a pan and a tap recognizer.
struct GestureLog {
    var pans: [PanRecognizer.Event] = []
    var taps: [TapRecognizer.Tap] = []

    init(_ frames: [TouchFrame]) {
        var pan = PanRecognizer()
        var tap = TapRecognizer()
        for frame in frames {
            if let e = pan.handle(frame) { pans.append(e) }
            if let t = tap.handle(frame) { taps.append(t) }
        }
    }

    func count(_ state: PanRecognizer.State) -> Int { pans.filter { $0.state == state }.count }
}
