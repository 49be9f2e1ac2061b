// panel-refresh: pull-to-refresh on a Linux touch panel. See `panel-refresh --help`.
import Dispatch
import Glibc
import PanelKiosk

let version = ProgramVersion.current
let usage = CommandHelp.overview(version: version)

/// Logs `message` and exits with `code`; a usage error (2) also prints the usage of `command`
/// (only that command's line, with where its help is), or the overview when there is none.
func fail(_ message: String, code: Int32, command: String? = nil) -> Never {
    Log.error(message)
    if code == 2 {
        var stream = StandardError()
        if let help = command.flatMap(CommandHelp.named) {
            print(help.usage + "\n(panel-refresh \(help.name) --help shows its options)", to: &stream)
        } else {
            print(usage, to: &stream)
        }
    }
    exit(code)
}

/// "YYYY-MM-DD" of a Unix time, UTC.
func isoDay(_ seconds: Double) -> String {
    var t = time_t(seconds)
    var parts = tm()
    gmtime_r(&t, &parts)
    return TextFormat.padded(Int(parts.tm_year) + 1900, 4) + "-" + TextFormat.padded(Int(parts.tm_mon) + 1, 2) + "-"
        + TextFormat.padded(Int(parts.tm_mday), 2)
}

/// Whether `name` is in `arguments`, removing it (the options before any command).
func flag(_ name: String, in arguments: inout [String]) -> Bool {
    guard let index = arguments.firstIndex(of: name) else { return false }
    arguments.remove(at: index)
    return true
}

