import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelDisplay

/// The X tools the window's tests drive it with (Debian's xvfb, xdotool and x11-apps).
private let xTools = ["/usr/bin/Xvfb", "/usr/bin/xdotool", "/usr/bin/xwd"]
private let haveX = xTools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
/// Whether this build has the window and SDL can be opened here (the program loads it at the
/// first window).
private let haveSDL: Bool = {
    guard WindowDisplay.isBuiltIn, let handle = dlopen("libSDL2-2.0.so.0", RTLD_LAZY | RTLD_LOCAL) else { return false }
    dlclose(handle)
    return true
}()

/// An Xvfb server of its own for one test, on the display number it picks itself.
private final class XServer {
    let process: Child
    let display: String

    init(width: Int = 1920, height: Int = 1200) throws {
        // -displayfd: Xvfb chooses a free display and writes its number once it accepts clients.
        process = try Child("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"], stdout: .pipe)
        let text = firstLine(of: process)
        guard let number = Int(text) else {
            process.terminate(SIGKILL)
            throw XError("Xvfb gave no display number (\(text))")
        }
        display = ":\(number)"
    }

    /// Runs an X client to its end; its standard output.
    @discardableResult
    func client(_ path: String, _ arguments: [String]) throws -> String {
        let (code, data, _) = try Child.run(path, arguments, environment: ["DISPLAY": display, "PATH": "/usr/bin:/bin"])
        guard code == 0 else { throw XError("\(path) \(arguments.joined(separator: " ")): exit \(code.map(String.init) ?? "by a signal")") }
        return String(decoding: data, as: UTF8.self)
    }

    /// The window of process `pid` (xdotool waits for it to be mapped).
    func window(of pid: Int32) throws -> String {
        let ids = try client("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--pid", "\(pid)"])
        guard let id = ids.split(separator: "\n").first else { throw XError("no window for pid \(pid)") }
        return String(id)
    }

    /// What the window shows, through xwd.
    func screenshot(_ window: String) throws -> RGBImage {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("window-\(UUID().uuidString).xwd").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try client("/usr/bin/xwd", ["-silent", "-id", window, "-out", file])
        return try RGBImage(xwd: Data(fileBytes(file)))
    }

    func stop() {
        // SIGKILL: Xvfb may wait for a client that is gone before it ends on SIGTERM.
        process.terminate(SIGKILL)
        process.exitCode()
    }
}

private struct XError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Pixels as red, green, blue bytes, row after row.
struct RGBImage: Equatable {
    let width: Int
    let height: Int
    let rgb: [UInt8]

    /// An X window dump (XWDFileHeader: 25 big-endian 32-bit fields, the window's name, the
    /// colour map, then the pixels), of 24- or 32-bit TrueColor.
    init(xwd data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count >= 100 else { throw XError("xwd: short file") }
        func field(_ i: Int) -> Int { bytes[i * 4..<i * 4 + 4].reduce(0) { $0 << 8 | Int($1) } }
        let headerSize = field(0), w = field(4), h = field(5), byteOrder = field(7), bitsPerPixel = field(11)
        let bytesPerLine = field(12), redMask = field(14), greenMask = field(15), blueMask = field(16), colours = field(19)
        let start = headerSize + colours * 12
        guard bitsPerPixel == 32, redMask == 0xff0000, greenMask == 0xff00, blueMask == 0xff,
              bytes.count >= start + bytesPerLine * h else { throw XError("xwd: not 32-bit TrueColor (\(bitsPerPixel) bpp)") }
        // LSBFirst (0): blue, green, red, pad; MSBFirst: pad, red, green, blue.
        let (red, green, blue) = byteOrder == 0 ? (2, 1, 0) : (1, 2, 3)
        let rgb = [UInt8](unsafeUninitializedCapacity: w * h * 3) { out, count in
            bytes.withUnsafeBufferPointer { input in
                var o = 0
                for y in 0..<h {
                    var i = start + y * bytesPerLine
                    for _ in 0..<w {
                        out[o] = input[i + red]
                        out[o + 1] = input[i + green]
                        out[o + 2] = input[i + blue]
                        o += 3
                        i += 4
                    }
                }
            }
            count = w * h * 3
        }
        (width, height, self.rgb) = (w, h, rgb)
    }

