import Foundation
import Testing
import PanelTestSupport
@testable import PanelHost
@testable import PanelKiosk
import PanelInput

/// The fixtures whose `replay --trace` is kept in Tests/PanelKioskTests/Traces: one per kind of
/// device and gesture (protocol B swipe, drag, taps; protocol A; a single-touch panel whose
/// positions are on other axes).
let goldenTraceFixtures: [(name: String, file: String, desc: String?, axes: (UInt16, UInt16)?)] = [
    ("01-swipe", "01-pixel-tablet-nvt.mt-b.1fg-swipe.evemu", nil, nil),
    ("02-drag-up-down", "02-atmel-maxtouch.mt-b.1fg-drag-up-down.evemu", nil, nil),
    ("03-fast-taps", "03-atmel-maxtouch.mt-b.1fg-fast-taps.evemu", nil, nil),
    ("05-elan-drag", "05-elan-cando.mt-b.1fg-drag-up-down.events", "05-elan-cando.desc", nil),
    ("07-ntrig-pull", "07-ntrig.mt-a.1fg-drag-nw-se.events", "07-ntrig.desc", nil),
    ("10-egalax-remapped", "10-egalax-usb.single-touch-quirk.events", "10-egalax-usb.desc", (AbsCode.z, AbsCode.rx)),
]

/// `panel-refresh replay --trace` of a fixture, as the program prints it; `perEvent`: with
/// `--display-rate events --resample off`, as replays ran before the cadence and resampling.
@MainActor
func traceText(_ fixture: (name: String, file: String, desc: String?, axes: (UInt16, UInt16)?), timings: Bool = false,
               perEvent: Bool = false) throws -> String {
    var options = ReplayCommand.Options(file: fixtures + "/" + fixture.file)
    options.descriptionFile = fixture.desc.map { fixtures + "/" + $0 }
    options.positionAxes = fixture.axes
    options.timings = timings
    if perEvent { (options.displayRate, options.resample) = (nil, false) }
    var lines = ""
    _ = try ReplayCommand.run(options) { lines += $0.json + "\n" }
    return lines
}

@MainActor
@Suite("Golden traces")
struct GoldenTraceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Traces").path

    @Test("two replays of every fixture are the same bytes", arguments: goldenTraceFixtures.map(\.name))
    func deterministic(_ name: String) throws {
        let fixture = try #require(goldenTraceFixtures.first { $0.name == name })
        let first = try traceText(fixture), second = try traceText(fixture)
        #expect(first == second)
        #expect(!first.contains("renderMs"), "timings only with --timings")
    }

    @Test("each fixture's trace is the one kept in Traces/ (PANEL_REFRESH_UPDATE_GOLDEN=1 writes them)",
          arguments: goldenTraceFixtures.map(\.name))
    func golden(_ name: String) throws {
        let fixture = try #require(goldenTraceFixtures.first { $0.name == name })
        let text = try traceText(fixture)
        let path = Self.folder + "/" + name + ".trace"
        if ProcessInfo.processInfo.environment["PANEL_REFRESH_UPDATE_GOLDEN"] == "1" {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        // Read as the program reads files (FoundationEssentials' String(contentsOfFile:) leaks a
        // page per large file under LeakSanitizer).
        let kept = String(decoding: try BoundedFile.read(path, limit: 1 << 22), as: UTF8.self)
        guard text != kept else { return }
        let a = text.split(separator: "\n", omittingEmptySubsequences: false)
        let b = kept.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        Issue.record("\(name): line \(line + 1) differs: now \(line < a.count ? String(a[line]) : "(end)"), kept \(line < b.count ? String(b[line]) : "(end)")")
    }

    @Test("--display-rate events --resample off replays as before the cadence: a frame at every event, the Atmel drag's trace kept from then")
    func perEvent() throws {
        let fixture = try #require(goldenTraceFixtures.first { $0.name == "02-drag-up-down" })
        let text = try traceText(fixture, perEvent: true)
        let path = Self.folder + "/02-drag-up-down-events.trace"
        if ProcessInfo.processInfo.environment["PANEL_REFRESH_UPDATE_GOLDEN"] == "1" {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let kept = String(decoding: try BoundedFile.read(path, limit: 1 << 22), as: UTF8.self)
        #expect(text == kept)
        #expect(text != (try traceText(fixture)), "at 60 Hz and resampled, another trace")
    }

    @Test("a replay draws at most one frame at an instant: no two frame lines share a time", arguments: goldenTraceFixtures.map(\.name))
    func oneFrameAnInstant(_ name: String) throws {
        let fixture = try #require(goldenTraceFixtures.first { $0.name == name })
        let times = try traceText(fixture).split(separator: "\n").filter { $0.contains(#""kind":"frame""#) }
            .compactMap { line -> Double? in
                guard let range = line.range(of: #""t":"#) else { return nil }
                return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == "-" })
            }
        #expect(times.count > 10)
        let repeated = zip(times, times.dropFirst()).filter { $0.0 >= $0.1 }
        #expect(repeated.isEmpty, "\(name): frame lines at \(repeated.prefix(5).map(\.0)) are not later than the one before")
    }

    @Test("--timings adds renderMs to the frame lines and nothing else")
    func timings() throws {
        let fixture = goldenTraceFixtures[0]
        let plain = try traceText(fixture), timed = try traceText(fixture, timings: true)
        let stripped = timed.replacing(/,"renderMs":[0-9.]+/, with: "")
        #expect(timed.contains("renderMs"))
        #expect(stripped == plain)
    }
}

@MainActor
@Suite("Replay with a whole configuration")
struct ReplayConfigurationTests {
    @Test("replay --config with a file source shows that file's items, loaded before the recording")
    func fileSource() throws {
        let dir = try scratchDirectory("replay-file")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let items = (1...7).map { #"{"title":"Shelf \#($0)","subtitle":"aisle"}"# }.joined(separator: ",")
        try "[\(items)]".write(toFile: dir + "/items.json", atomically: true, encoding: .utf8)
        var configuration = KioskConfiguration()
        try configuration.set("data.source", "file")
        try configuration.set("data.file", dir + "/items.json")
        var options = ReplayCommand.Options(file: fixtures + "/01-pixel-tablet-nvt.mt-b.1fg-swipe.evemu")
        options.configuration = configuration
        let trace = try ReplayCommand.run(options).trace
        let rows = trace.compactMap { event -> Int? in
            if case let .frame(_, _, _, rows, _) = event { return rows }
            return nil
        }
        #expect(!rows.isEmpty && rows.allSatisfy { $0 == 7 }, "every frame shows the file's 7 items, not the sample's 20")
    }
}
