import Testing
@testable import PanelInput
import PanelGestures

@Suite("The 1-euro filter for noisy sensors")
struct OneEuroFilterTests {
    /// Standard deviation of `values`.
    func deviation(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }

    @Test("a still finger: the first position as it is, one that does not move stays exactly there")
    func still() {
        var filter = OneEuroFilter()
        let p = Point(x: 120.5, y: 300.25)
        #expect(filter.filter(p, at: 1) == p)
        for i in 1...50 { #expect(filter.filter(p, at: 1 + Double(i) * 0.008) == p) }
    }

    @Test("a finger at rest whose sensor wanders ±2 pt every 8 ms: the points shake less than a third as much")
    func noiseAtRest() {
        var filter = OneEuroFilter()
        var raw: [Double] = [], smoothed: [Double] = []
        // A fixed pseudo-random wander (a linear congruential sequence), the same every run.
        var seed: UInt32 = 12345
        for i in 0..<200 {
            seed = seed &* 1_103_515_245 &+ 12345
            let y = 300 + (Double(seed >> 16 & 0x7fff) / 32767 * 4 - 2)
            let out = filter.filter(Point(x: 100, y: y), at: Double(i) * 0.008)
            if i >= 50 { raw.append(y); smoothed.append(out.y) }
        }
        #expect(deviation(smoothed) < deviation(raw) / 3, "\(deviation(smoothed)) against \(deviation(raw))")
    }

    @Test("a drag at 500 pt/s: the filter lags by its time constant at that speed (about 4 ms, 2 pt), no more")
    func lagAtSpeed() {
        var filter = OneEuroFilter()
        var lag = 0.0
        for i in 0..<100 {
            let t = Double(i) * 0.008
            let out = filter.filter(Point(x: 0, y: 500 * t), at: t)
            lag = 500 * t - out.y
        }
        // The speed is read against the last filtered point, so it counts the lag too: with a
        // lag L, 500 + L / 8 ms pt/s, and the lag settles where L = 500 pt/s × τ at the cutoff
        // 1 + 0.05 × that speed: about 2.1 pt (τ ≈ 4.2 ms, 38 Hz).
        #expect(lag > 1.7 && lag < 2.5, "\(lag) pt")
        #expect(lag < 500 * 0.008, "less than one report's step")
    }

    @Test("the setting: off, one-euro, one-euro with its two numbers; anything else is refused with what is wanted")
    func setting() throws {
        #expect(try TouchFilter(text: "off") == .off)
        #expect(try TouchFilter(text: "one-euro") == .oneEuro(.standard))
        #expect(try TouchFilter(text: "one-euro 0.5 0.02") == .oneEuro(OneEuroFilter.Parameters(minimumCutoff: 0.5, beta: 0.02)))
        #expect(try TouchFilter(text: TouchFilter.oneEuro(OneEuroFilter.Parameters(minimumCutoff: 2, beta: 0.1)).description)
                == .oneEuro(OneEuroFilter.Parameters(minimumCutoff: 2, beta: 0.1)))
        for bad in ["", "on", "one-euro 1", "one-euro 0 0.05", "one-euro 1 -1", "one-euro 1 nan", "one-euro 1 0.05 3", "off 1"] {
            #expect(throws: InputError.badFilter(bad)) { try TouchFilter(text: bad) }
        }
        #expect(InputError.badFilter("x").description.contains("one-euro"))
    }

    @Test("a device's udev property gives its filter; one that does not parse is kept to be reported, not applied")
    func udevProperty() {
        let good = TouchscreenInfo(node: "/dev/input/event3", name: "noisy", calibrationProperty: nil, filterProperty: "one-euro")
        #expect(good.filter == .oneEuro(.standard) && good.invalidFilter == nil)
        let bad = TouchscreenInfo(node: "/dev/input/event3", name: "noisy", calibrationProperty: nil, filterProperty: "smooth")
        #expect(bad.filter == nil && bad.invalidFilter == "smooth")
    }

    @Test("the assembler filters each contact from its own first position; off leaves the positions as reported")
    func assembler() throws {
        var s = Stream()
        s.slot(0, id: 1, x: 100, y: 100); s.slot(1, id: 2, x: 800, y: 800); s.syn(advance: 8_000)
        for step in 1...10 { s.slot(0, y: 100 + Int32(step) * 10); s.slot(1, y: 800 - Int32(step) * 10); s.syn(advance: 8_000) }
        s.slot(0, id: -1); s.slot(1, id: -1); s.syn()
        let plain = try frames(slotted, s)
        var assembler = try TouchAssembler(device: slotted, width: 1001, height: 1001)
        assembler.mapping.filter = .oneEuro(.standard)
        let smoothed = s.events.compactMap { assembler.feed($0) }
        #expect(plain.count == smoothed.count)
        #expect(smoothed[0].touches.map(\.position) == plain[0].touches.map(\.position), "a contact begins where it is")
        let last = smoothed.count - 2
        // Each contact lags its own way: down for the first, up for the second.
        #expect(smoothed[last].touches[0].position.y < plain[last].touches[0].position.y)
        #expect(smoothed[last].touches[1].position.y > plain[last].touches[1].position.y)
        #expect(smoothed.map { $0.touches.map(\.phase) } == plain.map { $0.touches.map(\.phase) })
        var off = try TouchAssembler(device: slotted, width: 1001, height: 1001)
        off.mapping.filter = .off
        #expect(s.events.compactMap { off.feed($0) }.map { $0.touches.map(\.position) } == plain.map { $0.touches.map(\.position) })
    }
}
