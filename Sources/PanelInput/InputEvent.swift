import PanelGestures
import Glibc

/// One kernel input event (`struct input_event`).
public struct InputEvent: Sendable, Hashable, CustomStringConvertible {
    /// Event time in microseconds: CLOCK_MONOTONIC for live devices (set through libevdev),
    /// whatever the recording holds for evemu files (relative from 1 µs, or CLOCK_REALTIME in
    /// old recordings). Integer, because 1.3e9 s with microseconds is at the edge of a Double.
    public var microseconds: Int64
    /// EV_* type.
    public var type: UInt16
    /// The code within the type.
    public var code: UInt16
    /// The value.
    public var value: Int32

    /// An event at `microseconds` of its clock.
    public init(microseconds: Int64, type: UInt16, code: UInt16, value: Int32) {
        (self.microseconds, self.type, self.code, self.value) = (microseconds, type, code, value)
    }

    /// The time in seconds.
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// Whether it ends a frame (SYN_REPORT).
    public var isSynReport: Bool { type == EventType.syn && code == SynCode.report }

    /// The event as evemu writes it: time, type, code, value.
    public var description: String {
        "\(microseconds / 1_000_000).\(TextFormat.padded(Int(microseconds % 1_000_000), 6)) type \(type) code \(code) value \(value)"
    }
}