    /// A binary PPM (P6, maxval 255), as `expected-frame` writes.
    init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        var fields: [Int] = [], i = 2, current = ""
        while fields.count < 3 && i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x0a {
                if !current.isEmpty { fields.append(Int(current) ?? 0); current = "" }
            } else {
                current.append(Character(UnicodeScalar(c)))
            }
            i += 1
        }
        guard bytes.starts(with: [0x50, 0x36]), fields.count == 3, bytes.count >= i + fields[0] * fields[1] * 3 else { throw XError("not a P6 PPM") }
        (width, height, rgb) = (fields[0], fields[1], Array(bytes[i..<i + fields[0] * fields[1] * 3]))
    }

    /// Pixels that differ from `other` (all of them when the sizes differ).
    func differingPixels(from other: RGBImage) -> Int {
        guard width == other.width, height == other.height else { return max(width * height, other.width * other.height) }
        return rgb.withUnsafeBufferPointer { a in
            other.rgb.withUnsafeBufferPointer { b in
                var count = 0
                for p in stride(from: 0, to: a.count, by: 3) where a[p] != b[p] || a[p + 1] != b[p + 1] || a[p + 2] != b[p + 2] {
                    count += 1
                }
                return count
            }
        }
    }
}

/// The frame `expected-frame` renders headless for the first page on a `screen` glass.
private func expectedFrame(screen: String, rotation: Int = 0) throws -> RGBImage {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("expected-\(UUID().uuidString).ppm").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = try ProgramRun(["expected-frame", "--screen", screen, "--rotation", "\(rotation)", "--refreshes", "1", file])
    #expect(run.finish() == 0, "\(run.log)")
    return try RGBImage(ppm: Data(fileBytes(file)))
}

/// Trace lines of a file the kiosk appends to, read until `done` holds of them (30 s at most).
private func traceLines(_ path: String, until done: ([String]) -> Bool) -> [String] {
    let watch = Stopwatch()
    var lines: [String] = []
    while watch.elapsed < 30 {
        lines = ((try? fileText(path)) ?? "").split(separator: "\n").map(String.init)
        if done(lines) { break }
        var none = pollfd()
        _ = poll(&none, 0, 20)
    }
    return lines
}

@Suite("The kiosk in a desktop window under a real X server",
       .enabled(if: programPath != nil, "needs the panel-refresh executable beside the tests (swift test builds it)"),
       .enabled(if: haveX, "needs Xvfb, xdotool and xwd (Debian's xvfb, xdotool, x11-apps: scripts/bootstrap installs them)"),
       .enabled(if: haveSDL, "needs libSDL2-2.0.so.0 (Debian's libsdl2-2.0-0)"),
       .serialized)
struct WindowTests {
    /// A kiosk configuration in a folder of its own: a window, a short refresh.
    private func kiosk(_ extra: String = "") throws -> (dir: String, config: String, trace: String) {
        let dir = try scratchDirectory("window")
        let config = dir + "/config"
        try "[display]\nbackend = window\n\(extra)[data]\nrefresh-seconds = 0.5\n[state]\ndirectory = \(dir)\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        return (dir, config, dir + "/trace")
    }

