import PanelGestures
import Glibc

/// Reads evemu 1.0–1.3 text, as evemu-record writes it (docs/input.md, "Recordings").
///
/// Tolerant where real files differ (comments anywhere, description lines in any order, 4 or
/// 5 values on `A:` lines whatever the version, hex of any width, unpadded values, absolute
/// or relative times, codes the description does not declare) and strict where a line cannot
/// mean anything: a truncated, malformed or out-of-range line is an `EvemuError` naming the
/// file and line.
public enum EvemuParser {
    /// The latest event time accepted, seconds: 2^32 - 1 (about 136 years), the range of an
    /// unsigned 32-bit time. It holds every real timestamp (relative times from 0, uptimes,
    /// and absolute epoch times up to 2106) and keeps every sum and difference of event times
    /// in microseconds far inside Int64, so no later arithmetic on them can overflow.
    public static let maxSeconds: Int64 = 4_294_967_295

    /// Parses a whole evemu file: description, then events.
    public static func parse(_ text: String, file: String = "<input>") throws -> EvemuRecording {
        let bytes = Array(text.utf8)
        let lines = lineRanges(bytes)
        var reader = DescriptionReader(file: file)
        var index = 0
        while index < lines.count {
            let range = lines[index]
            if startsWithEvent(bytes, range) { break }
            try reader.read(Line(number: index + 1, text: String(decoding: bytes[range], as: UTF8.self)))
            index += 1
        }
        let device = try reader.finish()
        let events = try parseEvents(bytes, lines, from: index, file: file)
        return EvemuRecording(version: reader.version, device: device, events: events)
    }

    /// Parses the split form: a description file and an events file.
    public static func parse(description: String, descriptionFile: String, events: String,
                             eventsFile: String) throws -> EvemuRecording {
        var reader = DescriptionReader(file: descriptionFile)
        let descriptionBytes = Array(description.utf8)
        for (i, range) in lineRanges(descriptionBytes).enumerated() {
            if startsWithEvent(descriptionBytes, range) {
                throw EvemuError(file: descriptionFile, line: i + 1, reason: "event line in a description file")
            }
            try reader.read(Line(number: i + 1, text: String(decoding: descriptionBytes[range], as: UTF8.self)))
        }
        let device = try reader.finish()
        let eventBytes = Array(events.utf8)
        return EvemuRecording(version: reader.version, device: device,
                              events: try parseEvents(eventBytes, lineRanges(eventBytes), from: 0, file: eventsFile))
    }

    struct Line {
        var number: Int
        var text: String
    }

