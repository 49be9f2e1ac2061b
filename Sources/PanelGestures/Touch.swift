/// Where a contact is in its life.
public enum TouchPhase: Sendable, Hashable {
    /// The finger came down in this frame.
    case began
    /// The finger is down (it may or may not have moved).
    case moved
    /// The finger lifted in this frame.
    case ended
    /// The contact was lost without a lift (device unplugged, events dropped): gestures that
    /// include it are cancelled, not ended.
    case cancelled
}

/// One contact at one moment.
public struct Touch: Sendable, Hashable {
    /// Stable id of the contact for as long as it is down (the MT tracking id, or one assigned
    /// by PanelInput for protocol-A and single-touch devices).
    public var id: Int
    /// Screen position, px.
    public var position: Point
    /// Where the contact is in its life: began, moved, stationary, ended or cancelled.
    public var phase: TouchPhase
    /// Seconds of CLOCK_MONOTONIC, from the kernel's event timestamp.
    public var timestamp: Double

    /// A touch of contact `id` at `position` (points) in `phase`, at `timestamp` seconds.
    public init(id: Int, position: Point, phase: TouchPhase, timestamp: Double) {
        (self.id, self.position, self.phase, self.timestamp) = (id, position, phase, timestamp)
    }
}

/// Every contact of one input frame (one SYN_REPORT): those still down (`began`, `moved`) and
/// those that left in this frame (`ended`, `cancelled`). Contacts that left in an earlier
/// frame are not listed.
public struct TouchFrame: Sendable, Hashable {
    /// Seconds of CLOCK_MONOTONIC.
    public var timestamp: Double
    /// The contacts of this moment, down or just lifted.
    public var touches: [Touch]

    /// A frame of `touches` at `timestamp` seconds.
    public init(timestamp: Double, touches: [Touch]) { (self.timestamp, self.touches) = (timestamp, touches) }

    /// The same frame `seconds` later, its touches' time stamps with it.
    public func delayed(by seconds: Double) -> TouchFrame {
        TouchFrame(timestamp: timestamp + seconds, touches: touches.map { var t = $0; t.timestamp += seconds; return t })
    }

    /// The same frame with every contact's position moved by `delta` points.
    public func moved(by delta: Point) -> TouchFrame {
        TouchFrame(timestamp: timestamp, touches: touches.map { var t = $0; t.position += delta; return t })
    }

    /// Contacts down after this frame.
    public var active: [Touch] { touches.filter { $0.phase == .began || $0.phase == .moved } }

    /// Whether any contact was lost without a lift.
    public var hasCancellation: Bool { touches.contains { $0.phase == .cancelled } }

    /// Mean position of `touches`, or nil if there are none.
    public static func centroid(of touches: [Touch]) -> Point? {
        guard !touches.isEmpty else { return nil }
        var sum = Point.zero
        for t in touches { sum += t.position }
        return sum * (1 / Double(touches.count))
    }
}
