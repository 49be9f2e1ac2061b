import Foundation
import Testing
@testable import PanelInput
import PanelGestures

/// Streams written by hand for what the recordings do not show.
struct Stream {
    var events: [InputEvent] = []
    var time: Int64 = 1_000_000

    mutating func abs(_ code: UInt16, _ value: Int32) { events.append(.init(microseconds: time, type: EventType.abs, code: code, value: value)) }
    mutating func key(_ code: UInt16, _ value: Int32) { events.append(.init(microseconds: time, type: EventType.key, code: code, value: value)) }
    mutating func syn(_ code: UInt16 = SynCode.report, advance: Int64 = 10_000) {
        events.append(.init(microseconds: time, type: EventType.syn, code: code, value: 0))
        if code == SynCode.report { time += advance }
    }
    /// Protocol B: slot, tracking id and position.
    mutating func slot(_ slot: Int32, id: Int32? = nil, x: Int32? = nil, y: Int32? = nil) {
        abs(AbsCode.mtSlot, slot)
        if let id { abs(AbsCode.mtTrackingID, id) }
        if let x { abs(AbsCode.mtPositionX, x) }
        if let y { abs(AbsCode.mtPositionY, y) }
    }
    /// Protocol A: one anonymous contact.
    mutating func contact(_ x: Int32, _ y: Int32) {
        abs(AbsCode.mtPositionX, x)
        abs(AbsCode.mtPositionY, y)
        syn(SynCode.mtReport)
    }
}

let slotted = DeviceDescription(name: "B", properties: [InputProperty.direct],
                                codes: [EventType.abs: [AbsCode.mtSlot, AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY]],
                                absInfo: [AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
                                          AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                                          AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000),
                                          AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000)])
let anonymous = DeviceDescription(name: "A", properties: [InputProperty.direct],
                                  codes: [EventType.abs: [AbsCode.mtPositionX, AbsCode.mtPositionY], EventType.key: [KeyCode.btnTouch]],
                                  absInfo: [AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000),
                                            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000)])

func frames(_ device: DeviceDescription, _ stream: Stream) throws -> [TouchFrame] {
    var assembler = try TouchAssembler(device: device, width: 1001, height: 1001)
    return stream.events.compactMap { assembler.feed($0) }
}

@Suite("Synthesized streams")
struct SynthesizedStreamTests {
    @Test("SYN_DROPPED cancels the contacts; a finger still down begins again as a new contact")
    func dropped() throws {
        var s = Stream()
        s.slot(0, id: 5, x: 100, y: 100); s.syn()
        s.slot(0, y: 150); s.syn()
        s.syn(SynCode.dropped)
        s.slot(0, y: 300); s.syn()
        s.slot(0, y: 320); s.syn()
        s.slot(0, id: -1); s.syn()
        let result = try frames(slotted, s)
        #expect(result.map { $0.touches.map(\.phase) } == [[.began], [.moved], [.cancelled], [.began], [.moved], [.ended]])
        #expect(result[2].touches[0].id == result[0].touches[0].id)
        #expect(result[3].touches[0].id != result[0].touches[0].id, "a new contact after the drop")
        // The pan is cancelled cleanly, and the one after it is a new pan.
        var pan = PanRecognizer(configuration: .init(slop: 10))
        let states = result.compactMap { pan.handle($0)?.state }
        #expect(states == [.began, .cancelled, .began, .ended])
    }

    @Test("unplugged mid-drag: cancelAll ends every contact and nothing stays down")
    func unplug() throws {
        var assembler = try TouchAssembler(device: slotted, width: 1001, height: 1001)
        var s = Stream()
        s.slot(0, id: 1, x: 10, y: 10); s.slot(1, id: 2, x: 500, y: 500); s.syn()
        for event in s.events { _ = assembler.feed(event) }
        #expect(assembler.activeContacts == 2)
        let cancelled = assembler.cancelAll(at: 2)
        let frame = try #require(cancelled)
        #expect(frame.touches.map(\.phase) == [.cancelled, .cancelled])
        #expect(assembler.activeContacts == 0)
        let again = assembler.cancelAll(at: 3)
        #expect(again == nil)
    }

