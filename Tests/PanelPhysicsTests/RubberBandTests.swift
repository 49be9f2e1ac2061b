import Testing
@testable import PanelPhysics

@Suite("Rubber band")
struct RubberBandTests {
    @Test("b = x·d·c/(d + c·x) with c = 0.55", arguments: [0.0, 10, 100, 480, 2000])
    func formula(x: Double) {
        let band = RubberBand(dimension: 480)
        #expect(abs(band.band(x) - x * 480 * 0.55 / (480 + 0.55 * x)) < 1e-9)
        #expect(band.band(-x) == -band.band(x))
    }

    @Test("at x = d the content moved 0.355·d; it never reaches d")
    func landmarks() {
        let band = RubberBand(dimension: 600)
        #expect(abs(band.band(600) / 600 - 0.355) < 0.001)
        #expect(band.band(1e9) < 600)
    }

    @Test("the inverse gives back the finger distance")
    func inverse() {
        let band = RubberBand(dimension: 480)
        for x in [1.0, 54, 300, 1500] {
            #expect(abs(band.distance(forOverscroll: band.band(x)) - x) < 1e-6)
            #expect(abs(band.distance(forOverscroll: band.band(-x)) + x) < 1e-6)
        }
        #expect(band.distance(forOverscroll: 480) == .infinity)
    }
}
