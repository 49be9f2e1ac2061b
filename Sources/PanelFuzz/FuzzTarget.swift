import FoundationEssentials
import Glibc
import PanelApp
import PanelGestures
import PanelInput
import PanelRender

/// What the fuzzer feeds with arbitrary bytes: every way text or numbers from outside enter
/// the program. Each target must neither crash nor break an invariant it checks; a broken
/// invariant is a `fatalError`, which libFuzzer reports as a crash with the input that did it.
/// docs/reliability.md says how to run them and how to reproduce a crash.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// evemu text through the parser, written back and read again (the same recording), then
    /// through touch assembly and pan recognition (positions on the screen, finite).
    case evemu
    /// A configuration file, or one `--set SECTION.KEY=VALUE`.
    case config
    /// A data source's answer: items as a JSON array or JSON lines.
    case items
    /// A whole recording replayed through the session in virtual time (scroll offsets finite).
    case replay

    /// The screen the inputs are mapped to, px.
    static let width = 800.0, height = 480.0

    @MainActor
    public func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .evemu: Self.evemu(String(decoding: bytes, as: UTF8.self))
        case .config: Self.config(Array(bytes))
        case .items: _ = try? ItemParser.parse(Data(bytes), source: "fuzz")
        case .replay: Self.replay(String(decoding: bytes, as: UTF8.self))
        }
    }

    private static func evemu(_ text: String) {
        guard let recording = try? EvemuParser.parse(text, file: "fuzz") else { return }
        let written = EvemuWriter.recording(recording)
        let again: EvemuRecording
        do {
            again = try EvemuParser.parse(written, file: "written")
        } catch {
            fatalError("a written recording does not read back: \(error)")
        }
        // The writer writes evemu-record's canonical form (SYN bits always, no empty bitmask
        // sets, no LED or switch in state 0): what it keeps must come back as it was, and
        // writing again must change nothing.
        let (before, after) = (canonical(recording.device), canonical(again.device))
        guard after == before else {
            fatalError("the round trip changed the description: \(before) became \(after)")
        }
        guard again.events == recording.events else { fatalError("the round trip changed the events") }
        let rewritten = EvemuWriter.recording(again)
        guard rewritten == written else { fatalError("writing a written recording again changed it: \(firstDifference(written, rewritten))") }
        guard var assembler = try? TouchAssembler(device: recording.device, width: width, height: height) else { return }
        var pan = PanRecognizer()
        for event in recording.events {
            guard let frame = assembler.feed(event) else { continue }
            check(frame)
            if let e = pan.handle(frame), !(e.velocity.x.isFinite && e.velocity.y.isFinite) {
                fatalError("a pan with a velocity that is not finite: \(e)")
            }
        }
    }

    /// The first line where two texts differ, both versions.
    private static func firstDifference(_ a: String, _ b: String) -> String {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false), y = b.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(x.count, y.count) where i >= x.count || i >= y.count || x[i] != y[i] {
            return "line \(i + 1): \"\(i < x.count ? x[i] : "")\" then \"\(i < y.count ? y[i] : "")\""
        }
        return "no line differs"
    }

    /// A description as the writer keeps it.
    private static func canonical(_ d: DeviceDescription) -> DeviceDescription {
        var c = d
        c.codes = d.codes.filter { $0.key != EventType.syn && !$0.value.isEmpty }
        c.leds = d.leds.filter { $0.value != 0 }
        c.switches = d.switches.filter { $0.value != 0 }
        return c
    }

    private static func check(_ frame: TouchFrame) {
        guard frame.touches.count <= TouchAssembler.maxContacts * 2 else { fatalError("\(frame.touches.count) touches in one frame") }
        for touch in frame.touches where !((0...width - 1).contains(touch.position.x) && (0...height - 1).contains(touch.position.y)) {
            fatalError("a touch off the screen: \(touch.position)")
        }
    }

    private static func config(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        if mode & 1 == 0 {
            _ = try? Configuration.parse(String(decoding: bytes.dropFirst(), as: UTF8.self), file: "fuzz")
            return
        }
        // `--set`: a key chosen by the second byte, the rest as its value.
        guard bytes.count >= 2 else { return }
        let keys = Configuration.keys
        var configuration = Configuration()
        try? configuration.set(keys[Int(bytes[1]) % keys.count], String(decoding: bytes.dropFirst(2), as: UTF8.self))
        try? configuration.validate(file: "fuzz")
    }

    @MainActor private static var fonts: FontLibrary? = try? FontLibrary()

    @MainActor private static func replay(_ text: String) {
        guard let recording = try? EvemuParser.parse(text, file: "fuzz"), let fonts else { return }
        var options = ReplayCommand.Options(file: "fuzz")
        options.width = Int(width)
        options.height = Int(height)
        options.refreshSeconds = 0.5
        guard let result = try? ReplayCommand.run(recording, options, fonts: fonts) else { return }
        for case let .frame(_, x, y, _, _) in result.trace where !(x.isFinite && y.isFinite) {
            fatalError("a scroll offset that is not finite: \(x), \(y)")
        }
    }
}
