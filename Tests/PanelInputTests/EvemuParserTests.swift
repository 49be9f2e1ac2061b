import Foundation
import Testing
@testable import PanelInput

@Suite("evemu files")
struct EvemuParserTests {
    @Test("descriptions: name, id, properties, bits, axes, version")
    func description() throws {
        let r = try Fixture.pixelSwipe.recording()
        #expect(r.version == EvemuVersion(major: 1, minor: 2))
        #expect(r.device.name == "NVTCapacitiveTouchScreen")
        #expect(r.device.bustype == 0x1c && r.device.vendor == 0x0603 && r.device.product == 0x7806)
        #expect(r.device.properties == [InputProperty.direct])
        #expect(r.device.has(type: EventType.key, code: KeyCode.btnTouch))
        #expect(r.device.has(type: EventType.abs, code: AbsCode.mtTrackingID))
        #expect(r.device.absInfo[AbsCode.mtPositionY] == AbsInfo(minimum: 0, maximum: 2559, resolution: 11))
        #expect(r.device.absInfo[0x34] == AbsInfo(minimum: -4096, maximum: 4096))
        #expect(r.device.isTouchscreen())
        #expect(r.events.first == InputEvent(microseconds: 1, type: EventType.key, code: KeyCode.btnTouch, value: 1))
    }

    @Test("the split form, format 1.0 with four values per axis and absolute times")
    func splitForm() throws {
        let r = try Fixture.ntrigDrag.recording()
        #expect(r.version == .v1_0)
        #expect(r.device.absInfo[AbsCode.x] == AbsInfo(minimum: 0, maximum: 9600))
        #expect(r.events.first?.microseconds == 1_357_751_027_090_934)
        #expect(!r.device.isTouchscreen(), "no INPUT_PROP_DIRECT on this old driver")
        #expect(r.device.isTouchscreen(requireDirect: false))
    }

    @Test("comments anywhere, trailing comments, CRLF, unpadded values, any hex width")
    func tolerant() throws {
        let text = """
        # EVEMU 1.1\r
        # a comment
        N: Test # panel with a hash in its name\r
        # between lines
        I: 0003 1 02 0003
        P: 02 00 00 00 00 00 00 00   # direct
        B: 03 03 00 00 00 00 00 00 00
        A: 00 0 100 0 0
        A: 01 0 200 0 0 5
        # Waiting for events
        E: 12.000500 3 0 -001
        E: 12.000501 0003 01 +7\t# comment
        E: 12.000502 0000 0000 0000
        """
        let r = try EvemuParser.parse(text, file: "inline")
        #expect(r.device.name == "Test # panel with a hash in its name")
        #expect(r.device.vendor == 1 && r.device.product == 2)
        #expect(r.device.absInfo[AbsCode.y]?.resolution == 5)
        #expect(r.events.map(\.value) == [-1, 7, 0])
        #expect(r.events[0].microseconds == 12_000_500)
    }

