/// Something the loop watches for a part of the program: descriptors to read and to write, a
/// next deadline, and what to do on each (swift-nio's `Selector` registrations; LVGL's one
/// `lv_timer_handler`). The kiosk program's control socket and its broker link are two; an app
/// adds its own with ``KioskHost/watch(_:)``. The real-time driver follows any number of them
/// with one piece of code (Dispatch read and write sources on the main queue, and its timer);
/// in virtual time a test calls the host's entries itself.
///
/// Two habits hold for every source, whatever it watches:
/// - a descriptor is closed only once nothing watches it: one the source is done with goes
///   into ``retired``, and ``release(_:)`` closes it after the loop has cancelled its watches
///   (Dispatch may still be reading a descriptor a moment after it was cancelled, and a
///   number closed too early may come back as another file under a live watch);
/// - a descriptor opened again under the same number is a new watch: its ``WatchedDescriptor``
///   carries a generation the source counts up (a broker's new socket).
@MainActor
public protocol LoopSource: AnyObject {
    /// The descriptors to watch for reading now.
    var reading: [WatchedDescriptor] { get }
    /// The descriptors to watch for writing now (only while something waits to go: a
    /// writable socket would wake the loop without end).
    var writing: [WatchedDescriptor] { get }
    /// When the source needs the loop next, seconds of the host's clock; nil: not until a
    /// descriptor is ready.
    var nextDeadline: Double? { get }
    /// `descriptor` is readable.
    func readable(_ descriptor: Int32, at now: Double)
    /// `descriptor` is writable.
    func writable(_ descriptor: Int32, at now: Double)
    /// The timer: what is due by `now` runs (called at every host tick).
    func tick(at now: Double)
    /// Descriptors the source is done with, waiting for ``release(_:)``.
    var retired: [Int32] { get }
    /// Nothing watches `descriptor` any more: a retired one is closed now.
    func release(_ descriptor: Int32)
}

extension LoopSource {
    /// Nothing to read (a source of deadlines only).
    public var reading: [WatchedDescriptor] { [] }
    /// Never reads.
    public func readable(_ descriptor: Int32, at now: Double) {}
    /// Nothing to write.
    public var writing: [WatchedDescriptor] { [] }
    /// Nothing closes through the loop.
    public var retired: [Int32] { [] }
    /// Nothing to close.
    public func release(_ descriptor: Int32) {}
    /// Never writes.
    public func writable(_ descriptor: Int32, at now: Double) {}
}

/// A descriptor a ``LoopSource`` wants watched, with the generation that tells a new one from
/// an old one under the same number.
public struct WatchedDescriptor: Hashable, Sendable {
    /// The descriptor.
    public var fd: Int32
    /// Counts the descriptors the source has made (0 for one that is never made again).
    public var generation: Int

    /// `fd` in its `generation`.
    public init(_ fd: Int32, generation: Int = 0) { (self.fd, self.generation) = (fd, generation) }
}
