import Testing
@testable import PanelGestures

@Suite("Tap recognizer")
struct TapRecognizerTests {
    @Test("down and up in place is a tap at the touch-down point")
    func tap() {
        var recognizer = TapRecognizer()
        var script = GestureScript()
        script.tap(at: Point(x: 40, y: 60))
        let taps = script.frames.compactMap { recognizer.handle($0) }
        #expect(taps == [TapRecognizer.Tap(location: Point(x: 40, y: 60), timestamp: 0.08)])
    }

    @Test("moving past the slop, holding too long or a second finger is no tap")
    func notTaps() {
        var moved = TapRecognizer()
        var drag = GestureScript()
        drag.drag(from: Point(x: 0, y: 0), to: Point(x: 0, y: 30), duration: 0.1)
        #expect(drag.frames.compactMap { moved.handle($0) }.isEmpty)

        var long = TapRecognizer()
        var hold = GestureScript()
        hold.tap(at: Point(x: 5, y: 5), duration: 0.7)
        #expect(hold.frames.compactMap { long.handle($0) }.isEmpty)

        var two = TapRecognizer()
        let f = Fingers()
        _ = two.handle(f.frame([(1, 0, 0, .began)]))
        _ = two.handle(f.frame([(1, 0, 0, .moved), (2, 50, 0, .began)]))
        let event1 = two.handle(f.frame([(1, 0, 0, .ended), (2, 50, 0, .ended)]))
        #expect(event1 == nil)
    }

    @Test("nine quick taps are nine taps")
    func manyTaps() {
        var recognizer = TapRecognizer()
        var script = GestureScript()
        for i in 0..<9 {
            script.tap(at: Point(x: Double(i) * 50, y: 100))
            script.wait(0.1)
        }
        #expect(script.frames.compactMap { recognizer.handle($0) }.count == 9)
    }
}
