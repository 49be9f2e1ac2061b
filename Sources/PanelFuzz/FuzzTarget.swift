import FoundationEssentials
import Glibc
import PanelKiosk
import PanelGestures
import PanelInput
import PanelRender
import PanelUI

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
    /// An image file's bytes (PNG, the format the program reads) through the decoder under a
    /// pixel budget, then scaled down as the renderer keeps it.
    case png
    /// A row picture's bytes through the JPEG decoder (libjpeg-turbo) under the pixel budget,
    /// whole and as a thumbnail (scaled decode, Exif orientation).
    case jpeg
    /// The same through the WebP decoder (libwebp).
    case webp
    /// Any UTF-8 (or not) as a label's text: truncated, wrapped and drawn.
    case text
    /// A file that a configuration key names (the first byte picks the key: the second floor's
    /// image, a gif frame, the item file, the password file, or the configuration itself),
    /// checked as `panel-refresh check` does.
    case files
    /// A message from the broker: the first byte picks the topic (the list's, a trigger, a
    /// command), the rest is its payload, taken by the link as a connection hands it over; the
    /// list's message is then loaded as a refresh loads it.
    case mqtt
    /// An HTTP answer, status line, headers and body as a server sends them, to the HTTP data
    /// source through libcurl on loopback: asked once, then again conditionally.
    case http
    /// Bytes sent to the control socket as `ctl` would, through the server's reading,
    /// answering and closing; its answer must always read back, and `ctl`'s reader gets the
    /// bytes as an answer too.
    case control
    /// An item document whose oracle is memory: the peak rise of the resident set while it is
    /// parsed, per byte (3 MB of `[{}, …]` took 818 MB). Inputs up to the 4 MiB a source takes.
    case itemsMemory = "items-memory"

    /// The screen the inputs are mapped to, px.
    static let width = 800.0, height = 480.0

    @MainActor
    public func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .evemu: Self.evemu(String(decoding: bytes, as: UTF8.self))
        case .config: Self.config(Array(bytes))
        case .items: _ = try? ItemParser.parse(Data(bytes), source: "fuzz")
        case .replay: Self.replay(String(decoding: bytes, as: UTF8.self))
        case .png: Self.png(Array(bytes))
        case .jpeg, .webp: Self.picture(Array(bytes), as: self == .jpeg ? .jpeg : .webp)
        case .text: Self.text(Array(bytes))
        case .files: Self.files(Array(bytes))
        case .mqtt: Self.mqtt(Array(bytes))
        case .http: Self.http(Array(bytes))
        case .control: Self.control(Array(bytes))
        case .itemsMemory: Self.itemsMemory(Array(bytes))
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
            _ = try? KioskConfiguration.parse(String(decoding: bytes.dropFirst(), as: UTF8.self), file: "fuzz")
            return
        }
        // `--set`: a key chosen by the second byte, the rest as its value.
        guard bytes.count >= 2 else { return }
        let keys = KioskConfiguration.keyNames
        var configuration = KioskConfiguration()
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

    /// The pixel budget of the image target: 1 Mpx (4 MiB decoded), so that libFuzzer's
    /// -rss_limit_mb catches a decode that allocates past what it declared.
    static let pngBudget = 1 << 20

    private static func png(_ bytes: [UInt8]) {
        // Row by row and reduced as it comes, as a thumbnail's PNG is (libpng's full API in C,
        // CPNGRows): whatever the bytes, a size within the budget or an error.
        if let reduced = try? PNG.reduced(bytes, path: "fuzz", maxPixels: pngBudget, atLeast: (7, 5)) {
            guard reduced.width > 0, reduced.height > 0, reduced.width * reduced.height <= pngBudget else {
                fatalError("reduced to \(reduced.width)x\(reduced.height)")
            }
        }
        guard let surface = try? PNG.decode(bytes, path: "fuzz", maxPixels: pngBudget) else { return }
        guard surface.width > 0, surface.height > 0, surface.width * surface.height <= pngBudget else {
            fatalError("decoded \(surface.width)x\(surface.height) past the budget of \(pngBudget) pixels")
        }
        let small = Renderer.scaled(surface, toFit: (max(1, surface.width / 3), max(1, surface.height / 2)))
        guard small.width <= surface.width, small.height <= surface.height else { fatalError("scaled up: \(small.width)x\(small.height)") }
    }

    /// A picture's bytes through its decoder whole, and through `ImageDecoder.thumbnail` at a
    /// size the first byte picks (1-64 px square or 2:1): within the budget, exactly the size asked.
    private static func picture(_ bytes: [UInt8], as format: ImageFormat) {
        guard let first = bytes.first else { return }
        let input = Array(bytes.dropFirst())
        // Seeds start with their format's signature; anything else is tried as that format too.
        let whole: Surface?
        switch format {
        case .jpeg: whole = try? JPEG.decode(input, path: "fuzz", maxPixels: pngBudget)
        case .webp: whole = try? WebP.decode(input, path: "fuzz", maxPixels: pngBudget)
        case .png: whole = nil
        }
        if let whole, whole.width * whole.height > pngBudget {
            fatalError("decoded \(whole.width)x\(whole.height) past the budget of \(pngBudget) pixels")
        }
        let side = Int(first % 64) + 1, width = first & 64 != 0 ? side * 2 : side
        guard let thumbnail = try? ImageDecoder.thumbnail(input, path: "fuzz", width: width, height: side, maxPixels: pngBudget) else { return }
        guard thumbnail.width == width, thumbnail.height == side, thumbnail.pixels.count == width * side * 4 else {
            fatalError("a thumbnail of \(thumbnail.width)x\(thumbnail.height) for \(width)x\(side)")
        }
    }

    /// Text layout (shaping, bidi, line breaks) on any bytes: the first picks the width (0-1020
    /// px), the second the line limit (low 3 bits) and the neutral direction (bit 3).
    @MainActor private static func text(_ bytes: [UInt8]) {
        guard bytes.count >= 2, let fonts else { return }
        let width = Double(bytes[0]) * 4, lines = Int(bytes[1] % 8), rightToLeft = bytes[1] & 8 != 0
        let text = String(decoding: bytes.dropFirst(2), as: UTF8.self)
        let before = fonts.advancesMeasured
        let laid = fonts.layout(text, font: .system(14), pixels: 14, width: width, maxLines: max(lines, 1),
                                rightToLeftWhenNeutral: rightToLeft)
        let measured = fonts.advancesMeasured - before
        let limit = FontLibrary.scalarLimit(width: width, pixels: 14, lines: max(lines, 1))
        guard measured <= limit else { fatalError("\(measured) characters shaped for a limit of \(limit)") }
        guard laid.lines.count <= max(lines, 1) else { fatalError("\(laid.lines.count) lines for a limit of \(lines)") }
        var end = 0
        for line in laid.lines {
            guard line.range.lowerBound >= end else { fatalError("lines overlap: \(line.range) after \(end)") }
            end = line.range.upperBound
            let clusters = Set(line.glyphs.map(\.cluster))
            guard line.glyphs.allSatisfy({ line.range.contains($0.cluster) || $0.cluster == line.range.upperBound }) else {
                fatalError("a glyph outside its line's characters \(line.range)")
            }
            // Only a line of one cluster wider than the whole width may overflow it.
            guard line.width <= width + 1e-6 || clusters.count <= 1 || width == 0 else {
                fatalError("a line of \(clusters.count) clusters \(line.width) px wide in \(width)")
            }
        }
        // Drawn as a label would be, in a small surface.
        let scene = Scene(size: Size(width: 120, height: 60))
        let label = Label(frame: Rect(x: 0, y: 0, width: 120, height: 60))
        label.numberOfLines = lines
        label.text = ItemParser.bounded(text)
        scene.screen.rootView.addSubview(label)
        Renderer(fonts: fonts).render(scene.screen, into: Surface(width: 120, height: 60))
    }

    /// Where the files target writes its file: one per process.
    nonisolated(unsafe) private static var scratch: String?

    @MainActor private static func files(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        if scratch == nil {
            var template = Array("/tmp/panel-refresh-fuzz-XXXXXX".utf8CString)
            let made: String? = template.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress, let result = mkdtemp(base) else { return nil }
                return String(cString: result)
            }
            guard let made else { return }
            scratch = made
        }
        guard let dir = scratch else { return }
        let content = Array(bytes.dropFirst())
        let config = dir + "/config"
        let file: String
        let text: String
        switch selector % 5 {
        case 0:
            file = dir + "/floor.png"
            text = "[appearance]\ntwo-level = \(file)\n"
        case 1:
            file = dir + "/frames/idle-1.png"
            text = "[appearance]\nheader = gif\ngif-frames = \(dir)/frames\n"
        case 2:
            file = dir + "/items.json"
            text = "[data]\nsource = file\nfile = \(file)\n"
        case 3:
            file = dir + "/password"
            text = "[data]\nsource = http\nurl = http://127.0.0.1:9/\nurl-password-file = \(file)\n"
        default:
            file = config
            text = ""
        }
        _ = mkdir(dir + "/frames", 0o755)
        guard write(text.isEmpty ? content : Array(text.utf8), to: config), file == config || write(content, to: file) else { return }
        for error in KioskConfiguration.check(path: config, screen: (800, 480)) where error.file != config {
            fatalError("an error about another file than the configuration: \(error)")
        }
    }

    /// Writes `bytes` to `path` (replacing it); false if it could not.
    private static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }
}