    @Test("bad input is an error naming the file and line", arguments: [
        ("E: 0.000001 0003 0035", 4, "needs a time"),
        ("E: 0.000001 0003 00zz 12", 4, "bad event code"),
        ("E: abc 0003 0035 12", 4, "bad time"),
        ("E: 0.1234567 0003 0035 12", 4, "bad time"),
        ("E: 0.000001 0003 0035 99999999999", 4, "bad event value"),
        ("garbage here", 4, "unknown line"),
        ("A: 35 10 0 0 0", 4, "above maximum"),
        ("B: 03 zz 00", 4, "bad hex byte"),
        // Seconds of 13 to 15 digits overflowed the microseconds (a crash, not an error).
        ("E: 1234567890123.000000 0003 0035 12", 4, "beyond 4294967295 s"),
        ("E: 999999999999999.999999 0003 0035 12", 4, "beyond 4294967295 s"),
        ("E: 9223372036854.775807 0003 0035 12", 4, "beyond 4294967295 s"),
        ("E: 4294967296.000000 0003 0035 12", 4, "beyond 4294967295 s"),
    ])
    func errors(line: String, number: Int, reason: String) {
        let text = "N: Broken\nI: 0003 0001 0002 0003\nP: 02 00 00 00 00 00 00 00\n\(line)\n"
        do {
            _ = try EvemuParser.parse(text, file: "broken.evemu")
            Issue.record("parsed \(line)")
        } catch let error as EvemuError {
            #expect(error.file == "broken.evemu")
            #expect(error.line == number)
            #expect(error.reason.contains(reason), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("times up to the limit are read exactly; a jump past it is an error at its line")
    func timeLimit() throws {
        let head = "N: Jumps\nI: 0003 0001 0002 0003\nA: 00 0 100 0 0\nA: 01 0 100 0 0\n"
        let last = try EvemuParser.parse(head + "E: 0.000000 0000 0000 0000\nE: 4294967295.999999 0000 0000 0000\n", file: "edge")
        #expect(last.events.map(\.microseconds) == [0, 4_294_967_295_999_999])
        do {
            _ = try EvemuParser.parse(head + "E: 0.000000 0000 0000 0000\nE: 9223372036854.775000 0000 0000 0000\n", file: "jump")
            Issue.record("a time near Int64.max microseconds was accepted")
        } catch let error as EvemuError {
            #expect(error.description.hasPrefix("jump:6: time"))
        }
    }

    @Test("garbage after the events and a missing description are errors too")
    func moreErrors() {
        #expect(throws: EvemuError.self) { try EvemuParser.parse("N: X\nE: 0.1 0 0 0\nhello\n", file: "f") }
        #expect(throws: EvemuError.self) { try EvemuParser.parse("E: 0.1 0 0 0\n", file: "f") }
        #expect(throws: EvemuError.self) { try EvemuRecording.load(path: "/nonexistent/file.evemu") }
        let empty = Data()
        #expect(throws: EvemuError.self) { try EvemuParser.parse(String(decoding: empty, as: UTF8.self), file: "f") }
    }

    @Test("written recordings read back the same", arguments: Fixture.allCases)
    func roundTrip(fixture: Fixture) throws {
        let original = try fixture.recording()
        let text = EvemuWriter.recording(original)
        #expect(text.hasPrefix("# EVEMU 1.3\n"))
        let again = try EvemuParser.parse(text, file: "written")
        #expect(again.device == original.device)
        #expect(again.events == original.events)
        #expect(again.version == .v1_3)
    }

    @Test("CRs at a line's end are dropped, on the last line too, so a name reads back as written")
    func trailingCarriageReturns() throws {
        let device = try EvemuParser.parse("N: Panel\r\r\nI: 0003 0001 0002 0003\r", file: "cr").device
        #expect(device.name == "Panel")
        #expect(try EvemuParser.parse("N: Panel\r", file: "cr").device.name == "Panel")
        let written = EvemuWriter.recording(EvemuRecording(device: device, events: []))
        #expect(try EvemuParser.parse(written, file: "written").device.name == "Panel")
    }

    @Test("SYN bits past 63 survive writing (the writer once wrote one SYN line)")
    func synBitsPastOneLine() throws {
        let text = "N: X\nI: 0003 0001 0002 0003\nB: 00 00 00 00 00 00 00 00 00\nB: 00 01 00 00 00 00 00 00 00\n"
        let device = try EvemuParser.parse(text, file: "syn").device
        #expect(device.codes[EventType.syn] == [64])
        let written = EvemuWriter.recording(EvemuRecording(device: device, events: []))
        #expect(try EvemuParser.parse(written, file: "written").device.codes[EventType.syn] == [64])
    }

    @Test("the writer's lines look like evemu-record's")
    func writerFormat() throws {
        let r = try Fixture.pixelSwipe.recording()
        let text = EvemuWriter.recording(r)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("N: NVTCapacitiveTouchScreen"))
        #expect(lines.contains("I: 001c 0603 7806 0100"))
        #expect(lines.contains("B: 03 00 00 00 00 00 80 f3 46"))
        #expect(lines.contains("A: 34 -4096 4096 0 0 0"))
        #expect(lines.filter { $0.hasPrefix("B: 01") }.count == 12)
        #expect(lines.contains { $0.hasPrefix("E: 0.000001 0003 0039 0003\t# EV_ABS / ABS_MT_TRACKING_ID 3") })
        #expect(lines.contains { $0.hasPrefix("E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms") })
    }

    @Test("every description in Fixtures/descriptions parses")
    func descriptions() throws {
        let dir = Fixture.directory + "/descriptions"
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(files.count == 11)
        for file in files {
            let text = String(decoding: try BoundedFile.read(dir + "/" + file, limit: 1 << 22), as: UTF8.self)
            let r = try EvemuParser.parse(text, file: file)
            #expect(!r.device.name.isEmpty)
            #expect(r.events.isEmpty)
        }
    }
}
