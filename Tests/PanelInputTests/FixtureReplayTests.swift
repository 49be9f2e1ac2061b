import Foundation
import Testing
@testable import PanelInput
import PanelGestures

@Suite("Real recordings")
struct FixtureReplayTests {
    @Test("every recording parses, replays, and its contacts all end", arguments: Fixture.allCases)
    func replays(fixture: Fixture) throws {
        let frames = try fixture.frames()
        #expect(!frames.isEmpty)
        var down = Set<Int>()
        for frame in frames {
            for touch in frame.touches {
                #expect(touch.position.x >= 0 && touch.position.x <= fixture.screen.width - 1)
                #expect(touch.position.y >= 0 && touch.position.y <= fixture.screen.height - 1)
                switch touch.phase {
                case .began: #expect(down.insert(touch.id).inserted)
                case .moved: #expect(down.contains(touch.id))
                case .ended, .cancelled: #expect(down.remove(touch.id) != nil)
                }
            }
            #expect(frame.timestamp >= 0)
        }
        #expect(down.isEmpty, "nothing stays down")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
    }

    @Test("01: a quick swipe up is a fling in its direction, faster than its average speed")
    func pixelFling() throws {
        let frames = try Fixture.pixelSwipe.frames()
        let log = GestureLog(frames)
        let ended = try #require(log.pans.last)
        #expect(ended.state == .ended)
        let start = try #require(frames.first?.touches.first?.position)
        let end = try #require(frames.last?.touches.first?.position)
        let displacement = end - start
        let duration = try #require(frames.last?.timestamp) - frames[0].timestamp
        #expect(abs(duration - 0.208) < 0.001, "26 frames in 0.21 s")
        let average = displacement.length / duration
        let speed = ended.velocity.length
        // A flick accelerates until the lift: the release speed is above the average, within
        // reason (and within the 8000 px/s clamp).
        #expect(speed > average && speed < 4 * average)
        let cos = (ended.velocity.x * displacement.x + ended.velocity.y * displacement.y) / (speed * displacement.length)
        #expect(cos > 0.94, "within 20° of the swipe's direction")
        #expect(ended.velocity.y < 0, "upwards")
    }

    @Test("02: one finger drags up, then down; velocities follow")
    func atmelUpDown() throws {
        let log = GestureLog(try Fixture.atmelDrag.frames())
        #expect(log.count(.began) == 1 && log.count(.ended) == 1)
        let moves = log.pans.filter { $0.state == .changed }
        let highest = try #require(moves.min { $0.translation.y < $1.translation.y })
        let lowIndex = try #require(moves.firstIndex { $0.translation.y == highest.translation.y })
        #expect(highest.translation.y < -100, "it went up by more than 100 px")
        #expect(try #require(moves.last).translation.y > highest.translation.y + 100, "then down by more than 100 px")
        #expect(moves[..<lowIndex].contains { $0.velocity.y < -200 })
        #expect(moves[lowIndex...].contains { $0.velocity.y > 200 })
        #expect(moves.allSatisfy { $0.velocity.length < 3000 }, "a hand-paced drag")
    }

    @Test("03: nine quick taps are nine taps and no pan, though new contacts resend only changed axes")
    func atmelTaps() throws {
        let frames = try Fixture.atmelTaps.frames()
        let log = GestureLog(frames)
        #expect(log.taps.count == 9)
        #expect(log.pans.isEmpty)
        #expect(Set(frames.flatMap { $0.touches.map(\.id) }).count == 9)
        // Tracking id 8 starts with only ABS_MT_POSITION_X: its Y is the slot's last one.
        let beginnings = frames.flatMap { $0.touches.filter { $0.phase == .began } }
        #expect(beginnings.allSatisfy { $0.position.y > 200 && $0.position.y < 280 })
    }

    @Test("05: an undeclared axis (0x1d) is tolerated; the drag goes up, down and up")
    func elan() throws {
        let recording = try Fixture.elanDrag.recording()
        #expect(recording.events.contains { $0.type == EventType.abs && $0.code == 0x1d })
        let later = try EvemuRecording.load(path: Fixture.elanDrag.path,
                                            descriptionPath: Fixture.directory + "/descriptions/elan-cando-windows7.after-hid-multitouch-update.desc")
        #expect(!later.device.hasAbs(0x1d))
        let frames = try EvemuReplay(recording: later, width: 1504, height: 928).frames()
        let log = GestureLog(frames)
        let ys = log.pans.filter { $0.state == .changed }.map(\.velocity.y)
        // Direction changes of the vertical velocity (ignoring slow wobble).
        var directions: [Int] = []
        for v in ys where abs(v) > 150 {
            let d = v < 0 ? -1 : 1
            if directions.last != d { directions.append(d) }
        }
        #expect(directions == [-1, 1, -1])
    }

    @Test("07: protocol A, one contact from the top-left to the bottom-right, released by BTN_TOUCH")
    func ntrig() throws {
        let frames = try Fixture.ntrigDrag.frames()
        #expect(try Fixture.ntrigDrag.recording().device.touchProtocol == .multitouchA)
        #expect(Set(frames.flatMap { $0.touches.map(\.id) }).count == 1)
        let first = try #require(frames.first?.touches.first)
        let last = try #require(frames.last?.touches.first)
        #expect(first.position.x < 60 && first.position.y < 60)
        #expect(last.position.x > 1100 && last.position.y > 820)
        #expect(last.phase == .ended)
        let log = GestureLog(frames)
        #expect(log.count(.began) == 1 && log.count(.ended) == 1)
    }

    @Test("10: positions on ABS_Z/ABS_RX; a press-and-hold, then a drag")
    func egalax() throws {
        let frames = try Fixture.egalax.frames()
        let contacts = Set(frames.flatMap { $0.touches.map(\.id) })
        #expect(contacts.count == 2)
        let log = GestureLog(frames)
        #expect(log.count(.began) == 1, "only the second contact pans")
        #expect(try #require(log.pans.first).timestamp > 2)
        #expect(log.taps.isEmpty, "the hold is too long for a tap")
        // Without the remap there are no positions at all.
        let plain = try EvemuReplay(recording: try Fixture.egalax.recording(), width: 1024, height: 1024)
        #expect(plain.frames().isEmpty)
    }
}