    @Test("protocol A: two fingers keep their ids as they move and cross; a lift ends the right one")
    func protocolATwoFingers() throws {
        var s = Stream()
        s.key(KeyCode.btnTouch, 1)
        s.contact(100, 100); s.contact(900, 900); s.syn()
        s.contact(890, 880); s.contact(120, 110); s.syn()       // reported in the other order
        s.contact(140, 120); s.contact(870, 860); s.syn()
        s.contact(160, 130); s.syn()                             // the far finger lifted
        s.key(KeyCode.btnTouch, 0); s.syn()                      // release, no contact block
        let result = try frames(anonymous, s)
        #expect(result.count == 5)
        let first = result[0].touches
        let near = first[0].id, far = first[1].id
        #expect(near != far)
        let second = Dictionary(uniqueKeysWithValues: result[1].touches.map { ($0.id, $0.position) })
        #expect(second[near] == Point(x: 120, y: 110))
        #expect(second[far] == Point(x: 890, y: 880))
        #expect(result[3].touches.first { $0.id == far }?.phase == .ended)
        #expect(result[3].touches.first { $0.id == near }?.phase == .moved)
        #expect(result[4].touches.map(\.phase) == [.ended])
        #expect(result[4].touches[0].id == near)
    }

    @Test("protocol B: two slots, a tracking id reused, only changed axes sent")
    func protocolBSlots() throws {
        var s = Stream()
        s.slot(0, id: 1, x: 100, y: 100); s.slot(1, id: 2, x: 800, y: 800); s.syn()
        s.slot(1, x: 810); s.syn()
        s.slot(0, id: -1); s.syn()
        s.slot(0, id: 1, y: 400); s.syn()                        // same tracking id, new contact, old X
        let result = try frames(slotted, s)
        #expect(result[1].touches.map(\.position) == [Point(x: 100, y: 100), Point(x: 810, y: 800)])
        #expect(result[2].touches.map(\.phase) == [.ended, .moved])
        let again = try #require(result[3].touches.first { $0.phase == .began })
        #expect(again.position == Point(x: 100, y: 400))
        #expect(again.id != result[0].touches[0].id)
    }

    @Test("out-of-range values are clamped to the screen's edge")
    func outOfRange() throws {
        var s = Stream()
        s.slot(0, id: 1, x: -500, y: 5000); s.syn()
        s.slot(0, x: Int32.max, y: Int32.min); s.syn()
        let result = try frames(slotted, s)
        #expect(result[0].touches[0].position == Point(x: 0, y: 1000))
        #expect(result[1].touches[0].position == Point(x: 1000, y: 0))
    }

    @Test("a contact with no position yet waits; one that ends before it has one never shows")
    func noPosition() throws {
        var s = Stream()
        s.slot(3, id: 9); s.syn()
        s.slot(3, id: -1); s.syn()
        s.events.append(InputEvent(microseconds: s.time, type: EventType.msc, code: 4, value: 1)); s.syn()
        #expect(try frames(slotted, s).isEmpty)
    }

    @Test("a device with no range for its position axes is refused with the axis named")
    func missingAxis() {
        let broken = DeviceDescription(name: "No ranges", codes: [EventType.abs: [AbsCode.mtSlot]])
        #expect(throws: InputError.missingAxis(device: "No ranges", code: AbsCode.mtPositionX)) {
            try TouchAssembler(device: broken, width: 10, height: 10)
        }
    }
}

@Suite("Screen mapping")
struct ScreenMappingTests {
    let square = AbsInfo(minimum: 0, maximum: 1000)

