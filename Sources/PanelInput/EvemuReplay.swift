import Glibc
import PanelGestures

/// Plays a recording through the same path as a live device: raw events into a
/// `TouchAssembler`, touch frames out.
public struct EvemuReplay: Sendable {
    /// What is replayed.
    public let recording: EvemuRecording
    /// Turns the events into touch frames on the screen.
    public var assembler: TouchAssembler

    /// - Parameters: `width` × `height` is the screen in pixels.
    public init(recording: EvemuRecording, width: Double, height: Double,
                configuration: TouchAssembler.Configuration = .init()) throws {
        self.recording = recording
        assembler = try TouchAssembler(device: recording.device, width: width, height: height,
                                       configuration: configuration)
    }

    /// Every frame in virtual time: the first event at `start` seconds, the rest at their
    /// recorded distance from it (recordings hold relative or absolute times; only the
    /// differences count).
    public func frames(start: Double = 0) -> [TouchFrame] { assemble(start: start).frames }

    /// `frames(start:)`, and how many contacts past `TouchAssembler.maxContacts` the
    /// recording held (dropped).
    public func assemble(start: Double = 0) -> (frames: [TouchFrame], droppedContacts: Int) {
        var assembler = self.assembler
        var frames: [TouchFrame] = []
        guard let first = recording.events.first?.microseconds else { return ([], 0) }
        let offset = Int64((start * 1_000_000).rounded()) - first
        for var event in recording.events {
            event.microseconds += offset
            if let frame = assembler.feed(event) { frames.append(frame) }
        }
        return (frames, assembler.droppedContacts)
    }

    /// Delivers the frames in real time: each at its recorded distance from the first,
    /// measured on `clock` from the call (the system's monotonic clock by default; tests pass
    /// one that does not sleep). The program's `inject` and live demos use it.
    public func play<C: _Concurrency.Clock>(start: Double = 0, clock: C,
                                            deliver: (TouchFrame) async -> Void) async throws
    where C.Duration == Duration {
        let origin = clock.now
        for frame in frames(start: start) {
            try await clock.sleep(until: origin.advanced(by: .seconds(frame.timestamp - start)), tolerance: nil)
            await deliver(frame)
        }
    }

    /// `play` on the system's monotonic clock.
    public func play(start: Double = 0, deliver: (TouchFrame) async -> Void) async throws {
        try await play(start: start, clock: ContinuousClock(), deliver: deliver)
    }
}
