import Foundation
import Testing
@testable import PanelPhysics

@Suite("Spring simulation")
struct SpringSimulationTests {
    /// m·x'' + c·x' + k·(x − end), by central differences of the simulation's own x(t): zero
    /// when x(t) solves the spring equation.
    func residual(_ s: SpringSimulation, at t: Double) -> Double {
        let h = 1e-4
        let a = (s.x(t + h) - 2 * s.x(t) + s.x(t - h)) / (h * h)
        let v = (s.x(t + h) - s.x(t - h)) / (2 * h)
        return s.spring.mass * a + s.spring.damping * v + s.spring.stiffness * (s.x(t) - s.end)
    }

    @Test("the three regimes are told apart by the damping ratio")
    func kinds() {
        #expect(SpringSimulation(spring: .scrollBounce, start: 0, end: 1, velocity: 0).kind == .criticallyDamped)
        #expect(SpringSimulation(spring: .flutterDefault, start: 0, end: 1, velocity: 0).kind == .overDamped)
        let bouncy = SpringDescription(mass: 1, stiffness: 200, dampingRatio: 0.3)
        #expect(SpringSimulation(spring: bouncy, start: 0, end: 1, velocity: 0).kind == .underDamped)
        #expect(abs(SpringDescription.flutterDefault.damping - 15.556) < 0.001)
    }

    @Test("critically damped: x(t) = end + (y₀ + (v₀ + ω·y₀)·t)·e^(−ωt)", arguments: [0.0, 0.05, 0.2, 0.7])
    func critical(t: Double) {
        let s = SpringSimulation(spring: .scrollBounce, start: -80, end: 0, velocity: 300)
        let w = 10.0 // √(k/m) for k = 100, m = 1
        let expected = (-80 + (300 + w * -80) * t) * exp(-w * t)
        #expect(abs(s.x(t) - expected) < 1e-9)
        #expect(abs(residual(s, at: t + 0.01)) < 1e-2, "relative to k·|y₀| = 8000")
    }

    @Test("under-damped: matches e^(−ζωt)(y₀cos ω_d t + …) and overshoots", arguments: [0.0, 0.1, 0.3, 1])
    func under(t: Double) {
        let spring = SpringDescription(mass: 2, stiffness: 300, damping: 6)
        let s = SpringSimulation(spring: spring, start: 50, end: 10, velocity: -100)
        let decay = 6.0 / (2 * 2), wd = (4 * 2 * 300 - 36.0).squareRoot() / (2 * 2)
        let y0 = 40.0, c2 = (-100 + decay * y0) / wd
        let expected = 10 + exp(-decay * t) * (y0 * cos(wd * t) + c2 * sin(wd * t))
        #expect(abs(s.x(t) - expected) < 1e-9)
        #expect(abs(residual(s, at: t + 0.01)) < 1e-2)
        #expect((0..<200).contains { s.x(Double($0) / 100) < 10 }, "an under-damped spring passes its end")
    }

    @Test("over-damped: solves the equation and never crosses its end from rest")
    func over() {
        let s = SpringSimulation(spring: SpringDescription(mass: 1, stiffness: 100, dampingRatio: 2), start: 100, end: 0, velocity: 0)
        for i in 1...100 {
            let t = Double(i) / 50
            #expect(abs(residual(s, at: t)) < 1e-2)
            #expect(s.x(t) > 0)
        }
        #expect(abs(s.dx(0)) < 1e-9)
    }

    @Test("velocity is the derivative of position")
    func derivative() {
        for spring in [SpringDescription.scrollBounce, .flutterDefault, SpringDescription(mass: 1, stiffness: 50, damping: 2)] {
            let s = SpringSimulation(spring: spring, start: 30, end: -20, velocity: 700)
            for t in [0.0, 0.03, 0.4] {
                let numeric = (s.x(t + 1e-6) - s.x(t - 1e-6)) / 2e-6
                #expect(abs(numeric - s.dx(t)) < 1e-3)
            }
        }
    }

    @Test("done within tolerance, not before")
    func done() {
        let s = SpringSimulation(spring: .scrollBounce, start: -100, end: 0, velocity: 0, tolerance: .scroll())
        #expect(!s.isDone(0.1))
        #expect(s.isDone(2))
    }
}
