import Foundation
import PanelGestures
import PanelInput

/// Events per second through evemu parsing, slot assembly and pan recognition, on a long
/// recording made of a real one (fixture 02, a drag up and down on an Atmel maXTouch)
/// repeated end to end.
enum InputBenchmark {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/PanelInputTests/Fixtures/02-atmel-maxtouch.mt-b.1fg-drag-up-down.evemu")

    /// Builds the long recording's text: the fixture's events `copies` times, each copy
    /// shifted past the end of the previous one.
    static func longRecording(copies: Int) throws -> String {
        let base = try EvemuRecording.load(path: fixture.path)
        guard let first = base.events.first?.microseconds, let last = base.events.last?.microseconds else {
            throw EvemuError(file: fixture.path, line: 0, reason: "no events")
        }
        let span = last - first + 20_000
        var events: [InputEvent] = []
        events.reserveCapacity(base.events.count * copies)
        for copy in 0..<Int64(copies) {
            for var e in base.events {
                e.microseconds += copy * span
                events.append(e)
            }
        }
        return EvemuWriter.recording(EvemuRecording(device: base.device, events: events))
    }

    /// Parse + assemble + recognise once; returns (events, pans ended) so nothing is
    /// optimised away.
    static func pipeline(_ text: String) throws -> (events: Int, pans: Int) {
        let recording = try EvemuParser.parse(text, file: "long.evemu")
        var assembler = try TouchAssembler(device: recording.device, width: 800, height: 480)
        var pan = PanRecognizer()
        var ended = 0
        for event in recording.events {
            if let frame = assembler.feed(event), let e = pan.handle(frame), e.state == .ended { ended += 1 }
        }
        return (recording.events.count, ended)
    }

    /// Median seconds of `runs` calls of `body`.
    static func median<T>(_ runs: Int, _ body: () throws -> T) rethrows -> (seconds: Double, result: T) {
        let clock = ContinuousClock()
        var times: [Double] = []
        var result: T?
        for _ in 0..<runs {
            let start = clock.now
            result = try body()
            let elapsed = start.duration(to: clock.now)
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return (times.sorted()[times.count / 2], result!)
    }

    static func report(_ name: String, events: Int, seconds: Double) {
        print(String(format: "case=%@ events=%d seconds=%.3f events_per_s=%.0f", name, events, seconds, Double(events) / seconds))
    }

    static func run(copies: Int = 2000, runs: Int = 5) throws {
        let text = try longRecording(copies: copies)
        let whole = try median(runs) { try pipeline(text) }
        guard whole.result.pans == copies else {
            throw EvemuError(file: "long.evemu", line: 0, reason: "expected \(copies) pans, recognised \(whole.result.pans)")
        }
        report("input-pipeline", events: whole.result.events, seconds: whole.seconds)
        // The parts, to see where the time goes.
        let parsed = try median(runs) { try EvemuParser.parse(text, file: "long.evemu") }
        report("input-parse", events: parsed.result.events.count, seconds: parsed.seconds)
        let recording = parsed.result
        let assembled = try median(runs) { () throws -> [TouchFrame] in
            var assembler = try TouchAssembler(device: recording.device, width: 800, height: 480)
            return recording.events.compactMap { assembler.feed($0) }
        }
        report("input-assemble", events: recording.events.count, seconds: assembled.seconds)
        let frames = assembled.result
        let recognised = median(runs) { () -> Int in
            var pan = PanRecognizer()
            return frames.reduce(0) { $0 + (pan.handle($1) == nil ? 0 : 1) }
        }
        report("input-recognise", events: recording.events.count, seconds: recognised.seconds)
    }
}
