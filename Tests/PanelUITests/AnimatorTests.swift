import Testing
@testable import PanelUI

@MainActor
@Suite("Animator")
struct AnimatorTests {
    final class Box { var value: Double = 0 }

    @Test("a duration animation runs from the present value on the injected clock")
    func duration() {
        let clock = ManualClock()
        let animator = Animator(clock: clock)
        let box = Box()
        box.value = 10
        var finished: Bool?
        animator.animate(AnimationKey(box, "v"), from: box.value, to: 110, duration: 1, curve: .linear,
                         apply: { box.value = $0 }, completion: { finished = $0 })
        clock.advance(by: 0.25)
        animator.tick()
        #expect(box.value == 35)
        clock.advance(by: 0.75)
        animator.tick()
        #expect(box.value == 110)
        #expect(finished == true)
        #expect(animator.isIdle)
    }

    @Test("a new animation of the same key replaces the old one and starts where it is")
    func replacement() {
        let clock = ManualClock()
        let animator = Animator(clock: clock)
        let box = Box()
        var first: Bool?
        let key = AnimationKey(box, "v")
        animator.animate(key, from: 0, to: 100, duration: 1, curve: .linear, apply: { box.value = $0 },
                         completion: { first = $0 })
        clock.advance(by: 0.5)
        animator.tick()
        #expect(box.value == 50)
        animator.animate(key, from: box.value, to: 0, duration: 1, curve: .linear, apply: { box.value = $0 })
        #expect(first == false)
        clock.advance(by: 0.1)
        animator.tick()
        #expect(abs(box.value - 45) < 1e-9, "from the presented 50, not from a reset 100 or 0")
    }

    @Test("zero duration applies at once and completes synchronously")
    func zero() {
        let animator = Animator(clock: ManualClock())
        let box = Box()
        var done = false
        animator.animate(nil, from: 0.0, to: 7.0, duration: 0, apply: { box.value = $0 }, completion: { done = $0 })
        #expect(box.value == 7)
        #expect(done)
        #expect(animator.isIdle)
    }

    @Test("timers fire on the first tick at or after their time; nextWakeUp tells the loop when")
    func timers() {
        let clock = ManualClock()
        let animator = Animator(clock: clock)
        var fired = 0
        animator.schedule(nil, after: 2) { fired += 1 }
        #expect(animator.nextWakeUp == 2)
        clock.advance(by: 1.9)
        animator.tick()
        #expect(fired == 0)
        clock.advance(by: 0.1)
        animator.tick()
        #expect(fired == 1)
        #expect(animator.nextWakeUp == nil)
        animator.animate(nil, from: 0.0, to: 1.0, duration: 1, apply: { _ in })
        #expect(animator.nextWakeUp == clock.now, "a running animation wants frames now")
    }

    @Test("a spring animation follows its simulation")
    func simulation() {
        let clock = ManualClock()
        let animator = Animator(clock: clock)
        let spring = SpringSimulation(spring: .scrollBounce, start: -80, end: 0, velocity: 0)
        var x = -80.0
        animator.run(nil, simulation: spring, apply: { position, _ in x = position })
        clock.advance(by: 0.1)
        animator.tick()
        #expect(x == spring.x(0.1))
        clock.advance(by: 3)
        animator.tick()
        #expect(animator.isIdle)
    }

    @Test("curves start at 0, end at 1 and rise monotonically; ease-in-out is symmetric")
    func curves() {
        for curve in [AnimationCurve.linear, .easeIn, .easeOut, .easeInOut] {
            #expect(curve.progress(0) == 0)
            #expect(abs(curve.progress(1) - 1) < 1e-9)
            var last = 0.0
            for i in 1...100 {
                let p = curve.progress(Double(i) / 100)
                #expect(p >= last - 1e-9)
                last = p
            }
        }
        #expect(abs(AnimationCurve.easeInOut.progress(0.5) - 0.5) < 1e-6)
        #expect(AnimationCurve.easeOut.progress(0.25) > 0.25)
        #expect(AnimationCurve.easeIn.progress(0.25) < 0.25)
    }
}

@MainActor
@Suite("Animator springs")
struct AnimatorSpringTests {
    @Test("a spring animation starts from the present value and lands exactly on its target")
    func spring() {
        let clock = ManualClock()
        let animator = Animator(clock: clock)
        var value = 30.0
        var finished = false
        let spring = SpringDescription(mass: 1, stiffness: 200, dampingRatio: 0.5)
        animator.animate(nil, from: value, to: 100, spring: spring, apply: { value = $0 }, completion: { finished = $0 })
        clock.advance(by: 0.05)
        animator.tick()
        let reference = SpringSimulation(spring: spring, start: 30, end: 100, velocity: 0)
        #expect(value == reference.x(0.05))
        var overshot = false
        for _ in 0..<300 {
            clock.advance(by: 1.0 / 60)
            animator.tick()
            overshot = overshot || value > 100
        }
        #expect(overshot, "ζ = 0.5 overshoots")
        #expect(finished)
        #expect(value == 100)
    }
}
