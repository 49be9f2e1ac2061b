/// Builds touch frames for scripted gestures: the input of tests, of the example program and
/// of anyone who wants to drive the panel without a touchscreen.
///
/// Times are seconds on the caller's timeline (CLOCK_MONOTONIC for real input); frames come at
/// `rate` per second, as a touch controller reports them.
public struct GestureScript: Sendable {
    /// Frames per second of generated movement; 120 Hz is typical of capacitive panels.
    public var rate: Double
    /// The frames written so far, in time order.
    public private(set) var frames: [TouchFrame] = []
    /// Time of the last generated frame, s.
    public private(set) var time: Double
    private var nextID = 1

    /// A script whose first frame is at `time` seconds, with frames `rate` times a second (120: a panel's touch report rate).
    public init(start time: Double = 0, rate: Double = 120) { (self.time, self.rate) = (time, rate) }

    /// One finger from `from` to `to` over `duration` s, linear, then (if `lift`) up after
    /// `hold` s without moving. Returns self for chaining.
    @discardableResult
    public mutating func drag(from: Point, to: Point, duration: Double, hold: Double = 0,
                              lift: Bool = true) -> GestureScript {
        drag(fingers: [from], by: to - from, duration: duration, hold: hold, lift: lift)
    }

    /// Several fingers moving together by `delta`.
    @discardableResult
    public mutating func drag(fingers: [Point], by delta: Point, duration: Double, hold: Double = 0,
                              lift: Bool = true) -> GestureScript {
        let ids = fingers.map { _ in allocateID() }
        let steps = max(1, Int((duration * rate).rounded()))
        append(TouchFrame(timestamp: time, touches: zip(ids, fingers).map {
            Touch(id: $0, position: $1, phase: .began, timestamp: time)
        }))
        var last = fingers
        for step in 1...steps {
            let f = Double(step) / Double(steps)
            let t = time + duration / Double(steps)
            last = fingers.map { $0 + delta * f }
            append(TouchFrame(timestamp: t, touches: zip(ids, last).map {
                Touch(id: $0, position: $1, phase: .moved, timestamp: t)
            }))
        }
        if hold > 0 {
            let t = time + hold
            append(TouchFrame(timestamp: t, touches: zip(ids, last).map {
                Touch(id: $0, position: $1, phase: .moved, timestamp: t)
            }))
        }
        if lift {
            let t = time + 1 / rate
            append(TouchFrame(timestamp: t, touches: zip(ids, last).map {
                Touch(id: $0, position: $1, phase: .ended, timestamp: t)
            }))
        }
        return self
    }

    /// One finger along `points` in straight segments of `segmentDuration` s each (a pan
    /// that changes direction or comes back), then (if `lift`) up after `hold` s.
    @discardableResult
    public mutating func drag(through points: [Point], segmentDuration: Double, hold: Double = 0,
                              lift: Bool = true) -> GestureScript {
        guard let first = points.first else { return self }
        let id = allocateID()
        append(TouchFrame(timestamp: time, touches: [Touch(id: id, position: first, phase: .began, timestamp: time)]))
        var last = first
        let steps = max(1, Int((segmentDuration * rate).rounded()))
        for next in points.dropFirst() {
            let start = last
            for step in 1...steps {
                let t = time + segmentDuration / Double(steps)
                last = start + (next - start) * (Double(step) / Double(steps))
                append(TouchFrame(timestamp: t, touches: [Touch(id: id, position: last, phase: .moved, timestamp: t)]))
            }
        }
        if hold > 0 {
            let t = time + hold
            append(TouchFrame(timestamp: t, touches: [Touch(id: id, position: last, phase: .moved, timestamp: t)]))
        }
        if lift {
            let t = time + 1 / rate
            append(TouchFrame(timestamp: t, touches: [Touch(id: id, position: last, phase: .ended, timestamp: t)]))
        }
        return self
    }

    /// A tap at `point`, down for `duration` s.
    @discardableResult
    public mutating func tap(at point: Point, duration: Double = 0.08) -> GestureScript {
        let id = allocateID()
        append(TouchFrame(timestamp: time, touches: [Touch(id: id, position: point, phase: .began, timestamp: time)]))
        let t = time + duration
        append(TouchFrame(timestamp: t, touches: [Touch(id: id, position: point, phase: .ended, timestamp: t)]))
        return self
    }

    /// Lets `seconds` pass with no input.
    @discardableResult
    public mutating func wait(_ seconds: Double) -> GestureScript {
        time += seconds
        return self
    }

    private mutating func allocateID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private mutating func append(_ frame: TouchFrame) {
        frames.append(frame)
        time = frame.timestamp
    }
}
