import Foundation
import Testing
import PanelTestSupport
import PanelDisplay
@testable import PanelHost
@testable import PanelKiosk
import PanelInput
import PanelRefresh
import PanelRender

@Suite("Configuration")
struct ConfigurationTests {
    @Test("a full file sets every kind of value")
    func parse() throws {
        let text = """
        # panel
        [data]
        source = command
        command = /usr/bin/items --feed news
        page-size = 25
        timeout = 3.5
        [input]
        devices = /dev/input/event3, /dev/input/event4
        rotation = 270
        calibration = 0 1 0 -1 0 1
        invert-y = yes
        position-axes = 02,03
        [display]
        backend = headless
        mode = 1280x720
        ; colours
        [appearance]
        locale = ru_RU.UTF-8
        footer = back-normal
        label-color = #112233
        [rows]
        title = name
        """
        let c = try KioskConfiguration.parse(text, file: "panel.conf")
        #expect(c.source == .command && c.command == ["/usr/bin/items", "--feed", "news"])
        #expect(c.pageSize == 25 && c.timeout == 3.5)
        #expect(c.devices == ["/dev/input/event3", "/dev/input/event4"])
        #expect(c.rotation == .clockwise270 && c.invertY && c.calibration == CalibrationMatrix(0, 1, 0, -1, 0, 1))
        #expect(c.positionAxes?.x == AbsCode.z && c.positionAxes?.y == AbsCode.rx)
        #expect(c.backend == .headless && c.mode?.width == 1280)
        #expect(c.locale == "ru_RU.UTF-8" && c.footer == .backNormal && c.labelColor == Color(red: 0x11, green: 0x22, blue: 0x33))
        #expect(c.rowFields.title == "name")
    }

    @Test("errors name the file and line", arguments: [
        ("[data]\nsource = ftp", 2, "is not one of"),
        ("[data]\npage-size = 0", 2, "whole number"),
        ("[nonsense]", 1, "unknown section"),
        ("[data]\ncolour = red", 2, "unknown key data.colour"),
        ("source = sample", 1, "outside any [section]"),
        ("[data]\npage-size = 20\npage-size = 30", 3, "set twice"),
        ("[input]\nrotation = 45", 2, "0, 90, 180 or 270"),
        ("[input]\ncalibration = 1 0 0", 2, "six numbers"),
        ("[appearance]\nbackground = blue", 2, "not a colour"),
        ("[data]\nfile = relative.json", 2, "absolute path"),
        ("[data]\nno equals sign", 2, "key = value"),
        ("[data]\nsource = http", 0, "needs data.url"),
        ("[appearance]\nheader = gif", 0, "gif-frames"),
    ])
    func errors(text: String, line: Int, message: String) {
        do {
            _ = try KioskConfiguration.parse(text, file: "/etc/panel-refresh/config")
            Issue.record("accepted \(text)")
        } catch {
            // A typed throw: the error is a ConfigurationError.
            #expect(error.file == "/etc/panel-refresh/config")
            #expect(error.line == line)
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test("command-line overrides go through the same checks")
    func overrides() throws {
        var c = KioskConfiguration()
        try c.set("input.rotation", "90")
        #expect(c.rotation == .clockwise90)
        #expect(throws: ConfigurationError.self) { try c.set("input.rotation", "91") }
        #expect(throws: ConfigurationError.self) { try c.set("nope.key", "1") }
    }

    @Test("docs/configuration.md documents every key")
    func documented() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/configuration.md")
        let text = try fileText(docs.path)
        var section = ""
        var documented = Set<String>()
        for line in text.split(separator: "\n") {
            if line.hasPrefix("## [") { section = String(line.dropFirst(4).dropLast()) }
            if line.hasPrefix("| `"), let name = line.split(separator: "`").dropFirst().first { documented.insert("\(section).\(name)") }
        }
        #expect(Set(KioskConfiguration.keyNames) == documented)
    }
}

@MainActor
@Suite("Appearance")
struct AppearanceTests {
    @Test("each header and footer style builds its component, in the configured colour and font")
    func styles() throws {
        var c = KioskConfiguration()
        c.labelColor = Color(red: 1, green: 2, blue: 3)
        c.font = "DejaVu Serif"
        let localizer = RefreshLocalizer()
        for (style, type) in [(KioskConfiguration.HeaderStyle.normal, "NormalHeader"), (.state, "StateHeader")] {
            c.header = style
            let header = try Appearance.header(c, localizer: localizer)
            #expect(String(describing: Swift.type(of: header)) == type)
            #expect(header.stateLabel.textColor == Color(red: 1, green: 2, blue: 3))
            #expect(header.stateLabel.font == Font(family: "DejaVu Serif", size: 14, weight: .bold))
        }
        for (style, type) in [(KioskConfiguration.FooterStyle.autoNormal, "AutoNormalFooter"), (.autoState, "AutoStateFooter"),
                              (.backNormal, "BackNormalFooter"), (.backState, "BackStateFooter")] {
            c.footer = style
            #expect(String(describing: Swift.type(of: try Appearance.footer(c, localizer: localizer))) == type)
        }
    }