    @Test("each axis by its own range (55 units/mm on X, 98 on Y)")
    func perAxis() {
        let mapping = ScreenMapping(xAxis: AbsInfo(minimum: 0, maximum: 32767, resolution: 55),
                                    yAxis: AbsInfo(minimum: 0, maximum: 32767, resolution: 98), width: 1921, height: 1081)
        #expect(mapping.map(x: 16383, y: 16383).x == mapping.map(x: 16383, y: 16383).x)
        #expect(abs(mapping.map(x: 32767, y: 0).x - 1920) < 1e-9)
        #expect(abs(mapping.map(x: 0, y: 32767).y - 1080) < 1e-9)
    }

    @Test("rotations take the panel's corners to the picture's", arguments: [
        // Turned 90° clockwise, the picture's top edge lies along the panel's right edge: the
        // panel's top-right corner is the picture's origin, its top-left the picture's
        // bottom-left.
        (Rotation.none, Point(x: 0, y: 0), Point(x: 400, y: 0)),
        (.clockwise90, Point(x: 0, y: 800), Point(x: 0, y: 0)),
        (.upsideDown, Point(x: 400, y: 800), Point(x: 0, y: 800)),
        (.clockwise270, Point(x: 400, y: 0), Point(x: 400, y: 800)),
    ])
    func rotations(rotation: Rotation, topLeft: Point, topRight: Point) {
        var mapping = ScreenMapping(xAxis: square, yAxis: square, width: 401, height: 801)
        mapping.rotation = rotation
        #expect(mapping.map(x: 0, y: 0) == topLeft, "the panel's top-left corner")
        #expect(mapping.map(x: 1000, y: 0) == topRight, "the panel's top-right corner")
    }

    @Test("swap and invert")
    func swapInvert() {
        var mapping = ScreenMapping(xAxis: square, yAxis: square, width: 1001, height: 1001)
        mapping.swapAxes = true
        #expect(mapping.map(x: 200, y: 700) == Point(x: 700, y: 200))
        mapping.invertX = true
        #expect((mapping.map(x: 200, y: 700) - Point(x: 300, y: 200)).length < 1e-9)
        mapping.invertY = true
        #expect((mapping.map(x: 200, y: 700) - Point(x: 300, y: 800)).length < 1e-9)
    }

    @Test("protocol A: a frame of 10,000 contacts keeps the first 64 and counts the rest")
    func protocolAFlood() throws {
        var s = Stream()
        s.key(KeyCode.btnTouch, 1)
        for i in 0..<10_000 { s.contact(Int32(i % 1000), Int32(i / 10)) }
        s.syn()
        for i in 0..<10_000 { s.contact(Int32(i % 1000), Int32(i / 10) + 1) }
        s.syn()
        var assembler = try TouchAssembler(device: anonymous, width: 1001, height: 1001)
        let result = s.events.compactMap { assembler.feed($0) }
        #expect(result.map(\.touches.count) == [64, 64])
        #expect(result[1].touches.allSatisfy { $0.phase == .moved })
        #expect(assembler.droppedContacts == 2 * (10_000 - 64))
    }

    @Test("protocol B: slots past the limit are dropped with their axes; the rest go on")
    func slotFlood() throws {
        var s = Stream()
        s.slot(0, id: 1, x: 100, y: 100)
        s.slot(5000, id: 2, x: 900, y: 900)
        s.slot(-3, id: 3, x: 500, y: 500)
        s.slot(Int32.max, id: 4, x: 1, y: 1)
        s.slot(63, id: 5, x: 200, y: 200)
        s.syn()
        var assembler = try TouchAssembler(device: slotted, width: 1001, height: 1001)
        let result = s.events.compactMap { assembler.feed($0) }
        #expect(result.count == 1)
        #expect(result.first?.touches.map(\.position) == [Point(x: 100, y: 100), Point(x: 200, y: 200)])
        #expect(assembler.droppedContacts == 3)
    }

