import Synchronization
import PanelHost

/// Set once by the run loop, read by a worker between the steps of its job (and by libcurl's
/// write callback): a picture whose row scrolled away stops being fetched or decoded.
public final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A flag not set.
    public init() {}

    /// Whether the work is no longer wanted.
    public var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Marks the work as no longer wanted.
    public func set() { flag.store(true, ordering: .releasing) }
}