    /// Byte ranges of the lines, without "\n" and the "\r"s before it (the last line's too,
    /// with or without a "\n": a CR at a line's end is line-ending noise, never data, so what
    /// the writer writes reads back the same); line i is number i + 1.
    private static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        func add(_ end: Int) {
            var end = end
            while end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            ranges.append(start..<end)
        }
        for i in bytes.indices where bytes[i] == UInt8(ascii: "\n") {
            add(i)
            start = i + 1
        }
        if start < bytes.count { add(bytes.count) }
        return ranges
    }

    private static func startsWithEvent(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        range.count >= 2 && bytes[range.lowerBound] == UInt8(ascii: "E") && bytes[range.lowerBound + 1] == UInt8(ascii: ":")
    }

    private static func parseEvents(_ bytes: [UInt8], _ lines: [Range<Int>], from first: Int, file: String) throws -> [InputEvent] {
        var events: [InputEvent] = []
        events.reserveCapacity(lines.count - first)
        for index in first..<lines.count {
            var range = lines[index]
            while let b = range.first.map({ bytes[$0] }), b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") {
                range = range.dropFirst()
            }
            if range.isEmpty || bytes[range.lowerBound] == UInt8(ascii: "#") { continue }
            if let event = scanEvent(bytes, range) {
                events.append(event)
                continue
            }
            // The slow path only words the error.
            let text = String(decoding: bytes[range], as: UTF8.self)
            guard startsWithEvent(bytes, range) else {
                throw EvemuError(file: file, line: index + 1, reason: "expected an event line (E:), found \"\(text.prefix(40))\"")
            }
            events.append(try parseEvent(text, file: file, line: index + 1))
        }
        return events
    }

    /// The fast path for a well-formed `E:` line, on bytes; nil for anything unusual (the
    /// String path then parses it or says what is wrong).
    static func scanEvent(_ bytes: [UInt8], _ range: Range<Int>) -> InputEvent? {
        var i = range.lowerBound
        let end = range.upperBound
        guard startsWithEvent(bytes, range) else { return nil }
        i += 2
        func skipBlanks() -> Bool {
            let start = i
            while i < end, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
            return i > start
        }
        func decimal(maxDigits: Int) -> Int64? {
            let start = i
            var v: Int64 = 0
            while i < end, i - start < maxDigits, bytes[i] >= 48, bytes[i] <= 57 {
                v = v * 10 + Int64(bytes[i] - 48)
                i += 1
            }
            return i > start ? v : nil
        }
        func hex() -> UInt16? {
            let start = i
            var v: UInt32 = 0
            while i < end, i - start < 5 {
                let b = bytes[i]
                let d: UInt8
                switch b {
                case 48...57: d = b - 48
                case 97...102: d = b - 87
                case 65...70: d = b - 55
                default: return i > start && v <= 0xffff ? UInt16(v) : nil
                }
                v = v * 16 + UInt32(d)
                i += 1
            }
            return i > start && v <= 0xffff ? UInt16(v) : nil
        }
        guard skipBlanks(), let seconds = decimal(maxDigits: 10), seconds <= maxSeconds, i < end, bytes[i] == UInt8(ascii: ".") else { return nil }
        i += 1
        guard let micro = decimal(maxDigits: 6), i < end, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t"),
              skipBlanks(), let type = hex(), skipBlanks(), let code = hex(), skipBlanks() else { return nil }
        var negative = false
        if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        guard let magnitude = decimal(maxDigits: 10) else { return nil }
        let value = negative ? -magnitude : magnitude
        guard value >= Int64(Int32.min), value <= Int64(Int32.max) else { return nil }
        _ = skipBlanks()
        guard i == end || bytes[i] == UInt8(ascii: "#") else { return nil }
        return InputEvent(microseconds: seconds * 1_000_000 + micro, type: type, code: code, value: Int32(value))
    }

    /// The data part of a line: a `#` starts a trailing comment (evemu 1.1+; accepted in any
    /// version, since no data field contains `#`).
    static func fields(_ text: String) -> [Substring] {
        let data = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return data.split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    private static func parseEvents(_ lines: ArraySlice<Line>, file: String) throws -> [InputEvent] {
        var events: [InputEvent] = []
        events.reserveCapacity(lines.count)
        for line in lines {
            let trimmed = line.text.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard trimmed.hasPrefix("E:") else {
                throw EvemuError(file: file, line: line.number, reason: "expected an event line (E:), found \"\(trimmed.prefix(40))\"")
            }
            events.append(try parseEvent(String(trimmed), file: file, line: line.number))
        }
        return events
    }

    /// `E: SEC.USEC TYPE CODE VALUE`: type and code hex, value signed decimal. As evemu's
    /// `sscanf("%lu.%06u")`, the fraction is read as up to six digits of microseconds.
    static func parseEvent(_ text: String, file: String, line: Int) throws -> InputEvent {
        let f = fields(text)
        func fail(_ reason: String) -> EvemuError { EvemuError(file: file, line: line, reason: reason) }
        guard f.count == 5, f[0] == "E:" else {
            throw fail("an event line needs a time, a type, a code and a value, found \(max(0, f.count - 1)) fields")
        }
        let time = f[1].split(separator: ".", omittingEmptySubsequences: false)
        guard time.count == 2, let seconds = Int64(time[0]), seconds >= 0, !time[1].isEmpty, time[1].count <= 6,
              let micro = Int64(time[1]), micro >= 0 else {
            throw fail("bad time \"\(f[1])\" (want seconds.microseconds)")
        }
        guard let type = UInt16(f[2], radix: 16) else { throw fail("bad event type \"\(f[2])\" (want hex)") }
        guard let code = UInt16(f[3], radix: 16) else { throw fail("bad event code \"\(f[3])\" (want hex)") }
        guard let value = Int32(f[4]) else { throw fail("bad event value \"\(f[4])\" (want a 32-bit decimal)") }
        guard seconds <= maxSeconds else { throw fail("time \"\(f[1])\" is beyond \(maxSeconds) s") }
        return InputEvent(microseconds: seconds * 1_000_000 + micro, type: type, code: code, value: value)
    }
}

/// Collects the description lines of an evemu file.
struct DescriptionReader {
    let file: String
    var version = EvemuVersion.v1_0
    private var name: String?
    private var id: (UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0)
    private var propertyLines = 0
    private var properties = Set<UInt16>()
    private var bitLines: [UInt16: Int] = [:]
    private var codes: [UInt16: Set<UInt16>] = [:]
    private var absInfo: [UInt16: AbsInfo] = [:]
    private var leds: [UInt16: Int32] = [:]
    private var switches: [UInt16: Int32] = [:]
    private var sawData = false

    init(file: String) { self.file = file }

    private func fail(_ line: EvemuParser.Line, _ reason: String) -> EvemuError {
        EvemuError(file: file, line: line.number, reason: reason)
    }

