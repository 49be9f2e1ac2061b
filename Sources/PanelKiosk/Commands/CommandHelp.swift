import PanelHost

/// The program's commands, their options and examples: one text for `panel-refresh --help`,
/// `panel-refresh COMMAND --help` and the man page `panel-refresh(1)` (`--man`), so the three
/// never disagree.
public struct CommandHelp: Sendable {
    /// The command's name ("run").
    public let name: String
    /// What the command does, a paragraph.
    public let summary: String
    /// Its options and arguments, in the order the synopsis shows them.
    public let options: [CommandOption]
    /// Examples with what each does.
    public let examples: [(command: String, meaning: String)]

    /// Arguments after the name, as in a synopsis ("FILE [--desc FILE]"): from the options.
    public var synopsis: String { options.map(\.synopsis).joined(separator: " ") }

    /// Parses a command line (after the command's name) against these options.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(arguments, for: self)
    }

    /// Every command, in the order the overview lists them.
    public static let all: [CommandHelp] = [
        CommandHelp(
            name: "run",
            summary: """
            The kiosk: the panel's display (DRM, else fbdev; see display.backend), the touchscreens udev reports \
            (or --device), the configured data source. Runs until SIGTERM or SIGINT, rereads the configuration on \
            SIGHUP, logs frame timings on SIGUSR1 (and every minute while touched), and tells systemd READY, \
            STATUS, WATCHDOG and STOPPING. The configuration is /etc/panel-refresh/config when it exists.
            """,
            options: [.config("read the configuration from FILE instead of /etc/panel-refresh/config (keys: panel-refresh.conf(5))"),
                      .value("--set", "SECTION.KEY=VALUE", "override one key; may be repeated", repeats: true),
                      .value("--device", "PATH", "use this touchscreen (an /dev/input/event node) instead of udev's; may be repeated", repeats: true),
                      .rotation("display.rotation: the picture and touch turned together, clockwise"),
                      .screen("the headless display's and the window's size (display.headless-size, display.window-size)"),
                      .flag("--window", "show the kiosk in a desktop window (display.backend = window; SDL2 and an X server)"),
                      .value("--trace", "FILE", "append the trace's JSON lines to FILE, frame lines with renderMs (as replay --trace --timings)"),
                      .value("--play", "FILE", "play an evemu recording as touches over the whole picture, from 1 s after the start (no uinput: profiles and scripted checks)")],
            examples: [("panel-refresh run", "what the systemd unit runs: the configuration is /etc/panel-refresh/config"),
                       ("panel-refresh run --set data.source=file --set data.file=/srv/items.json --rotation 90", "a portrait panel showing a file"),
                       ("panel-refresh run --window --config ./my.conf", "the same kiosk in a window on the desktop")]),
        CommandHelp(
            name: "ctl",
            summary: """
            Asks a running kiosk through its control socket (--socket, else the configuration's \
            state.control-socket, else $RUNTIME_DIRECTORY/control in the unit, else /run/panel-refresh/control): \
            status prints where it stands as JSON (state, items, \
            the last success and its age, the last error, the display, the touchscreens, version, uptime, \
            frames, dropped frames); refresh starts a refresh as a pull would; screenshot FILE writes what the \
            glass shows (the scanned-out buffer, turned as the glass is) as PNG, or as PPM when FILE ends in \
            .ppm (as QEMU's screendump), - for standard output; metrics prints the metrics in Prometheus' text \
            format; blank and wake turn the panel off and on; brightness PERCENT lights it at 1 to 100 % of \
            the backlight's maximum until the night hours begin or end (brightness auto: the configured level \
            again); schedule off suspends the night and off hours, schedule on follows them again; identify \
            [SECONDS] shows the panel's name, host, addresses and version over the list, with a QR code of \
            them, for 30 s (or SECONDS, at most 600), so the person in front of it knows which panel it is; interval SECONDS \
            sets the seconds between refreshes within mqtt.interval-range, and theme light or dark the \
            list's colours, each until a reload (auto: the configured one again). Only root \
            and the kiosk's own user are answered.
            """,
            options: [.positional("COMMAND", "status, refresh, screenshot, metrics, blank, wake, brightness, schedule, identify, interval or theme"),
                      .positional("FILE", "for screenshot: where the picture goes (- for standard output); for brightness: PERCENT or auto; for schedule: on or off; for identify: SECONDS (30); for interval: SECONDS or auto; for theme: light, dark or auto", optional: true),
                      .value("--socket", "PATH", "the control socket of a kiosk elsewhere than the unit's"),
                      .config("the configuration whose state.control-socket names the socket (default /etc/panel-refresh/config, when it sets one)"),
                      .flag("--openmetrics", "with metrics: the OpenMetrics 1.0 text format instead")],
            examples: [("sudo panel-refresh ctl status", "where the kiosk of the systemd unit stands"),
                       ("sudo panel-refresh ctl screenshot /tmp/panel.png", "what the panel shows, for a support ticket"),
                       ("sudo panel-refresh ctl metrics", "the metrics a Prometheus server would scrape"),
                       ("sudo panel-refresh ctl brightness 40", "a dimmer panel until the night hours begin or end")]),
        CommandHelp(
            name: "check",
            summary: """
            Reads and validates the whole configuration (default /etc/panel-refresh/config) and starts \
            nothing: every error at once, each with its file and line, including the files the keys name \
            (the item file, the command, the password file, the second floor's image and the gif frames, \
            whose headers are read against the image limits). Exit 0 when it is valid, 1 when not. The \
            service may run it as ExecStartPre=. With --items it reads a list of items as the file source \
            does and names every item whose text has characters no installed face draws (they would show \
            as boxes), with their script and the Debian package that draws them; exit 1 when there is one.
            """,
            options: [.config("check FILE instead of /etc/panel-refresh/config (with --items: its [rows] fields, and it is checked too)"),
                      .value("--items", "FILE", "a list of items (a JSON array or JSON lines) whose texts must all be drawable"),
                      .flag("--keys-only", "the keys and their values only, not the files they name: a configuration written for another machine (a fleet's repository, the documentation's examples)")],
            examples: [("panel-refresh check --config /etc/panel-refresh/config", "before a reload (systemctl reload panel-refresh)"),
                       ("panel-refresh check --items board.json", "which items would show boxes, and which fonts draw them")]),
        CommandHelp(
            name: "demo",
            summary: """
            A scripted session: pull to refresh, scroll, load pages until there is no more data. Plays on the \
            panel when a DRM or fbdev display is usable; else (or with --headless) on the headless display, \
            writing every frame as PNG and an animated PNG of the whole session, and printing where. With \
            --window it plays in a desktop window and stays open: drag the list with the mouse.
            """,
            options: [.screen("the headless display's or the window's size (default 800x480)"),
                      .flag("--window", "play in a desktop window (SDL2 and an X server) and keep it open until it is closed"),
                      .value("--out", "DIR", "where the frames go (default: a new folder under $TMPDIR)"),
                      .flag("--headless", "draw on the headless display even where a panel is usable")],
            examples: [("panel-refresh demo --headless --out /tmp/demo", "frames and demo.png in /tmp/demo"),
                       ("panel-refresh demo --window", "the demo in a window on the desktop")]),
        CommandHelp(
            name: "replay",
            summary: """
            Feeds an evemu recording of a touchscreen through the whole pipeline in virtual time: touch assembly, \
            gestures, scroll physics, the refresh components and the renderer.
            """,
            options: [.positional("FILE", "the recording: evemu, or events with --desc"),
                      .desc,
                      .screen("the screen the touches map to (default 800x480)"),
                      .rotation("turn the picture (and touch) as display.rotation does"),
                      .value("--frames", "DIR", "write every frame as PNG into DIR"),
                      .flag("--trace", "print JSON lines: pan, state, refresh, frame, error; the same bytes on every run"),
                      .flag("--timings", "frame lines also carry renderMs, the machine's drawing time (then runs differ)"),
                      .value("--resample", "on|off", "resample the pan to the frames, or move to each event (default: input.resample, on)"),
                      .value("--display-rate", "HZ|events", "frames a second, each on the glass at a vblank (1 to 240, default 60); events: a frame for every input event, at once"),
                      .value("--frame-window", "MS|off", "at a display rate, start each frame MS milliseconds before its vblank (default 5; 0 to 1000); off: right after the last flip, on the glass a period later"),
                      .value("--filter", "off|one-euro", "smooth the touch positions as input.filter does: off, one-euro, or \"one-euro MIN-CUTOFF BETA\" (default: input.filter, off)"),
                      .value("--offset", "PT", "start with the list scrolled PT points down, 0 to 1000000, at most to its end (default 0: the top, where a downward drag only rubber-bands)"),
                      .value("--refresh-seconds", "S", "how long the sample data takes to load, 0 to 60 (default 1)"),
                      .value("--axes", "X,Y", "take positions from other ABS codes (hex), e.g. 02,03 for ABS_Z/ABS_RX"),
                      .config("the whole configuration, as run takes it: data source, input mapping, locale, styles")],
            examples: [("panel-refresh replay swipe.evemu --trace", "the trace of a recorded swipe"),
                       ("panel-refresh replay drag.events --desc device.desc --frames /tmp/frames", "the frames it draws")]),
        CommandHelp(
            name: "record",
            summary: "Writes an evemu 1.3 recording of a touchscreen to standard output until interrupted.",
            options: [.positional("DEVICE", "the /dev/input/event node (default: the first touchscreen udev reports)", optional: true)],
            examples: [("panel-refresh record /dev/input/event3 > pull.evemu", "record a pull on that device")]),
        CommandHelp(
            name: "inject",
            summary: "Creates a uinput touchscreen from the recording's description and plays its events in real time, once a running panel has the new device open (at most 10 s later).",
            options: [.positional("FILE", "the recording: evemu, or events with --desc"), .desc],
            examples: [("panel-refresh inject pull.evemu", "replay a pull into a running kiosk")]),
        CommandHelp(
            name: "devices",
            summary: "Lists the touchscreens and the DRM cards with their connectors and modes.",
            options: [],
            examples: [("panel-refresh devices", "what the kiosk would use")]),
        CommandHelp(
            name: "hw-check",
            summary: """
            Checks on a real kernel: a DRM test pattern and a damage-only frame (checked by screendump from \
            the host), and uinput round trips of the recordings. Used by scripts/vm-test.
            """,
            options: [.value("--fixtures", "DIR", "the recordings to round-trip"),
                      .value("--hold", "S", "keep the last frame on the glass for S seconds, 0 to 3600")],
            examples: [("panel-refresh hw-check --fixtures /fixtures --hold 3", "as the VM runs it")]),
        CommandHelp(
            name: "expected-frame",
            summary: """
            Writes as PPM the frame the glass shows with the default configuration (or --config's) after \
            N refreshes of its data, for comparing with a screendump.
            """,
            options: [.screen("the glass's size (default 1280x800, the VM's virtio-gpu mode)"),
                      .rotation("turned as display.rotation turns it"),
                      .value("--refreshes", "N", "refreshes of the sample data before the frame, 0 to 100 (default 1)"),
                      .flag("--refreshing", "half a second into the next refresh"),
                      .value("--config", "FILE", "the kiosk's configuration file (its data source, locale, rows)"),
                      .flag("--test-pattern", "hw-check's test pattern instead of the list"),
                      .flag("--damaged", "with --test-pattern: its partial second frame"),
                      .positional("FILE", "where the PPM goes")],
            examples: [("panel-refresh expected-frame --screen 1280x800 --refreshes 2 expected.ppm", "the list after two refreshes")]),
    ]

    /// The help of command `name`, nil when there is no such command.
    public static func named(_ name: String) -> CommandHelp? { all.first { $0.name == name } }

    /// `panel-refresh --help`.
    public static func overview(version: String) -> String {
        var text = "usage: panel-refresh COMMAND [OPTIONS]    (panel-refresh \(version))\n\ncommands:\n"
        for command in all {
            text += "  \(command.name) \(command.synopsis)".trimmingTrailingSpace + "\n"
            text += wrap(command.summary, indent: 8) + "\n"
        }
        text += "\n`panel-refresh COMMAND --help` shows a command's options and examples; man panel-refresh has them all.\n"
        text += "options: --verbose (debug logs), --help, --version (-V)\n"
        text += "exit codes: 0 done, 1 failed (the log says why), 2 bad command line"
        return text
    }

    /// The first line of `text`: what a usage error prints after its message.
    public var usage: String { "usage: panel-refresh \(name) \(synopsis)".trimmingTrailingSpace }

    /// `panel-refresh COMMAND --help`.
    public var text: String {
        var text = "usage: panel-refresh \(name) \(synopsis)".trimmingTrailingSpace + "\n\n" + Self.wrap(summary, indent: 0) + "\n"
        if !options.isEmpty {
            text += "\noptions:\n"
            for option in options { text += "  \(option.label)\n" + Self.wrap(option.meaning, indent: 8) + "\n" }
        }
        if !examples.isEmpty {
            text += "\nexamples:\n"
            for example in examples { text += "  \(example.command)\n" + Self.wrap(example.meaning, indent: 8) + "\n" }
        }
        return text + "\nexit codes: 0 done, 1 failed (the log says why), 2 bad command line"
    }

    /// The man page, roff (man(7)).
    public static func manPage(version: String, date: String) -> String {
        let escape = roffEscape
        var roff = """
        .TH PANEL\\-REFRESH 1 "\(date)" "panel\\-refresh \(version)" "User Commands"
        .SH NAME
        panel\\-refresh \\- pull\\-to\\-refresh list for Linux touch panels without a window system
        .SH SYNOPSIS
        .B panel\\-refresh
        .I COMMAND
        [\\fIOPTIONS\\fR]
        .SH DESCRIPTION
        A list with MJRefresh's pull\\-to\\-refresh header, load\\-more footer and trailer, read from a \
        touchscreen through evdev and drawn by a software renderer straight into a DRM dumb buffer. \
        Installed as the systemd service \\fBpanel\\-refresh.service\\fR, it runs \\fBpanel\\-refresh run\\fR.
        .SH COMMANDS

        """
        for command in all {
            roff += ".SS \\fB\(escape(command.name))\\fR \(escape(command.synopsis))\n\(escape(command.summary))\n"
            for option in command.options {
                roff += ".TP\n.B \(escape(option.label))\n\(escape(option.meaning))\n"
            }
            for example in command.examples {
                roff += ".PP\n\(escape(example.meaning)):\n.RS\n.B \(escape(example.command))\n.RE\n"
            }
        }
        roff += """
        .SH OPTIONS
        .TP
        .B \\-\\-verbose
        debug logs
        .TP
        .B \\-\\-help
        the commands; after a command, that command's options and examples
        .TP
        .B \\-\\-version\\fR, \\fB\\-V
        the version
        .SH EXIT STATUS
        0 done, 1 failed (the log says why), 2 bad command line.
        .SH ENVIRONMENT
        .TP
        .B LANG
        the panel's language when appearance.locale is not set (the header's and the list's words, the text's local forms)
        .TP
        .B TZ
        the panel's clock (the night and off hours, the board's times); else /etc/localtime
        .TP
        .B STATE_DIRECTORY\\fR, \\fBCACHE_DIRECTORY\\fR, \\fBRUNTIME_DIRECTORY
        set by systemd for the unit's StateDirectory=, CacheDirectory= and RuntimeDirectory=: the last\\-updated time and the kept list, the pictures fetched, the control socket (ctl finds it there too) when the configuration names none
        .TP
        .B CREDENTIALS_DIRECTORY
        set by systemd for LoadCredential=: a password or header file named without a slash is read from there
        .TP
        .B NOTIFY_SOCKET\\fR, \\fBWATCHDOG_USEC
        set by systemd for Type=notify and WatchdogSec=: READY, STATUS, RELOADING, STOPPING and the watchdog's pings go there
        .TP
        .B JOURNAL_STREAM
        set by systemd when standard error is the journal: the log is written with priorities and fields
        .TP
        .B DISPLAY\\fR, \\fBWAYLAND_DISPLAY
        run \\-\\-window and demo \\-\\-window open their window there
        .TP
        .B PANEL_REFRESH_MACHINE_ID
        stands for /etc/machine\\-id (the MQTT client id, the refresh's phase), for tests and images
        .TP
        .B PANEL_REFRESH_PAGE\\fR, \\fBPANEL_REFRESH_PAGE_SIZE
        set for data.command's program: the page asked for and its size
        .SH FILES
        .TP
        .I /etc/panel\\-refresh/config
        the kiosk's configuration; every key in /usr/share/doc/panel\\-refresh/configuration.md
        .TP
        .I /var/lib/panel\\-refresh
        the last\\-updated time
        .SH SEE ALSO
        .BR panel\\-refresh.conf (5),
        .BR systemctl (1),
        .BR journalctl (1),
        .BR evemu\\-record (1)

        """
        return roff
    }

    /// Text as roff shows it literally: backslashes and hyphens escaped, and a leading dot or
    /// quote (which roff would read as a request) made plain (man(7)); for both man pages.
    static func roffEscape(_ s: String) -> String {
        var out = s.replacing(text: "\\", with: "\\e").replacing(text: "-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// `text` broken into lines of at most 96 columns, each indented.
    static func wrap(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && pad.count + line.count + 1 + word.count > 96 {
                lines.append(pad + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(pad + line) }
        return lines.joined(separator: "\n")
    }
}

extension String {
    var trimmingTrailingSpace: String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