    @Test("a device past the contact limit is reported once, not once per frame")
    func excessReportedOnce() throws {
        let source = FakeSource(device: anonymous)
        let set = TouchscreenSet(explicitPaths: ["/dev/input/flood"], width: 1001, height: 1001) { _ in source }
        var errors: [InputError] = []
        set.onError = { errors.append($0) }
        set.start(discovered: [])
        var s = Stream()
        s.key(KeyCode.btnTouch, 1)
        for _ in 0..<3 {
            for i in 0..<100 { s.contact(Int32(i), Int32(i)) }
            s.syn()
        }
        source.pending = [s.events, s.events]
        #expect(set.read(node: "/dev/input/flood", now: 1).count == 3)
        #expect(set.read(node: "/dev/input/flood", now: 2).count == 3)
        #expect(errors == [.tooManyContacts(device: "A", limit: 64)])
    }

    @Test("libinput's calibration matrix on normalised coordinates; parsed from udev")
    func calibration() throws {
        var mapping = ScreenMapping(xAxis: square, yAxis: square, width: 1001, height: 1001)
        mapping.calibration = try CalibrationMatrix(udevProperty: "0 -1 1 1 0 0")   // 90° as libinput documents it
        #expect(mapping.map(x: 0, y: 0) == Point(x: 1000, y: 0))
        mapping.calibration = try CalibrationMatrix(udevProperty: "0.5 0 0.25  0 0.5 0.25")
        #expect(mapping.map(x: 1000, y: 1000) == Point(x: 750, y: 750))
        // A matrix set in code is not checked: an overflow to NaN still lands on the screen.
        mapping.calibration = CalibrationMatrix(.infinity, 0, -.infinity, 0, 1, 0)
        #expect(mapping.map(x: 1000, y: 1000) == Point(x: 0, y: 1000))
        for bad in ["1 0 0 0 1", "1 0 0 0 1 x", "", "1 0 0 0 1 0 0", "nan 0 0 0 1 0", "1e308 0 -1e308 0 1 0"] {
            #expect(throws: InputError.badCalibration(bad)) { try CalibrationMatrix(udevProperty: bad) }
        }
    }
}

/// A clock whose sleeps return at once, moving its time to the deadline.
final class InstantClock: _Concurrency.Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by d: Duration) -> Instant { Instant(offset: offset + d) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }
    private(set) var now = Instant(offset: .zero)
    var minimumResolution: Duration { .nanoseconds(1) }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        if deadline > now { now = deadline }
    }
}

@Suite("Real-time replay")
struct RealTimeReplayTests {
    @Test("frames are delivered at their recorded distance from the first")
    func pacing() async throws {
        let replay = try EvemuReplay(recording: try Fixture.pixelSwipe.recording(), width: 800, height: 1280)
        let clock = InstantClock()
        var delivered: [(Double, Duration)] = []
        try await replay.play(clock: clock) { frame in delivered.append((frame.timestamp, clock.now.offset)) }
        #expect(delivered.count == 26)
        for (timestamp, at) in delivered {
            let seconds = Double(at.components.seconds) + Double(at.components.attoseconds) / 1e18
            #expect(abs(seconds - timestamp) < 1e-6)
        }
    }
}

@Suite("Slot edge cases")
struct SlotEdgeCaseTests {
    @Test("a slot that ends and starts again within one frame is an end and a new contact")
    func endAndRestartInOneFrame() throws {
        var s = Stream()
        s.slot(0, id: 4, x: 100, y: 100); s.syn()
        s.slot(0, id: -1); s.slot(0, id: 5, x: 600); s.syn()
        let result = try frames(slotted, s)
        #expect(result[1].touches.map(\.phase) == [.ended, .began])
        #expect(result[1].touches[0].id != result[1].touches[1].id)
        #expect(result[1].touches[1].position == Point(x: 600, y: 100))
    }
}
