/// A recording as an event source: the events up to a time, as a live device would have
/// delivered them by then. Feeding it to `TouchInput` takes exactly the live path.
public final class RecordingSource: EventSource {
    /// The recording played.
    public let recording: EvemuRecording
    /// What the log calls it.
    public let name: String
    private var position = 0
    /// Microseconds added to the recorded times (the recording's first event lands at the
    /// `start` given to init).
    private let offset: Int64
    private var until: Int64 = .min

    /// The recorded device.
    public var device: DeviceDescription { recording.device }
    /// Whether every event has been read.
    public var isFinished: Bool { position >= recording.events.count }

    /// A source playing `recording`.
    /// - Parameters:
    ///   - recording: the events and the device.
    ///   - name: what the log calls it.
    ///   - start: where the first event lands, seconds.
    public init(recording: EvemuRecording, name: String = "recording", start: Double = 0) {
        (self.recording, self.name) = (recording, name)
        offset = Int64((start * 1_000_000).rounded()) - (recording.events.first?.microseconds ?? 0)
    }

    /// Makes the events up to `time` (seconds, on the rebased timeline) readable.
    public func advance(to time: Double) {
        until = max(until, Int64((time * 1_000_000).rounded()))
    }

    /// The recorded events up to the time set by `advance(to:)`.
    public func readEvents() throws -> [InputEvent] {
        var events: [InputEvent] = []
        while position < recording.events.count {
            var event = recording.events[position]
            event.microseconds += offset
            guard event.microseconds <= until else { break }
            events.append(event)
            position += 1
        }
        return events
    }
}