@MainActor
func main() async -> Int32 {
    // First of all: fds 0-2 open (on /dev/null if they came closed), so no pipe or file
    // opened below takes a standard stream's number.
    StandardStreams.secure()
    // Then, before anything can take long: a signal from now on waits in a pipe for the
    // run loop instead of ending the program, and SIGPIPE and stray signals are ignored
    // (docs/reliability.md).
    do { try SignalPipe.install() } catch { Log.warning("signals keep their default actions: \(error)") }
    // Before any work leaves the main thread: worker stacks that hold no 2 MiB page.
    do { try WorkerStacks.limit() } catch { Log.warning("\(error)") }
    var arguments = Array(CommandLine.arguments.dropFirst())
    Log.verbose = flag("--verbose", in: &arguments)
    if flag("--version", in: &arguments) || flag("-V", in: &arguments) {
        print("panel-refresh \(version)")
        return 0
    }
    if flag("--man-conf", in: &arguments) {
        let epoch = getenv("SOURCE_DATE_EPOCH").flatMap { Double(String(cString: $0)) } ?? 0
        print(KioskConfiguration.manPage(version: version, date: isoDay(epoch)), terminator: "")
        return 0
    }
    if flag("--man", in: &arguments) {
        // The man page: its date is the release's, given by the packager (SOURCE_DATE_EPOCH).
        let epoch = getenv("SOURCE_DATE_EPOCH").flatMap { Double(String(cString: $0)) } ?? 0
        print(CommandHelp.manPage(version: version, date: isoDay(epoch)), terminator: "")
        return 0
    }
    if let first = arguments.first, let help = CommandHelp.named(first),
       arguments.contains("--help") || arguments.contains("-h") {
        print(help.text)
        return 0
    }
    if arguments.first == "help" {
        guard arguments.count > 1 else {
            print(usage)
            return 0
        }
        guard let help = CommandHelp.named(arguments[1]) else { fail("no command \"\(arguments[1])\"", code: 2) }
        print(help.text)
        return 0
    }
    if arguments.isEmpty || flag("--help", in: &arguments) || flag("-h", in: &arguments) {
        print(usage)
        return arguments.isEmpty && CommandLine.arguments.count == 1 ? 2 : 0
    }
    let command = arguments.removeFirst()
    // The kiosk's loops read signals from the pipe (a window's close button is a SIGTERM too).
    if command != "run" && !(command == "demo" && arguments.contains("--window")) { SignalPipe.release() }
    do {
        guard let help = CommandHelp.named(command) else {
            throw UsageError("unknown command \"\(command)\"" + Suggestion.hint(for: command, in: CommandHelp.all.map(\.name)))
        }
        // Every command's options come from its entry in CommandHelp: parsed, checked and
        // documented from the one table.
        let options = try help.parse(arguments)
        switch command {
        case "run":
            let explicit = options.value("--config")
            let path = explicit ?? (Folders.exists(KioskConfiguration.defaultPath) ? KioskConfiguration.defaultPath : nil)
            var configuration = try path.map { try KioskConfiguration.load(path: $0) } ?? KioskConfiguration()
            try RunCommand.apply(options, to: &configuration)
            try run(configuration, path: path, tracePath: options.value("--trace"), playPath: options.value("--play"))
        case "check":
            if let items = options.value("--items") {
                return try checkItems(items, config: options.value("--config"))
            }
            let path = options.value("--config") ?? KioskConfiguration.defaultPath
            let errors = KioskConfiguration.check(path: path, files: !options.isSet("--keys-only"))
            for error in errors { Log.error("\(error)") }
            guard errors.isEmpty else {
                print("check: \(path): \(errors.count) error\(errors.count == 1 ? "" : "s")")
                return 1
            }
            print("check: \(path) is valid")
        case "demo":
            let (width, height) = try options.screen() ?? (800, 480)
            let out = options.value("--out")
                ?? Folders.temporary + "/panel-refresh-demo-\(getpid())"
            if options.isSet("--window") {
                // In a window: the script plays, then the window stays for the mouse until closed.
                let display = try WindowDisplay(width: width, height: height)
                Log.info("showing the demo in a window (\(display.summary))")
                let kiosk = try LiveDemo.kiosk(display: display, fonts: try FontLibrary(), notifier: SilentNotifier(),
                                               clock: MonotonicClock.makeClock(), executor: RealTimeExecutor())
                if let interval = display.frameInterval { kiosk.host.frameInterval = interval }
                withExtendedLifetime(kiosk) { RealTimeDriver(kiosk.host).run() }
            }
            if !options.isSet("--headless") {
                do {
                    let display = try Configuration().openDisplay()
                    Log.info("showing the demo on the panel (\(display.width)x\(display.height))")
                    let kiosk = try LiveDemo.kiosk(display: display, fonts: try FontLibrary(), notifier: SystemdNotifier(),
                                                   clock: MonotonicClock.makeClock(), executor: RealTimeExecutor())
                    let driver = RealTimeDriver(kiosk.host)
                    driver.endsAfterScript = true
                    driver.onExit = { code in
                        print("demo: shown on the panel")
                        exit(code)
                    }
                    withExtendedLifetime(kiosk) { driver.run() }
                } catch {
                    Log.info("no usable display (\(error)): running the demo on the headless display")
                }
            }
            let result = try DemoCommand.run(width: width, height: height, directory: out)
            print("demo: \(result.frames) frames in \(result.directory)/frames, animation \(result.animation)")
        case "replay":
            guard let file = options.positional("FILE") else { throw UsageError("replay needs a recording") }
            var replay = ReplayCommand.Options(file: file)
            replay.descriptionFile = options.value("--desc")
            if let (width, height) = try options.screen() { (replay.width, replay.height) = (width, height) }
            replay.rotation = try options.rotation() ?? .none
            replay.framesDirectory = options.value("--frames")
            replay.refreshSeconds = try options.double("--refresh-seconds", in: NumericOption.refreshSeconds) ?? replay.refreshSeconds
            if let axes = options.value("--axes") { replay.positionAxes = try NumericOption.axes("--axes", axes) }
            if let config = options.value("--config") { replay.configuration = try KioskConfiguration.load(path: config) }
            replay.timings = options.isSet("--timings")
            if let resample = options.value("--resample") {
                guard resample == "on" || resample == "off" else { throw UsageError("--resample takes on or off, not \(resample)") }
                replay.resample = resample == "on"
            }
            if let rate = options.value("--display-rate") {
                replay.displayRate = rate == "events" ? nil : try NumericOption.double("--display-rate", rate, in: NumericOption.displayRate)
            }
            replay.startPoints = try options.double("--offset", in: NumericOption.offset)
            if let filter = options.value("--filter") {
                replay.filter = try ReplayCommand.filter(filter)
            }
            if let window = options.value("--frame-window") {
                replay.frameWindow = window == "off" ? .off
                    : .fixed(try NumericOption.double("--frame-window", window, in: NumericOption.frameWindow) / 1000)
            }
            let result = try ReplayCommand.run(replay, onTrace: options.isSet("--trace") ? { print($0.json) } : nil)
            Log.info("replayed \(file): \(result.framesPresented) frames")
        case "hw-check":
            // For the VM harness (docs/deployment.md): checks on a real kernel, not for kiosks.
            let hold = try options.double("--hold", in: NumericOption.holdSeconds) ?? 0
            let result = HardwareCheck.run(fixtures: options.value("--fixtures"), hold: hold) { print($0); fflush(nil) }
            print("hw-check: \(result.passed) passed, \(result.failed) failed")
            return result.failed == 0 ? 0 : 1
        case "expected-frame":
            // For the VM harness: the frame the kiosk shows after N refreshes, as a PPM.
            guard let out = options.positional("FILE") else { throw UsageError("expected-frame needs an output file") }
            let (width, height) = try options.screen() ?? (1280, 800)
            let refreshes = try options.integer("--refreshes", in: NumericOption.refreshes) ?? 1
            let rotation = try options.rotation() ?? .none
            // The size is the glass's; the picture is drawn at its turned size, then turned.
            let (pw, ph) = rotation.swapsSides ? (height, width) : (width, height)
            let configuration = try options.value("--config").map { try KioskConfiguration.load(path: $0) } ?? KioskConfiguration()
            let frame = options.isSet("--test-pattern")
                ? ExpectedFrame.testPattern(width: width, height: height, damaged: options.isSet("--damaged"))
                : ExpectedFrame.onGlass(try ExpectedFrame.render(width: pw, height: ph, refreshes: refreshes,
                                                                 refreshing: options.isSet("--refreshing"),
                                                                 configuration: configuration), rotation: rotation)
            try OutputFile.write(ExpectedFrame.ppm(frame), to: out)
        case "ctl":
            return try control(options)
        case "devices":
            print(DevicesCommand.report(), terminator: "")
        case "record":
            let discovered = try TouchscreenDiscovery.list().first?.node
            guard let path = options.positional("DEVICE") ?? discovered else {
                // Nothing wrong with the command line: the machine has no touchscreen (exit 1).
                throw NoTouchscreen()
            }
            try record(path)
        case "inject":
            guard let file = options.positional("FILE") else { throw UsageError("inject needs a recording") }
            let recording = try EvemuRecording.load(path: file, descriptionPath: options.value("--desc"))
            let device = try UInputDevice(description: recording.device)
            Log.info("injecting \(file) through \(device.devnode ?? "a uinput device")")
            // The first touch only once the panel can read it: a reader (the panel, or logind
            // for it) has the new node open, then half a second for the panel to add it to its
            // loop. A fixed half second from the device's creation was too short where udev
            // is slow (an emulated arm64 guest lost the first touch of a fresh start). Without a
            // reader within 10 s (no panel running, or one this user cannot see) it plays anyway.
            let watch = ContinuousClock.now
            while !device.hasReader, ContinuousClock.now - watch < .seconds(10) {
                try await Task.sleep(for: .milliseconds(50))
            }
            if !device.hasReader { Log.warning("inject: nothing has \(device.devnode ?? "the device") open after 10 s; playing anyway") }
            try await Task.sleep(for: .milliseconds(500))
            try await device.play(recording, clock: ContinuousClock())
        default:
            throw UsageError("unknown command \"\(command)\"")
        }
        return 0
    } catch let error as UsageError {
        fail(error.description, code: 2, command: command)
    } catch let error as ConfigurationError where error.file == RunCommand.commandLine {
        // A bad --set, --rotation or --screen is a bad command line, as any other option.
        fail(error.description, code: 2, command: command)
    } catch {
        fail("\(command): \(error)", code: 1)
    }
}

