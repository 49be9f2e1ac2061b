import Foundation
import Testing
@testable import PanelInput
import PanelGestures

/// An event source that plays what a test gives it, and can be unplugged.
final class FakeSource: EventSource {
    let device: DeviceDescription
    var name: String { "fake" }
    var pending: [[InputEvent]] = []
    var unplugged = false
    var failure: InputError?

    init(device: DeviceDescription) { self.device = device }

    func readEvents() throws -> [InputEvent] {
        if unplugged { throw InputError.deviceGone(path: name) }
        if let failure {
            self.failure = nil
            throw failure
        }
        return pending.isEmpty ? [] : pending.removeFirst()
    }
}

@Suite("Touch input")
struct TouchInputTests {
    @Test("unplugged mid-drag: the drag is cancelled, nothing stays down, nothing more is read")
    func unplugMidDrag() throws {
        let source = FakeSource(device: slotted)
        let input = try TouchInput(source: source, width: 1001, height: 1001)
        var s = Stream()
        s.slot(0, id: 1, x: 100, y: 100); s.syn()
        s.slot(0, y: 200); s.syn()
        s.slot(0, y: 300); s.syn()
        source.pending = [s.events]
        let frames = try input.read(now: 1.1)
        var pan = PanRecognizer()
        var states = frames.compactMap { pan.handle($0)?.state }
        #expect(states == [.began, .changed])
        source.unplugged = true
        let cancel = try input.read(now: 1.2)
        #expect(cancel.map { $0.touches.map(\.phase) } == [[.cancelled]])
        states = cancel.compactMap { pan.handle($0)?.state }
        #expect(states == [.cancelled])
        #expect(input.isGone)
        #expect(try input.read(now: 1.3).isEmpty)
    }

    @Test("a read error is thrown and the input stays usable")
    func transientError() throws {
        let source = FakeSource(device: slotted)
        let input = try TouchInput(source: source, width: 1001, height: 1001)
        source.failure = .failed(path: "fake", call: "libevdev_next_event", errno: EIO)
        #expect(throws: InputError.failed(path: "fake", call: "libevdev_next_event", errno: EIO)) { try input.read(now: 1) }
        var s = Stream()
        s.slot(0, id: 1, x: 1, y: 1); s.syn()
        source.pending = [s.events]
        #expect(try input.read(now: 2).count == 1)
        #expect(!input.isGone)
    }

    @Test("calibration and rotation given to the input apply to its frames")
    func calibrated() throws {
        let source = FakeSource(device: slotted)
        let input = try TouchInput(source: source, width: 1001, height: 1001,
                                   mapping: TouchMapping(calibration: try CalibrationMatrix(udevProperty: "-1 0 1 0 1 0")))
        var s = Stream()
        s.slot(0, id: 1, x: 100, y: 300); s.syn()
        source.pending = [s.events]
        #expect(try input.read(now: 1).first?.touches.first?.position == Point(x: 900, y: 300))
    }
}