    @Test("gif frames come from the folder, per state, in name order; a folder without frames is an error")
    func gif() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("frames-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["idle-02.png", "idle-01.png", "refreshing-1.png"] {
            try PNG.write(Surface(width: 30, height: 60, format: .argb8888), to: dir + "/" + name)
        }
        var c = KioskConfiguration()
        c.header = .gif
        c.gifFrames = dir
        let header = try #require(try Appearance.header(c, localizer: RefreshLocalizer()) as? GifHeader)
        #expect(header.images(for: .idle)?.images.map { URL(fileURLWithPath: $0.name).lastPathComponent } == ["idle-01.png", "idle-02.png"])
        #expect(header.images(for: .refreshing)?.images.count == 1)
        #expect(header.height == 60, "grows to the frames")
        c.gifFrames = FileManager.default.temporaryDirectory.path + "/no-such-folder-\(UUID().uuidString)"
        #expect(throws: ConfigurationError.self) { try Appearance.header(c, localizer: RefreshLocalizer()) }
    }

    @Test("a replay with a configuration uses its locale and rotation")
    func replayConfig() throws {
        var c = KioskConfiguration()
        c.locale = "ru_RU"
        c.rotation = .upsideDown
        var options = ReplayCommand.Options(file: fixtures + "/07-ntrig.mt-a.1fg-drag-nw-se.events")
        options.descriptionFile = fixtures + "/07-ntrig.desc"
        options.configuration = c
        let trace = try ReplayCommand.run(options).trace
        // Turned upside down, the top-left-to-bottom-right drag goes up: it scrolls, no refresh.
        #expect(!trace.contains { if case .refresh = $0 { return true }; return false })
        guard case let .pan(_, _, x, y, _, _, _)? = trace.first(where: { $0.kind == "pan" }) else {
            Issue.record("no pan")
            return
        }
        #expect(x > 700 && y > 400, "the first contact is at the bottom-right")
    }
}

@MainActor
@Suite("Refresh options")
struct RefreshOptionTests {
    @Test("[refresh] keys reach the components; bad values name the key")
    func options() throws {
        let text = """
        [refresh]
        trigger-distance = 80
        max-drag = 200
        two-level-distance = 300
        auto-alpha = true
        footer-trigger-percent = -0.5
        footer-trigger-times = -1
        footer-hides-when-not-full = yes
        result-seconds = 1.5
        minimum-seconds = 0.8
        [appearance]
        header-position = front
        """
        let c = try KioskConfiguration.parse(text, file: "test.conf")
        let localizer = RefreshLocalizer()
        let header = try Appearance.header(c, localizer: localizer)
        #expect(header.triggerDistance == 80 && header.maxDragDistance == 200 && header.automaticallyChangeAlpha)
        #expect(header.twoLevelTriggerDistance == 300)
        #expect(header.position == .front && header.minimumRefreshingDuration == 0.8)
        let footer = try #require(try Appearance.footer(c, localizer: localizer) as? AutoFooter)
        #expect(footer.minimumRefreshingDuration == 0.8)
        #expect(footer.triggerAutomaticallyRefreshPercent == -0.5 && footer.autoTriggerTimes == -1 && footer.hidesWhenContentNotFull)
        #expect(c.resultSeconds == 1.5)
        let defaults = try Appearance.header(KioskConfiguration(), localizer: localizer)
        #expect(defaults.triggerDistance == nil && defaults.maxDragDistance == nil && !defaults.automaticallyChangeAlpha)
        #expect(defaults.position == .push && defaults.minimumRefreshingDuration == 0.3)
        #expect(try KioskConfiguration.parse("[refresh]\ntrigger-distance = 0\n", file: "t").triggerDistance == nil, "0: the height")
        for bad in ["trigger-distance = -5", "max-drag = nan", "footer-trigger-times = 0", "footer-trigger-percent = 2", "result-seconds = 31",
                    "minimum-seconds = 11", "minimum-seconds = -1"] {
            #expect(throws: ConfigurationError.self) { try KioskConfiguration.parse("[refresh]\n\(bad)\n", file: "t") }
        }
        #expect(throws: ConfigurationError.self) { try KioskConfiguration.parse("[appearance]\nheader-position = above\n", file: "t") }
    }