/// `check --items FILE`: the items whose texts no installed face draws whole (and the
/// configuration too, when one is named: its [rows] fields read the items).
@MainActor
func checkItems(_ path: String, config: String?) throws -> Int32 {
    var fields = ItemParser.Fields()
    var failed = false
    if let config {
        let errors = KioskConfiguration.check(path: config)
        for error in errors { Log.error("\(error)") }
        failed = !errors.isEmpty
        if let configuration = try? KioskConfiguration.load(path: config) { fields = configuration.rowFields }
    }
    let findings = try ItemCoverage.check(path: path, fields: fields, fonts: try FontLibrary())
    for finding in findings { print("check: \(path): \(finding)") }
    guard findings.isEmpty else {
        print("check: \(path): \(findings.count) text\(findings.count == 1 ? "" : "s") with characters no installed face draws")
        return 1
    }
    print("check: \(path): every item's text can be drawn")
    return failed ? 1 : 0
}

/// `ctl COMMAND [FILE]`: one request to a running kiosk; its answer printed (or, for a
/// screenshot, written). Exit 0 when the kiosk did it, 1 when it said why not or did not answer.
@MainActor
func control(_ options: ParsedArguments) throws -> Int32 {
    guard let name = options.positional("COMMAND"), ControlCommand.names.contains(name) else {
        let given = options.positional("COMMAND")
        throw UsageError((given.map { "unknown ctl command \"\($0)\"" + Suggestion.hint(for: $0, in: ControlCommand.names) } ?? "")
                         + (given == nil ? "ctl needs one of " : " (ctl takes ") + ControlCommand.names.joined(separator: ", ") + (given == nil ? "" : ")"))
    }
    // brightness and schedule take their value where screenshot takes its file.
    let takesValue = ControlCommand.values[name]
    let value = takesValue != nil ? options.positional("FILE") : nil
    guard var command = ControlCommand(line: name + (value.map { " " + $0 } ?? "")) else {
        throw UsageError("ctl \(name) takes \(takesValue ?? "nothing more")")
    }
    if options.isSet("--openmetrics") {
        guard command == .metrics(.prometheus) else { throw UsageError("--openmetrics goes with metrics") }
        command = .metrics(.openMetrics)
    }
    let file = takesValue == nil ? options.positional("FILE") : nil
    if command == .screenshot && file == nil { throw UsageError("ctl screenshot needs FILE (- for standard output)") }
    if command != .screenshot && file != nil { throw UsageError("only ctl screenshot takes FILE") }
    // The configuration's socket, so that a kiosk with state.control-socket set is found as
    // its own `run` finds it; a file that does not read leaves the defaults (run says why).
    let config = options.value("--config") ?? (Folders.exists(KioskConfiguration.defaultPath) ? KioskConfiguration.defaultPath : nil)
    let configured = config.flatMap { try? KioskConfiguration.load(path: $0) }?.controlSocket
    let path = ControlClient.socketPath(given: options.value("--socket") ?? configured,
                                        runtimeDirectory: getenv("RUNTIME_DIRECTORY").map { String(cString: $0) })
    switch try ControlClient.request(command, path: path) {
    case .error(let message):
        Log.error("ctl \(command.line): \(message)")
        return 1
    case .ok(let payload):
        guard let file, command == .screenshot else {
            writeStandardOutput(payload)
            return 0
        }
        var bytes = payload
        if file.hasSuffix(".ppm") {
            let picture = try PNG.decode(payload, path: "screenshot")
            bytes = ExpectedFrame.ppm(picture)
        }
        if file == "-" {
            writeStandardOutput(bytes)
        } else {
            try OutputFile.write(bytes, to: file)
            var stream = StandardError()
            print("ctl: wrote \(file)", to: &stream)
        }
        return 0
    }
}

