import PanelGestures
import Glibc

/// Writes evemu 1.3, as `evemu-record` does, so evemu's own tools read it back.
public enum EvemuWriter {
    /// Bitmask lines per event type, as evemu's `write_mask` emits for a touchscreen:
    /// ceil((max code + 1) / 64) lines for each type libevdev knows.
    private static let maskLines: [(type: UInt16, lines: Int)] = [
        (EventType.key, 12), (EventType.rel, 1), (EventType.abs, 1), (EventType.msc, 1), (EventType.sw, 1),
        (EventType.led, 1), (EventType.snd, 1), (EventType.rep, 1), (EventType.ff, 2),
    ]

    /// The description part: version line, `N:`, `I:`, `P:`, `B:`, `A:`, `L:`, `S:`.
    public static func description(_ d: DeviceDescription) -> String {
        var out = "# EVEMU 1.3\n"
        out += "# Input device name: \"\(d.name)\"\n"
        out += "N: \(d.name)\n"
        out += "I: \(hex(d.bustype, 4)) \(hex(d.vendor, 4)) \(hex(d.product, 4)) \(hex(d.version, 4))\n"
        let propLines = max(1, ((d.properties.max().map(Int.init) ?? 0) / 64) + 1)
        for n in 0..<propLines { out += "P:" + bytes(of: d.properties, line: n) + "\n" }
        // evemu always writes 0b (SYN_REPORT, SYN_CONFIG, SYN_DROPPED); the device's own bits
        // when it declares them, so a description survives a round trip.
        let syn = d.codes[EventType.syn].flatMap { $0.isEmpty ? nil : $0 } ?? [SynCode.report, SynCode.config, SynCode.dropped]
        var types = maskLines + [(EventType.syn, 1)]
        for type in d.codes.keys.sorted() where !types.contains(where: { $0.type == type }) {
            types.append((type, 1))
        }
        for (type, lines) in types.sorted(by: { $0.type < $1.type }) {
            // As many lines as the highest code needs, whatever the type (a SYN code past 63
            // was lost once).
            let codes = type == EventType.syn ? syn : d.codes[type] ?? []
            let needed = max(lines, Int((codes.max() ?? 0) / 64) + 1)
            for n in 0..<needed { out += "B: " + hex(type, 2) + bytes(of: codes, line: n) + "\n" }
        }
        for code in d.absInfo.keys.sorted() {
            guard let a = d.absInfo[code] else { continue }
            out += "A: \(hex(code, 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
        }
        for code in d.leds.keys.sorted() where d.leds[code] != 0 {
            out += "L: \(hex(code, 2)) \(d.leds[code] ?? 0)\n"
        }
        for code in d.switches.keys.sorted() where d.switches[code] != 0 {
            out += "S: \(hex(code, 2)) \(d.switches[code] ?? 0)\n"
        }
        return out
    }

    /// Event lines, `E: %lu.%06u %04x %04x %04d` with a comment, as `evemu_write_event`.
    public static func events(_ events: [InputEvent]) -> String {
        var out = ""
        out.reserveCapacity(events.count * 48)
        var lastReport: Int64?
        for e in events {
            let sec = e.microseconds / 1_000_000, usec = e.microseconds % 1_000_000
            out += "E: \(max(0, sec)).\(padded(Int64(max(0, usec)), 6)) \(hex(e.type, 4)) \(hex(e.code, 4)) \(padded(Int64(e.value), 4))\t"
            if e.isSynReport {
                let ms = lastReport.map { (e.microseconds - $0) / 1000 } ?? 0
                out += "# ------------ SYN_REPORT (0) ---------- +\(ms)ms\n"
                lastReport = e.microseconds
            } else if e.type == EventType.syn && e.code == SynCode.mtReport {
                out += "# ++++++++++++ SYN_MT_REPORT (0) ++++++++++\n"
            } else {
                out += "# \(EventNames.type(e.type)) / \(EventNames.code(e.type, e.code)) \(e.value)\n"
            }
        }
        return out
    }

    /// A whole recording: description, the "waiting for events" banner, events.
    public static func recording(_ r: EvemuRecording) -> String {
        description(r.device)
            + "################################\n#      Waiting for events      #\n################################\n"
            + events(r.events)
    }

    static func hex<T: BinaryInteger>(_ value: T, _ width: Int) -> String { TextFormat.hex(value, width) }
    static func padded(_ value: Int64, _ width: Int) -> String { TextFormat.padded(value, width) }

    private static func bytes(of codes: Set<UInt16>, line: Int) -> String {
        var out = ""
        for j in 0..<8 {
            var byte: UInt8 = 0
            for k in 0..<8 where codes.contains(UInt16(line * 64 + j * 8 + k)) { byte |= 1 << k }
            out += " " + hex(byte, 2)
        }
        return out
    }
}

/// Names for comments and messages.
enum EventNames {
    static func type(_ t: UInt16) -> String {
        switch t {
        case EventType.syn: return "EV_SYN"
        case EventType.key: return "EV_KEY"
        case EventType.abs: return "EV_ABS"
        case EventType.msc: return "EV_MSC"
        default: return "EV_0x" + EvemuWriter.hex(t, 2)
        }
    }

    static func code(_ t: UInt16, _ c: UInt16) -> String {
        switch (t, c) {
        case (EventType.abs, AbsCode.x): return "ABS_X"
        case (EventType.abs, AbsCode.y): return "ABS_Y"
        case (EventType.abs, AbsCode.mtSlot): return "ABS_MT_SLOT"
        case (EventType.abs, AbsCode.mtPositionX): return "ABS_MT_POSITION_X"
        case (EventType.abs, AbsCode.mtPositionY): return "ABS_MT_POSITION_Y"
        case (EventType.abs, AbsCode.mtTrackingID): return "ABS_MT_TRACKING_ID"
        case (EventType.key, KeyCode.btnTouch): return "BTN_TOUCH"
        case (EventType.syn, SynCode.dropped): return "SYN_DROPPED"
        default: return "0x" + EvemuWriter.hex(c, 4)
        }
    }
}