    @Test("a successful refresh shows its result for result-seconds in the kiosk")
    func resultDwell() throws {
        var configuration = KioskConfiguration()
        configuration.stateDirectory = try scratchDirectory("state")
        configuration.resultSeconds = 1
        let kiosk = try VirtualKiosk(configuration: configuration, notifier: RecordingNotifier()) { _, animator, _ in
            SampleItemSource(delay: 0.2, animator: animator)
        }
        var states: [RefreshState] = []
        // Heard after the kiosk's own handlers, which it sets when the list goes on the stage.
        let previous = kiosk.list.header.stateDidChangeHandler
        kiosk.list.header.stateDidChangeHandler = { previous?($0, $1); states.append($1) }
        kiosk.start()
        kiosk.settle(limit: 5)
        // The first load shows in the list's place; the refresh after it opens the header.
        #expect(states.isEmpty)
        kiosk.list.reload()
        kiosk.settle(limit: 5)
        #expect(states.contains(.finished))
        #expect(kiosk.list.header.state == .idle)
    }
}

@MainActor
@Suite("Second floor in the kiosk")
struct TwoLevelKioskTests {
    @Test("appearance.two-level: a long pull opens the PNG over the screen; the trace names twoLevel; a bad file is a configuration error")
    func kiosk() throws {
        let dir = try scratchDirectory("two-level")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let png = dir + "/floor.png"
        let picture = Surface(width: 40, height: 24)
        Canvas(surface: picture).fill(Rect(x: 0, y: 0, width: 40, height: 24), color: Color(red: 200, green: 40, blue: 40))
        try PNG.write(picture, to: png)
        var configuration = KioskConfiguration()
        configuration.stateDirectory = dir
        try configuration.set("appearance.two-level", png)
        // A portrait screen: the rubber band lets a finger show 2.5 header heights of pull.
        let display = HeadlessDisplay(width: 400, height: 800)
        let kiosk = try VirtualKiosk(configuration: configuration, display: display, notifier: RecordingNotifier()) { _, animator, _ in
            SampleItemSource(delay: 0.1, animator: animator)
        }
        let clock = kiosk.clock
        var states: [String] = []
        kiosk.list.onTrace = { if case let .state(_, "header", _, to) = $0 { states.append(to.rawValue) } }
        kiosk.start()
        func run(until end: Double) { kiosk.run(until: end) }
        run(until: 2)
        var script = GestureScript(start: clock.now + 0.1)
        script.drag(from: Point(x: 200, y: 10), to: Point(x: 200, y: 790), duration: 0.5, hold: 0.2)
        kiosk.play(script.frames)
        run(until: clock.now + 2)
        #expect(kiosk.list.header.state == .twoLevel)
        #expect(states.contains("releaseToTwoLevel") && states.last == "twoLevel")
        // The floor fills the screen: the picture, scaled to fit, is in the middle.
        #expect(display.backSurface.pixel(x: 200, y: 400) == 0xffc8_2828)
        var bad = KioskConfiguration()
        try bad.set("appearance.two-level", dir + "/missing.png")
        #expect(throws: ConfigurationError.self) { try Appearance.header(bad, localizer: RefreshLocalizer()) }
    }
}
