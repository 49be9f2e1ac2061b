import PanelGestures

/// Where raw input events come from: a live device (`EvdevDevice`), or anything a test or a
/// replay provides. The seam that lets the whole input path run without hardware.
public protocol EventSource: AnyObject {
    /// What the device declares.
    var device: DeviceDescription { get }
    /// A path or name for messages.
    var name: String { get }
    /// The events available now (none if there are none; never blocks).
    /// - Throws: `InputError.deviceGone` when the device went away; other `InputError`s for
    ///   failures.
    func readEvents() throws -> [InputEvent]
    /// A descriptor that becomes readable when events wait; nil for sources that are not
    /// devices (recordings, tests).
    var pollDescriptor: Int32? { get }
}

extension EventSource {
    /// None: a source that is not a device is read when its owner says.
    public var pollDescriptor: Int32? { nil }
}

/// A touchscreen as the UI sees it: an event source and the assembler that turns its events
/// into touch frames, screen-mapped.
///
/// When the device goes away mid-drag, the contacts down are cancelled (the gesture ends
/// cleanly, nothing stays down) and `isGone` turns true; the owner drops it and waits for
/// the device to come back.
public final class TouchInput {
    /// Where the events come from.
    public let source: any EventSource
    /// Turns the events into touch frames.
    public private(set) var assembler: TouchAssembler
    /// Whether the device went away (nothing more is read).
    public private(set) var isGone = false
    private var excessReported = false

    /// An input over `source` whose positions map to a `width`×`height` picture through `mapping`.
    public init(source: any EventSource, width: Double, height: Double,
                configuration: TouchAssembler.Configuration = .init(), mapping: TouchMapping = .identity) throws {
        self.source = source
        assembler = try TouchAssembler(device: source.device, width: width, height: height, configuration: configuration)
        assembler.mapping.touch = mapping
    }

    /// Positions map to a picture of this size from now on.
    public func resize(width: Double, height: Double) {
        assembler.mapping.width = width
        assembler.mapping.height = height
    }

    /// Reads what is available and returns the frames it completes. A device that went away
    /// yields the frame cancelling its contacts (timestamped `now`, seconds of
    /// CLOCK_MONOTONIC) and nothing after. Other errors are thrown; the input stays usable.
    public func read(now: Double) throws -> [TouchFrame] {
        guard !isGone else { return [] }
        let events: [InputEvent]
        do {
            events = try source.readEvents()
        } catch InputError.deviceGone {
            isGone = true
            return assembler.cancelAll(at: now).map { [$0] } ?? []
        }
        var frames: [TouchFrame] = []
        for event in events {
            if let frame = assembler.feed(event) { frames.append(frame) }
        }
        return frames
    }

    /// The first time the device has sent more contacts than the assembler takes, the error
    /// that says so; nil before and after (one warning per device, not one per frame).
    public func takeExcessWarning() -> InputError? {
        guard !excessReported, assembler.droppedContacts > 0 else { return nil }
        excessReported = true
        return .tooManyContacts(device: source.device.name, limit: TouchAssembler.maxContacts)
    }
}
