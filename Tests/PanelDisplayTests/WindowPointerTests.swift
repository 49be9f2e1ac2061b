import Testing
import PanelDisplay
import PanelGestures
import PanelUI

@Suite("A desktop window's mouse and fingers as touch frames")
struct WindowPointerTests {
    @Test("press, drag and release are one contact that begins, moves and ends, each at its time")
    func mouseContact() {
        var pointer = WindowPointer(rotation: .none, glassWidth: 800, glassHeight: 480)
        let frames = pointer.frames(for: [
            .drag(x: 1, y: 1, at: 0.9),  // a move without the button: nothing
            .press(x: 400, y: 20, at: 1.0), .drag(x: 400, y: 60, at: 1.02), .release(x: 400, y: 80, at: 1.04),
            .release(x: 400, y: 80, at: 1.05),  // a release with nothing down: nothing
        ])
        #expect(frames.map(\.timestamp) == [1.0, 1.02, 1.04])
        #expect(frames.map { $0.touches.map(\.phase) } == [[.began], [.moved], [.ended]])
        #expect(frames.map { $0.touches[0].position } == [Point(x: 400, y: 20), Point(x: 400, y: 60), Point(x: 400, y: 80)])
        #expect(!pointer.isDown)
        // Events stamped with minus their age come out at the present given (a window's read).
        var aged = WindowPointer(rotation: .none, glassWidth: 800, glassHeight: 480)
        #expect(aged.frames(for: [.press(x: 1, y: 1, at: -0.25), .release(x: 1, y: 1, at: 0)], shiftedBy: 10).map(\.timestamp) == [9.75, 10])
    }

    @Test("positions are turned back from the glass to the picture as the display turns it", arguments: [
        (Rotation.none, Point(x: 100, y: 50)),
        // The picture (480x800) a quarter clockwise on an 800x480 glass: its top-left corner is
        // at the glass's top-right.
        (.clockwise90, Point(x: 50, y: 700)),
        (.upsideDown, Point(x: 700, y: 430)),
        (.clockwise270, Point(x: 430, y: 100)),
    ])
    func rotation(rotation: Rotation, expected: Point) {
        let pointer = WindowPointer(rotation: rotation, glassWidth: 800, glassHeight: 480)
        #expect(pointer.picturePoint(x: 100, y: 50) == expected)
        // The glass's corners are the picture's corners.
        let w = rotation.swapsSides ? 480.0 : 800, h = rotation.swapsSides ? 800.0 : 480
        let corners = [(0.0, 0.0), (800.0, 0.0), (0.0, 480.0), (800.0, 480.0)].map { pointer.picturePoint(x: $0.0, y: $0.1) }
        #expect(Set(corners.map { "\($0.x),\($0.y)" }) == ["0.0,0.0", "\(w),0.0", "0.0,\(h)", "\(w),\(h)"])
    }

    @Test("fingers are contacts of their own beside the mouse; every frame lists every contact down")
    func fingers() {
        var pointer = WindowPointer(rotation: .none, glassWidth: 800, glassHeight: 400)
        let frames = pointer.frames(for: [
            .press(x: 10, y: 10, at: 1),
            .finger(id: 77, phase: .began, x: 0.5, y: 0.5, at: 2),
            .finger(id: 77, phase: .moved, x: 0.5, y: 0.75, at: 3),
            .finger(id: 99, phase: .moved, x: 0.1, y: 0.1, at: 3.5),  // never down: nothing
            .finger(id: 77, phase: .ended, x: 0.5, y: 0.75, at: 4),
            .release(x: 10, y: 10, at: 5),
        ])
        #expect(frames.count == 5)
        #expect(frames[1].touches.map(\.id) == [0, 1] && frames[1].touches.map(\.phase) == [.moved, .began])
        #expect(frames[2].touches[1].position == Point(x: 400, y: 300))
        #expect(frames[3].touches.map(\.phase) == [.moved, .ended])
        #expect(frames[4].touches.map(\.id) == [0] && frames[4].touches[0].phase == .ended)
    }

    @Test("the window losing the mouse cancels what is down, so a drag is not taken for a lift")
    func focusLost() {
        var pointer = WindowPointer(rotation: .none, glassWidth: 800, glassHeight: 480)
        let frames = pointer.frames(for: [.press(x: 5, y: 5, at: 1), .drag(x: 5, y: 50, at: 1.1), .focusLost(at: 1.2),
                                          .drag(x: 5, y: 90, at: 1.3), .focusLost(at: 1.4)])
        #expect(frames.count == 3)
        #expect(frames.last?.hasCancellation == true && frames.last?.touches.count == 1)
        #expect(!pointer.isDown)
    }

    @Test("a press while one is down (a lost button-up) ends the old contact before the new begins")
    func lostRelease() {
        var pointer = WindowPointer(rotation: .none, glassWidth: 800, glassHeight: 480)
        let frames = pointer.frames(for: [.press(x: 5, y: 5, at: 1), .press(x: 50, y: 50, at: 2)])
        #expect(frames.map { $0.touches.map(\.phase) } == [[.began], [.cancelled], [.began]])
    }
}
