import Glibc
import PanelHost

/// `panel-refresh hw-check`: what the VM harness runs on a real kernel. The DRM display brought
/// up with a test pattern and a page flip, then torn down; a uinput touchscreen made from each
/// recording's description and read back through PanelInput. Prints one line per check and a
/// closing `hw-check: N passed, M failed`.
@MainActor
public enum HardwareCheck {
    /// The test pattern: left half red, right half blue, a white bar at the top.
    public static func pattern(_ surface: Surface) {
        let canvas = Canvas(surface: surface)
        let w = Double(surface.width), h = Double(surface.height)
        canvas.fill(Rect(x: 0, y: 0, width: w / 2, height: h), color: Color(red: 220, green: 30, blue: 30))
        canvas.fill(Rect(x: w / 2, y: 0, width: w - w / 2, height: h), color: Color(red: 30, green: 60, blue: 220))
        canvas.fill(Rect(x: 0, y: 0, width: w, height: h / 8), color: .white)
    }

    /// The damage frame's change: a green square a quarter of the height wide, centred; returns
    /// its rectangle (pixels).
    @discardableResult
    public static func damageSquare(_ surface: Surface) -> Rect {
        let side = Double(surface.height / 4)
        let rect = Rect(x: Double(surface.width / 2) - side / 2, y: Double(surface.height / 2) - side / 2, width: side, height: side)
        Canvas(surface: surface).fill(rect, color: Color(red: 30, green: 200, blue: 60))
        return rect
    }

    /// Presents and waits up to 2 s for the flip (or commit) event.
    static func presentAndWait(_ display: any Display, damage: [Rect]) throws {
        var shown = false
        try display.present(damage: damage) { shown = true }
        if !shown, display.eventDescriptor != nil {
            guard try display.waitForEvents(timeout: 2) else {
                throw DisplayError.call("no page-flip event within 2 s", errno: ETIMEDOUT)
            }
        }
        guard shown else { throw DisplayError.call("the flip completed no frame", errno: EIO) }
    }

    /// Runs every check, telling `log` each result; `fixtures`: the recordings injected through uinput; `hold`: seconds the pattern stays up.
    public static func run(fixtures: String?, hold: Double, log: (String) -> Void) -> (passed: Int, failed: Int) {
        var passed = 0, failed = 0
        func check(_ name: String, _ body: () throws -> String) {
            do {
                log("ok   \(name): \(try body())")
                passed += 1
            } catch {
                log("FAIL \(name): \(error)")
                failed += 1
            }
        }
        check("drm") {
            let display = try DRMDisplay()
            defer { display.close() }
            log("drm: \(display.summary)")
            pattern(display.backSurface)
            try presentAndWait(display, damage: [Rect(x: 0, y: 0, width: Double(display.width), height: Double(display.height))])
            log("SCREENDUMP \(display.width)x\(display.height)")
            if hold > 0 { usleep(UInt32(hold * 1_000_000)) }
            // A partial frame: only the square is damage. The buffer it goes to last showed
            // nothing of the pattern, so the display must bring over the first frame's area too.
            let square = damageSquare(display.backSurface)
            try presentAndWait(display, damage: [square])
            log("SCREENDUMP-DAMAGE \(display.width)x\(display.height)")
            if hold > 0 { usleep(UInt32(hold * 1_000_000)) }
            return "\(display.card) \(display.width)x\(display.height)@\(display.mode.refresh) connector \(display.connector) crtc \(display.crtc), two frames flipped"
        }
        guard let fixtures, let names = DirectoryNames.of(fixtures) else { return (passed, failed) }
        for name in names.sorted() where name.hasSuffix(".evemu") || name.hasSuffix(".events") {
            check("uinput \(name)") {
                let description = name.hasSuffix(".events")
                    ? names.first { $0.hasSuffix(".desc") && name.hasPrefix(String($0.dropLast(5))) }.map { fixtures + "/" + $0 } : nil
                let recording = try EvemuRecording.load(path: fixtures + "/" + name, descriptionPath: description)
                let virtual = try UInputDevice(description: recording.device)
                guard let node = virtual.devnode else { throw InputError.udev("the uinput device has no node") }
                let device = try EvdevDevice(path: node, requireTouchscreen: false)
                guard device.device.name == recording.device.name else { throw InputError.notATouchscreen("\(node) reads back as \(device.device.name)") }
                var configuration = TouchAssembler.Configuration()
                if name.hasPrefix("10-") { configuration.positionAxes = (AbsCode.z, AbsCode.rx) }
                let input = try TouchInput(source: device, width: 800, height: 480, configuration: configuration)
                // Frame by frame, reading after each: the kernel's buffer per reader is small,
                // and a whole recording written at once would come back as SYN_DROPPED.
                var frames: [TouchFrame] = []
                for event in recording.events {
                    try virtual.write(event)
                    if event.isSynReport { frames += try input.read(now: 0) }
                }
                frames += try input.read(now: 0)
                let expected = try EvemuReplay(recording: recording, width: 800, height: 480, configuration: configuration).frames()
                let phases = { (f: [TouchFrame]) in f.flatMap { $0.touches.map(\.phase) } }
                guard phases(frames) == phases(expected) else {
                    throw InputError.udev("read \(frames.count) frames, expected \(expected.count)")
                }
                return "\(node): \(frames.count) frames read back as replayed"
            }
        }
        return (passed, failed)
    }
}