@Suite("Devices and udev")
struct DeviceTests {
    @Test("a missing node is a clear error naming it")
    func missing() {
        #expect(throws: InputError.cannotOpen(path: "/dev/input/event999", errno: ENOENT)) {
            try EvdevDevice(path: "/dev/input/event999")
        }
        let message = InputError.cannotOpen(path: "/dev/input/event999", errno: ENOENT).description
        #expect(message.contains("/dev/input/event999") && message.contains("No such file"))
    }

    @Test("a node that is not an input device is refused by libevdev, with the call named")
    func notInput() {
        do {
            _ = try EvdevDevice(path: "/dev/null")
            Issue.record("opened /dev/null as an input device")
        } catch let error as InputError {
            guard case let .failed(path, call, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == "/dev/null" && call == "libevdev_new_from_fd")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("udev's calibration property is applied when valid and reported when not")
    func calibrationProperty() {
        let good = TouchscreenInfo(node: "/dev/input/event3", name: "Panel", calibrationProperty: "0 1 0 -1 0 1")
        #expect(good.calibration == CalibrationMatrix(0, 1, 0, -1, 0, 1))
        #expect(good.invalidCalibration == nil)
        let bad = TouchscreenInfo(node: "/dev/input/event3", name: "Panel", calibrationProperty: "1 0 0")
        #expect(bad.calibration == nil)
        #expect(bad.invalidCalibration == "1 0 0")
        #expect(TouchscreenInfo(node: "/dev/input/event3", name: "Panel", calibrationProperty: nil).calibration == nil)
    }

    @Test("discovery through udev lists only event nodes of touchscreens")
    func discovery() throws {
        let found = try TouchscreenDiscovery.list()
        #expect(found.allSatisfy { $0.node.hasPrefix("/dev/input/event") && !$0.name.isEmpty })
    }
}

/// Hardware tests: they need /dev/uinput (the VM harness has it) and skip visibly elsewhere.
@Suite("uinput round trips", .enabled(if: UInputDevice.isAvailable, "needs write access to /dev/uinput: runs in the VM harness"))
struct UInputTests {
    @Test("a virtual touchscreen from each recording's description reads back through libevdev", arguments: Fixture.allCases)
    func describeBack(fixture: Fixture) throws {
        let recording = try fixture.recording()
        let virtual = try UInputDevice(description: recording.device)
        let node = try #require(virtual.devnode)
        let device = try EvdevDevice(path: node, requireTouchscreen: false)
        #expect(device.device.name == recording.device.name)
        for (code, info) in recording.device.absInfo {
            #expect(device.device.absInfo[code]?.minimum == info.minimum)
            #expect(device.device.absInfo[code]?.maximum == info.maximum)
        }
    }

    @Test("frames written to a virtual touchscreen come out of TouchInput; removing it cancels the drag")
    func liveDrag() throws {
        let recording = try Fixture.atmelDrag.recording()
        var virtual: UInputDevice? = try UInputDevice(description: recording.device)
        let node = try #require(virtual?.devnode)
        let input = try TouchInput(source: try EvdevDevice(path: node, requireDirect: false), width: 800, height: 480)
        // The first 60 events: the touch-down and the start of the drag.
        for event in recording.events.prefix(60) { try virtual?.write(event) }
        let frames = try input.read(now: 0)
        #expect(frames.first?.touches.first?.phase == .began)
        #expect(frames.count > 5)
        // Unplug: the kernel removes the node, the next read cancels the contact still down.
        virtual = nil
        let cancelled = try input.read(now: 1)
        #expect(cancelled.map { $0.touches.map(\.phase) } == [[.cancelled]])
        #expect(input.isGone)
    }
}

@Suite("Hotplug")
struct HotplugTests {
    /// Opens fake devices by node; a node in `missing` fails like an absent one.
    final class Devices {
        var sources: [String: FakeSource] = [:]
        var missing: Set<String> = []
        func open(_ node: String) throws -> any EventSource {
            if missing.contains(node) { throw InputError.cannotOpen(path: node, errno: ENOENT) }
            let source = FakeSource(device: slotted)
            sources[node] = source
            return source
        }
    }

    func info(_ node: String) -> TouchscreenInfo { TouchscreenInfo(node: node, name: node, calibrationProperty: nil) }

    @Test("a device that goes away mid-drag cancels it; when it returns it is used again")
    func unplugAndReturn() {
        let devices = Devices()
        let set = TouchscreenSet(width: 1001, height: 1001, open: devices.open)
        set.start(discovered: [info("/dev/input/event3")])
        #expect(set.nodes == ["/dev/input/event3"])
        var s = Stream()
        s.slot(0, id: 1, x: 100, y: 100); s.syn()
        devices.sources["/dev/input/event3"]?.pending = [s.events]
        #expect(set.read(node: "/dev/input/event3", now: 1).count == 1)
        let cancelled = set.handle(.removed("/dev/input/event3"), now: 2)
        #expect(cancelled.map { $0.touches.map(\.phase) } == [[.cancelled]])
        #expect(set.nodes.isEmpty)
        _ = set.handle(.added(info("/dev/input/event3")), now: 3)
        #expect(set.nodes == ["/dev/input/event3"])
        devices.sources["/dev/input/event3"]?.pending = [s.events]
        let again = set.read(node: "/dev/input/event3", now: 4)
        #expect(again.first?.touches.first?.phase == .began)
        #expect(again.first?.touches.first?.id != cancelled.first?.touches.first?.id, "a new contact")
    }

    @Test("suspended (another VT in front): every device closed, contacts cancelled, new ones held back; resumed: all opened again")
    func suspendAndResume() {
        let devices = Devices()
        let set = TouchscreenSet(width: 1001, height: 1001, open: devices.open)
        set.start(discovered: [info("/dev/input/event3"), info("/dev/input/event4")])
        var s = Stream()
        s.slot(0, id: 1, x: 100, y: 100); s.syn()
        devices.sources["/dev/input/event3"]?.pending = [s.events]
        _ = set.read(node: "/dev/input/event3", now: 1)
        let cancelled = set.suspend(now: 2)
        #expect(cancelled.map { $0.touches.map(\.phase) } == [[.cancelled]])
        #expect(set.nodes.isEmpty && set.isSuspended)
        // A device plugged in meanwhile waits too; one unplugged meanwhile is forgotten.
        _ = set.handle(.added(info("/dev/input/event5")), now: 3)
        _ = set.handle(.removed("/dev/input/event4"), now: 3)
        #expect(set.nodes.isEmpty)
        set.resume()
        #expect(set.nodes == ["/dev/input/event3", "/dev/input/event5"] && !set.isSuspended)
    }

    @Test("one device suspended and resumed (logind pauses each touchscreen on its own); the others go on")
    func suspendOne() {
        let devices = Devices()
        let set = TouchscreenSet(width: 1001, height: 1001, open: devices.open)
        set.start(discovered: [info("/dev/input/event3"), info("/dev/input/event4")])
        _ = set.suspend(["/dev/input/event4"], now: 1)
        #expect(set.nodes == ["/dev/input/event3"] && !set.isSuspended)
        set.resume(["/dev/input/event4"])
        #expect(set.nodes == ["/dev/input/event3", "/dev/input/event4"])
    }

    @Test("a read that finds the device gone drops it and cancels its contacts")
    func goneOnRead() {
        let devices = Devices()
        let set = TouchscreenSet(width: 1001, height: 1001, open: devices.open)
        set.start(discovered: [info("/dev/input/event3")])
        var s = Stream()
        s.slot(0, id: 1, x: 100, y: 100); s.syn()
        devices.sources["/dev/input/event3"]?.pending = [s.events]
        _ = set.read(node: "/dev/input/event3", now: 1)
        devices.sources["/dev/input/event3"]?.unplugged = true
        #expect(set.read(node: "/dev/input/event3", now: 2).map { $0.touches.map(\.phase) } == [[.cancelled]])
        #expect(set.nodes.isEmpty)
    }

    @Test("explicit paths override discovery; other touchscreens are ignored, even when they appear")
    func explicit() {
        let devices = Devices()
        let set = TouchscreenSet(explicitPaths: ["/dev/input/event7"], width: 100, height: 100, open: devices.open)
        set.start(discovered: [info("/dev/input/event3"), info("/dev/input/event7")])
        #expect(set.nodes == ["/dev/input/event7"])
        _ = set.handle(.added(info("/dev/input/event5")), now: 1)
        #expect(set.nodes == ["/dev/input/event7"])
    }

    @Test("two devices never share a contact id; one that cannot be opened is reported, the rest work")
    func twoDevices() {
        let devices = Devices()
        devices.missing = ["/dev/input/event9"]
        var errors: [InputError] = []
        let set = TouchscreenSet(width: 1001, height: 1001, open: devices.open)
        set.onError = { errors.append($0) }
        set.start(discovered: [info("/dev/input/event3"), info("/dev/input/event4"), info("/dev/input/event9")])
        #expect(set.nodes == ["/dev/input/event3", "/dev/input/event4"])
        #expect(errors == [.cannotOpen(path: "/dev/input/event9", errno: ENOENT)])
        var s = Stream()
        s.slot(0, id: 1, x: 100, y: 100); s.syn()
        devices.sources["/dev/input/event3"]?.pending = [s.events]
        devices.sources["/dev/input/event4"]?.pending = [s.events]
        let a = set.read(node: "/dev/input/event3", now: 1).first?.touches.first?.id
        let b = set.read(node: "/dev/input/event4", now: 1).first?.touches.first?.id
        #expect(a != nil && b != nil && a != b)
    }
}

@Suite("Recording source")
struct RecordingSourceTests {
    @Test("a recording read through TouchInput gives the frames a replay gives", arguments: Fixture.allCases)
    func samePath(fixture: Fixture) throws {
        let recording = try fixture.recording()
        let replayed = try EvemuReplay(recording: recording, width: fixture.screen.width, height: fixture.screen.height,
                                       configuration: fixture.configuration).frames(start: 5)
        let source = RecordingSource(recording: recording, start: 5)
        let input = try TouchInput(source: source, width: fixture.screen.width, height: fixture.screen.height,
                                   configuration: fixture.configuration)
        var frames: [TouchFrame] = []
        var t = 5.0
        while !source.isFinished {
            t += 0.05
            source.advance(to: t)
            frames += try input.read(now: t)
        }
        #expect(frames == replayed)
    }
}