    @Test("a mouse drag in the window pulls to refresh, a click reaches a row, and the window shows the headless frame")
    func dragClickScreenshot() throws {
        let x = try XServer()
        defer { x.stop() }
        let (dir, config, trace) = try kiosk()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try ProgramRun(["run", "--config", config, "--trace", trace], environment: ["DISPLAY": x.display])
        defer { _ = run.finish(timeout: 0) }
        #expect(run.wait(for: "window 800x480 (x11"), "\(run.log)")
        // The first page is in once a frame draws rows: a first load shows the Loading view in
        // the list's place, with no header over it.
        let loaded = traceLines(trace) { $0.contains(where: drawsRows) }
        #expect(loaded.contains(where: drawsRows), "\(loaded.suffix(5))")
        #expect(states(of: loaded).isEmpty, "the first load opened the header: \(states(of: loaded))")
        let window = try x.window(of: run.process.processIdentifier)
        // Settled: two dumps a frame apart are the same, and equal to the headless frame.
        let expected = try expectedFrame(screen: "800x480")
        var shot = try x.screenshot(window)
        for _ in 0..<50 where shot.differingPixels(from: expected) != 0 { shot = try x.screenshot(window) }
        #expect(shot.width == 800 && shot.height == 480)
        #expect(shot.differingPixels(from: expected) == 0, "the window differs from the headless frame in \(shot.differingPixels(from: expected)) pixels")

        // A pull: the left button down near the top, dragged 300 pixels down at about 1000 px/s.
        var drag = ["mousemove", "--window", window, "400", "20", "mousedown", "1"]
        for y in stride(from: 40, through: 320, by: 20) { drag += ["sleep", "0.02", "mousemove", "--window", window, "400", "\(y)"] }
        try x.client("/usr/bin/xdotool", drag + ["sleep", "0.1", "mouseup", "1"])
        let pulled = traceLines(trace) { states(of: $0).count >= 3 }
        #expect(states(of: pulled) == ["pulling", "refreshing", "idle"], "\(states(of: pulled))")
        #expect(pulled.contains { $0.contains("\"kind\":\"pan\"") && $0.contains("\"phase\":\"changed\"") })
        #expect(pulled.filter { $0.contains("\"kind\":\"refresh\"") }.count == 2, "the first load and the pull's")

        // At rest again (a tap on a list still moving only stops it): the header closed to
        // within a pixel (the frame at 0 itself changes no pixel, so it is not drawn).
        let rested = traceLines(trace) { lines in
            guard let idle = lines.lastIndex(where: { $0.contains("\"to\":\"idle\"") }) else { return false }
            return lines[idle...].contains { offsetY(of: $0).map { $0 > -1 } ?? false }
        }
        #expect(rested.last.flatMap(offsetY) ?? -100 > -1, "\(rested.suffix(2))")
        // A click on the fourth row (rows are 72 points from the top: y 250 is in row 3).
        try x.client("/usr/bin/xdotool", ["mousemove", "--window", window, "400", "250", "click", "1"])
        let tapped = traceLines(trace) { $0.contains { $0.contains("\"kind\":\"select\"") } }
        #expect(tapped.contains { $0.contains("\"kind\":\"select\",\"row\":3") }, "\(tapped.suffix(3))")

        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0, "\(run.log)")
    }

    @Test("turned a quarter, the window shows the turned headless frame; resized, the UI is laid out again at the new size")
    func rotationAndResize() throws {
        let x = try XServer()
        defer { x.stop() }
        let (dir, config, trace) = try kiosk("rotation = 90\n")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try ProgramRun(["run", "--config", config, "--trace", trace], environment: ["DISPLAY": x.display])
        defer { _ = run.finish(timeout: 0) }
        #expect(run.wait(for: "window 800x480 (x11"), "\(run.log)")
        _ = traceLines(trace) { $0.contains(where: drawsRows) }
        let window = try x.window(of: run.process.processIdentifier)
        let turned = try expectedFrame(screen: "800x480", rotation: 90)
        var shot = try x.screenshot(window)
        for _ in 0..<50 where shot.differingPixels(from: turned) != 0 { shot = try x.screenshot(window) }
        #expect(shot.differingPixels(from: turned) == 0, "the turned window differs in \(shot.differingPixels(from: turned)) pixels")

        try x.client("/usr/bin/xdotool", ["windowsize", window, "1000", "600"])
        #expect(run.wait(for: "display: now 600x1000"), "\(run.log)")
        let resized = try expectedFrame(screen: "1000x600", rotation: 90)
        shot = try x.screenshot(window)
        for _ in 0..<50 where shot.differingPixels(from: resized) != 0 { shot = try x.screenshot(window) }
        #expect(shot.width == 1000 && shot.height == 600)
        #expect(shot.differingPixels(from: resized) == 0, "after the resize the window differs in \(shot.differingPixels(from: resized)) pixels")
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0, "\(run.log)")
    }
}

/// The header's states (the `to` of its state lines), in order.
private func states(of lines: [String]) -> [String] {
    lines.filter { $0.contains("\"kind\":\"state\"") && $0.contains("\"component\":\"header\"") }.compactMap { line in
        guard let range = line.range(of: "\"to\":\"") else { return nil }
        return String(line[range.upperBound...].prefix { $0 != "\"" })
    }
}

/// Whether a trace line is a frame that drew rows (the list is in).
private func drawsRows(_ line: String) -> Bool {
    guard line.contains("\"kind\":\"frame\""), let range = line.range(of: "\"rows\":") else { return false }
    return (Int(String(line[range.upperBound...].prefix { $0 != "," && $0 != "}" })) ?? 0) > 0
}

/// A frame line's `offsetY`.
private func offsetY(of line: String) -> Double? {
    guard line.contains("\"kind\":\"frame\""), let range = line.range(of: "\"offsetY\":") else { return nil }
    return Double(String(line[range.upperBound...].prefix { $0 != "," }))
}

@Suite("A window where there is no X server",
       .enabled(if: programPath != nil, "needs the panel-refresh executable beside the tests (swift test builds it)"),
       .enabled(if: haveSDL, "needs libSDL2-2.0.so.0 (Debian's libsdl2-2.0-0)"))
struct NoWindowTests {
    @Test("run --window with no DISPLAY fails at once with the reason (exit 1), not a hang or a crash")
    func noServer() throws {
        let dir = try scratchDirectory("nowindow")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // An empty DISPLAY and no Wayland: SDL has no video driver to open.
        let run = try ProgramRun(["run", "--window", "--set", "state.directory=\(dir)"],
                                 environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": "x11"])
        #expect(run.wait(for: "is DISPLAY set?"), "\(run.log)")
        #expect(run.log.contains("run: no window:"), "\(run.log)")
        #expect(run.finish() == 1, "\(run.log)")
    }
}