/// All of `bytes` to standard output (a PNG is binary: not through print).
func writeStandardOutput(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let n = SystemCall.uninterrupted { bytes[offset...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) } }
        guard n > 0 else { return }
        offset += n
    }
}

/// `record` with no device named on a machine where udev reports no touchscreen.
struct NoTouchscreen: Error, CustomStringConvertible {
    var description: String { "no touchscreen found: connect one, or give a device, e.g. /dev/input/event3" }
}

/// Starts the kiosk; never returns (the loop runs until a signal ends the process).
/// `tracePath`: the trace's lines (as `replay --trace` prints them, with `renderMs`) appended
/// to this file, `t` counted from the start of each list (the first, each a reload builds).
@MainActor
func run(_ configuration: KioskConfiguration, path: String?, tracePath: String?, playPath: String?) throws -> Never {
    let kiosk = try Kiosk.panel(configuration: configuration, path: path)
    let host = kiosk.host
    if let playPath {
        // Read before the kiosk starts, so a bad file is a clear error, not a silent run.
        let recording = try EvemuRecording.load(path: playPath, descriptionPath: nil)
        let replay = try EvemuReplay(recording: recording, width: Double(host.display.width), height: Double(host.display.height))
        // The kiosk's clock is CLOCK_MONOTONIC (RealTimeDriver); a second leaves the first page
        // time to show, as a finger would.
        host.schedule(replay.frames(start: MonotonicClock.now() + playDelay))
    }
    if let tracePath {
        guard let file = fopen(tracePath, "ae") else {
            throw UsageError("--trace \(tracePath): \(String(cString: strerror(errno)))")
        }
        kiosk.onList = { list in
            list.tracesTimings = true
            list.beginTrace(origin: list.scene.clock.now)
            // The origin on the machine's clock, so the trace lines up with other programs'
            // times (the fleet bench's publishes): the kiosk's clock is CLOCK_MONOTONIC.
            fputs("{\"t\":0,\"kind\":\"clock\",\"monotonic\":\(TextFormat.number(list.scene.clock.now))}\n", file)
            list.onTrace = { event in
                fputs(event.json + "\n", file)
                fflush(file)
            }
        }
    }
    // The kiosk lives as long as its host runs: the host reaches it weakly.
    withExtendedLifetime(kiosk) { RealTimeDriver(host).run() }
}

/// Seconds from the start of `run --play` to the recording's first event.
let playDelay = 1.0

/// Prints the device's description, then its events as evemu lines, until interrupted (as
/// evemu-record: SIGINT ends the process; every batch is flushed, so the output is complete).
@MainActor
func record(_ path: String) throws {
    let device = try EvdevDevice(path: path, requireTouchscreen: false)
    print(EvemuWriter.description(device.device), terminator: "")
    print("################################\n#      Waiting for events      #\n################################")
    fflush(nil)
    var first: Int64?
    var waiter = pollfd(fd: device.fileDescriptor, events: Int16(POLLIN), revents: 0)
    while true {
        // Blocks until the device has events: no busy loop.
        guard SystemCall.uninterrupted({ poll(&waiter, 1, -1) }) >= 0 else { throw InputError.failed(path: path, call: "poll", errno: errno) }
        let events = try device.readEvents()
        // As evemu-record: the first event at 0.000001, the rest relative to it.
        let origin = first ?? (events.first.map { $0.microseconds - 1 } ?? 0)
        first = origin
        print(EvemuWriter.events(events.map { event in
            var e = event
            e.microseconds -= origin
            return e
        }), terminator: "")
        fflush(nil)
    }
}

exit(await main())