    mutating func read(_ line: EvemuParser.Line) throws {
        let text = line.text
        if TextFormat.trimmed(text).isEmpty { return }
        if text.hasPrefix("#") {
            // "# EVEMU 1.3" before any data sets the version.
            if !sawData, text.hasPrefix("# EVEMU ") {
                let parts = text.dropFirst(8).split(separator: ".")
                if parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1].prefix { $0.isNumber }) {
                    version = EvemuVersion(major: major, minor: minor)
                }
            }
            return
        }
        sawData = true
        if text.hasPrefix("N:") {
            // The name runs to the end of the line, '#' included (evemu README "Comments").
            name = String(text.dropFirst(2).drop(while: { $0 == " " }))
            return
        }
        let f = EvemuParser.fields(text)
        guard let tag = f.first else { return }
        switch tag {
        case "I:":
            let values = try f.dropFirst().map { try hex16($0, line, "id") }
            guard values.count == 4 else { throw fail(line, "an I: line needs 4 hex numbers (bus vendor product version)") }
            id = (values[0], values[1], values[2], values[3])
        case "P:":
            let bytes = try f.dropFirst().map { try hex8($0, line) }
            guard !bytes.isEmpty, bytes.count <= 8 else { throw fail(line, "a P: line holds 1 to 8 hex bytes") }
            for code in bits(bytes, offset: propertyLines * 64) { properties.insert(code) }
            propertyLines += 1
        case "B:":
            guard f.count >= 3 else { throw fail(line, "a B: line needs a type and bitmask bytes") }
            let type = UInt16(try hex8(f[1], line))
            guard type <= EventType.max else { throw fail(line, "event type \(type) is beyond EV_MAX") }
            let bytes = try f.dropFirst(2).map { try hex8($0, line) }
            guard bytes.count <= 8 else { throw fail(line, "a B: line holds at most 8 bitmask bytes") }
            let n = bitLines[type, default: 0]
            bitLines[type] = n + 1
            let set = bits(bytes, offset: n * 64)
            if !set.isEmpty { codes[type, default: []].formUnion(set) }
        case "A:":
            guard f.count == 6 || f.count == 7 else {
                throw fail(line, "an A: line needs a code and 4 or 5 numbers (min max fuzz flat [resolution])")
            }
            let code = UInt16(try hex8(f[1], line))
            guard code <= AbsCode.max else { throw fail(line, "axis \(code) is beyond ABS_MAX") }
            let v = try f.dropFirst(2).map { (s: Substring) -> Int32 in
                guard let n = Int32(s) else { throw fail(line, "bad axis value \"\(s)\" (want a decimal)") }
                return n
            }
            guard v[0] <= v[1] else { throw fail(line, "axis \(code): minimum \(v[0]) above maximum \(v[1])") }
            absInfo[code] = AbsInfo(minimum: v[0], maximum: v[1], fuzz: v[2], flat: v[3], resolution: v.count > 4 ? v[4] : 0)
        case "L:", "S:":
            guard f.count == 3, let state = Int32(f[2]) else { throw fail(line, "an \(tag) line needs a code and a state") }
            let code = UInt16(try hex8(f[1], line))
            if tag == "L:" { leds[code] = state } else { switches[code] = state }
        default:
            throw fail(line, "unknown line \"\(text.prefix(40))\"")
        }
    }

    func finish() throws -> DeviceDescription {
        guard let name else { throw EvemuError(file: file, line: 0, reason: "no device description (N: line)") }
        var codes = self.codes
        // Axes with an A: line exist even when a B: line left them out.
        if !absInfo.isEmpty { codes[EventType.abs, default: []].formUnion(absInfo.keys) }
        return DeviceDescription(name: name, bustype: id.0, vendor: id.1, product: id.2, version: id.3,
                                 properties: properties, codes: codes, absInfo: absInfo, leds: leds, switches: switches)
    }

    private func hex8(_ s: Substring, _ line: EvemuParser.Line) throws -> UInt8 {
        guard let v = UInt8(s, radix: 16) else { throw fail(line, "bad hex byte \"\(s)\"") }
        return v
    }

    private func hex16(_ s: Substring, _ line: EvemuParser.Line, _ what: String) throws -> UInt16 {
        guard let v = UInt16(s, radix: 16) else { throw fail(line, "bad hex \(what) \"\(s)\"") }
        return v
    }

    /// Codes of the set bits: bit k of byte j is code offset + 8j + k, least significant first.
    private func bits(_ bytes: [UInt8], offset: Int) -> Set<UInt16> {
        var set = Set<UInt16>()
        for (j, byte) in bytes.enumerated() where byte != 0 {
            for k in 0..<8 where byte & (1 << k) != 0 { set.insert(UInt16(offset + 8 * j + k)) }
        }
        return set
    }
}

