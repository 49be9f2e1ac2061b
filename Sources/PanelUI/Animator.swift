import PanelGestures
import PanelPhysics

/// Names one animated property so a new animation of it replaces the running one.
public struct AnimationKey: Hashable, Sendable {
    /// The object animated.
    public let object: ObjectIdentifier
    /// Which of its properties.
    public let name: String

    /// The key of `object`'s property `name`.
    public init(_ object: AnyObject, _ name: String) {
        self.object = ObjectIdentifier(object)
        self.name = name
    }
}

/// Runs every animation of the UI from an injected clock.
///
/// Nothing here reads a clock or starts a timer: the run loop (or a test) advances the clock
/// and calls `tick()` once per frame. Every animation starts from the value the property has
/// when it is created (its presented value), never from a remembered or reset value, and a
/// new animation with the same key replaces the running one, whose completion is called with
/// `false`. Animations with zero duration apply their end value and complete at once.
@MainActor
public final class Animator {
    /// The clock the animations run on.
    public let clock: any Clock

    private final class Entry {
        let key: AnimationKey?
        let start: Double
        /// Applies the animation at `elapsed` seconds; returns true once finished.
        let step: (Double) -> Bool
        let completion: ((Bool) -> Void)?
        /// For a pure timer: the time (s) it fires; nil for continuous animations.
        let deadline: Double?

        init(key: AnimationKey?, start: Double, deadline: Double?,
             step: @escaping (Double) -> Bool, completion: ((Bool) -> Void)?) {
            (self.key, self.start, self.deadline, self.step, self.completion) = (key, start, deadline, step, completion)
        }
    }

    private var entries: [Entry] = []

    /// An animator on `clock`.
    public init(clock: any Clock) {
        self.clock = clock
    }

    /// True when nothing runs: the run loop may sleep.
    public var isIdle: Bool { entries.isEmpty }

    /// When the run loop must wake next: `clock.now` while something moves, the earliest
    /// timer when only timers wait, nil when idle.
    public var nextWakeUp: Double? {
        var earliest: Double? = nil
        for entry in entries {
            guard let deadline = entry.deadline else { return clock.now }
            earliest = min(earliest ?? deadline, deadline)
        }
        return earliest
    }

    /// Whether an animation of `key` runs.
    public func isRunning(_ key: AnimationKey) -> Bool { entries.contains { $0.key == key } }

    /// Animates from `from` (the property's value now) to `to` over `duration` s.
    /// `apply` receives each value on `tick()`; with `duration` <= 0 it receives `to` at once.
    @discardableResult
    public func animate<Value: Interpolatable>(
        _ key: AnimationKey?, from: Value, to: Value, duration: Double,
        curve: AnimationCurve = .easeInOut, apply: @escaping (Value) -> Void,
        completion: ((Bool) -> Void)? = nil
    ) -> AnimationKey? {
        if let key { cancel(key) }
        guard duration > 0 else {
            apply(to)
            completion?(true)
            return key
        }
        add(Entry(key: key, start: clock.now, deadline: nil, step: { elapsed in
            let f = elapsed / duration
            apply(Value.interpolate(from, to, curve.progress(f)))
            return f >= 1
        }, completion: completion))
        return key
    }

    /// Animates a number from `from` (its value now) to `to` with a spring, starting at
    /// `velocity` (units per second); `apply` receives each value and, at the end, exactly `to`.
    public func animate(_ key: AnimationKey?, from: Double, to: Double, spring: SpringDescription,
                        velocity: Double = 0, apply: @escaping (Double) -> Void,
                        completion: ((Bool) -> Void)? = nil) {
        let simulation = SpringSimulation(spring: spring, start: from, end: to, velocity: velocity)
        drive(key, step: { elapsed in
            let done = simulation.isDone(elapsed)
            apply(done ? to : simulation.x(elapsed))
            return done
        }, completion: completion)
    }

    /// Drives a property with a simulation; `apply` receives position and velocity.
    /// When the simulation is done, `apply` gets its last evaluated values.
    public func run(_ key: AnimationKey?, simulation: any Simulation,
                    apply: @escaping (_ x: Double, _ velocity: Double) -> Void,
                    completion: ((Bool) -> Void)? = nil) {
        drive(key, step: { elapsed in
            apply(simulation.x(elapsed), simulation.dx(elapsed))
            return simulation.isDone(elapsed)
        }, completion: completion)
    }

    /// The general form: `step` gets the seconds since the start and returns true when done.
    public func drive(_ key: AnimationKey?, step: @escaping (Double) -> Bool,
                      completion: ((Bool) -> Void)? = nil) {
        if let key { cancel(key) }
        add(Entry(key: key, start: clock.now, deadline: nil, step: step, completion: completion))
    }

    /// Runs `action` once, `delay` s from now (on the first tick at or after it).
    public func schedule(_ key: AnimationKey?, after delay: Double, action: @escaping () -> Void) {
        if let key { cancel(key) }
        let deadline = clock.now + max(0, delay)
        add(Entry(key: key, start: clock.now, deadline: deadline, step: { _ in true },
                  completion: { finished in if finished { action() } }))
    }

    /// Stops the animation with `key`; its completion gets `false`. Returns whether one ran.
    @discardableResult
    public func cancel(_ key: AnimationKey) -> Bool {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return false }
        let entry = entries.remove(at: index)
        entry.completion?(false)
        return true
    }

    /// Drops every animation and timer without calling their completions: what they would
    /// move is gone (a reload took the content they belonged to off the stage).
    public func removeAll() { entries.removeAll() }

    /// Advances every animation to `clock.now`. Animations added by completions run from the
    /// next tick.
    public func tick() {
        let now = clock.now
        for entry in entries {
            // An earlier step or completion in this tick may have removed or replaced it.
            guard entries.contains(where: { $0 === entry }) else { continue }
            let finished: Bool
            if let deadline = entry.deadline {
                finished = now >= deadline
            } else {
                finished = entry.step(now - entry.start)
            }
            guard finished else { continue }
            entries.removeAll { $0 === entry }
            entry.completion?(true)
        }
    }

    private func add(_ entry: Entry) { entries.append(entry) }
}
