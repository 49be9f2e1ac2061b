import Foundation
import Testing
@testable import PanelPhysics

@Suite("Friction simulation")
struct FrictionSimulationTests {
    @Test("a fling at 1000 px/s with 0.998 comes to rest 499.5 px away")
    func restDistanceNormal() {
        let fling = FrictionSimulation(start: 0, velocity: 1000, rate: .normal)
        #expect(abs(fling.restPosition - 499.5) < 0.5)
        #expect(abs(fling.x(60) - 499.5) < 0.5)
    }

    @Test("the fast rate travels 0.0995·v₀")
    func restDistanceFast() {
        let fling = FrictionSimulation(start: 100, velocity: -2000, rate: .fast)
        #expect(abs(fling.restPosition - (100 - 0.0995 * 2000)) < 0.5)
    }

    @Test("position and velocity match v₀·r^(1000t) at sample times", arguments: [0.0, 0.016, 0.1, 0.5, 1, 2.5])
    func matchesClosedForm(t: Double) {
        let v0 = 2400.0, x0 = 37.0, r = 0.998
        let fling = FrictionSimulation(start: x0, velocity: v0, rate: .normal)
        // Written independently of the implementation: velocity decays by r each millisecond.
        let velocity = v0 * pow(r, 1000 * t)
        let position = x0 + v0 * (pow(r, 1000 * t) - 1) / (1000 * log(r))
        #expect(abs(fling.dx(t) - velocity) < 1e-6 * v0)
        #expect(abs(fling.x(t) - position) < 1e-6 * v0)
    }

    @Test("the per-frame factor at 60 Hz is 0.967")
    func perFrameFactor() {
        let fling = FrictionSimulation(start: 0, velocity: 1000)
        #expect(abs(fling.dx(1.0 / 60) / 1000 - 0.967) < 0.001)
    }

    @Test("time to stop is when the speed reaches the threshold")
    func timeToStop() {
        let fling = FrictionSimulation(start: 0, velocity: -3000, tolerance: Tolerance(distance: 0.5, velocity: 20))
        let t = fling.timeToStop()
        #expect(abs(abs(fling.dx(t)) - 20) < 1e-9)
        #expect(!fling.isDone(t - 0.01))
        #expect(fling.isDone(t + 0.01))
        #expect(FrictionSimulation(start: 0, velocity: 5).timeToStop() == 0)
    }

    @Test("time at a position inverts x(t); positions past the rest point are never reached")
    func timeAtPosition() throws {
        let fling = FrictionSimulation(start: 0, velocity: 1000)
        let t = try #require(fling.time(atPosition: 300))
        #expect(abs(fling.x(t) - 300) < 1e-9)
        #expect(fling.time(atPosition: 600) == nil)
        #expect(fling.time(atPosition: -1) == nil)
    }
}
