import Testing
@testable import PanelPhysics

@Suite("Bouncing scroll")
struct BouncingScrollSimulationTests {
    @Test("a fling that stays in range is pure friction")
    func inRange() {
        let s = BouncingScrollSimulation(position: 0, velocity: 1000, leading: 0, trailing: 5000)
        let f = FrictionSimulation(start: 0, velocity: 1000)
        #expect(s.springStartTime == nil)
        for t in [0.1, 0.5, 3] { #expect(s.x(t) == f.x(t)) }
    }

    @Test("crossing an edge hands over to a spring with the velocity it had there")
    func handOver() throws {
        let s = BouncingScrollSimulation(position: 900, velocity: 2000, leading: 0, trailing: 1000)
        let t = try #require(s.springStartTime)
        let f = FrictionSimulation(start: 900, velocity: 2000)
        #expect(abs(f.x(t) - 1000) < 1e-6)
        // Continuous in position and velocity across the hand-over.
        #expect(abs(s.x(t - 1e-7) - s.x(t + 1e-7)) < 1e-3)
        #expect(abs(s.dx(t - 1e-7) - s.dx(t + 1e-7)) < 0.1)
        #expect(abs(s.dx(t + 1e-7) - f.dx(t)) < 0.1)
        // It goes past the edge, then comes back and rests on it.
        #expect((1...100).contains { s.x(t + Double($0) / 100) > 1001 })
        #expect(s.isDone(t + 3))
        #expect(abs(s.x(t + 3) - 1000) < 0.5)
    }

    @Test("starting out of range springs back")
    func outOfRange() {
        let above = BouncingScrollSimulation(position: -120, velocity: 0, leading: -54, trailing: 800)
        #expect(above.springStartTime == 0)
        #expect(above.x(0) == -120)
        #expect(abs(above.x(3) + 54) < 0.5)
        let below = BouncingScrollSimulation(position: 900, velocity: 0, leading: 0, trailing: 800)
        #expect(abs(below.x(3) - 800) < 0.5)
    }

    @Test("the velocity carried into the spring is capped at 5000 px/s")
    func transferCap() {
        let s = BouncingScrollSimulation(position: -10, velocity: -9000, leading: 0, trailing: 100)
        #expect(s.dx(0) == -BouncingScrollSimulation.maxSpringTransferVelocity)
    }
}
