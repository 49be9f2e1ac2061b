import Dispatch
import PanelUI

/// Where work that leaves the loop runs, and how its result comes back: never inside the
/// caller, always as an entry of the host's own at the time it arrives (arrive, apply, draw).
///
/// This is swift-nio's `EmbeddedEventLoop.execute` habit ("the task runs the next time you call
/// `run`"): ``RealTimeExecutor`` runs the work on a worker and queues its result for the loop,
/// which wakes for it; ``VirtualExecutor`` runs it at a time the test chooses
/// (``VirtualExecutor/latency`` after it was asked), when the virtual-time driver gets there.
/// Either way the host takes the results that have arrived at its next entry
/// (``deliver(upTo:)``), one after another, and then draws; so the two drivers run the same
/// sequence of entries, and no flag anywhere says "this is virtual time".
///
/// Before this, an answer was applied from a `Task` at the time of the host's last entry, and
/// then the real-time driver ran a whole host tick inside the data source's completion: a frame
/// was drawn while the refresh's end was half done, and a broker message that came meanwhile
/// started the next refresh inside the end of this one.
@MainActor
public protocol WorkExecutor: AnyObject {
    /// A lane of its own: its jobs run one at a time, in the order asked (a picture slot: each
    /// on a thread of its own, so a download that blocks holds only its lane).
    func lane(_ label: String) -> WorkLane
    /// Runs `work` off the loop, in `lane` or (nil) among the shared workers; `then` gets its
    /// result at the host's entry for its arrival, never before `execute` has returned.
    func execute<T: Sendable>(in lane: WorkLane?, _ work: @escaping @Sendable () -> T, then: @escaping @MainActor (T) -> Void)
    /// When the next result is due, seconds of the host's clock; nil: none waits. Real time
    /// answers 0 (due at once) while results wait for their entry.
    var nextArrival: Double? { get }
    /// Applies the results that have arrived by `now`, oldest first: the host's entry for them.
    /// Work asked while they are applied arrives at a later entry.
    func deliver(upTo now: Double)
    /// Hears that a result arrived and waits for its entry: the real-time driver runs one at
    /// once. (The virtual-time driver asks ``nextArrival`` instead; a virtual executor never
    /// calls it.)
    var onArrival: (@MainActor () -> Void)? { get set }
}

/// A lane of work off the loop (``WorkExecutor/lane(_:)``).
public struct WorkLane: Sendable {
    /// What the lane is for, as threads and tests name it.
    public let label: String
    /// The serial queue its jobs run on in real time; nil in virtual time.
    let queue: DispatchQueue?
}

/// Real time: the work on Dispatch's workers, the result queued for the loop on the main queue,
/// and the driver told (``onArrival``) so that it runs the host's entry for it.
@MainActor
public final class RealTimeExecutor: WorkExecutor {
    /// The shared workers: a concurrent queue (commands, files, parses, encodings).
    private nonisolated static let workers = DispatchQueue(label: "panel-refresh.work", attributes: .concurrent)
    /// Results that came back and wait for the host's entry, oldest first.
    private var arrived: [@MainActor () -> Void] = []
    /// Hears that a result arrived (``RealTimeDriver`` runs the host's entry for it). Results
    /// that come before anybody listens wait for the host's next entry.
    public var onArrival: (@MainActor () -> Void)?

    /// An executor with nobody listening yet.
    public init() {}

    /// A serial queue of its own for `label`: serial queues run on Dispatch's overcommit
    /// threads, one each however many block (a concurrent queue's pool on Linux has as many
    /// threads as cores, and two downloads blocked in libcurl took both).
    public func lane(_ label: String) -> WorkLane { WorkLane(label: label, queue: DispatchQueue(label: label)) }

    /// Runs `work` on the lane's queue (or the shared workers); its result waits on the main
    /// queue for the host's entry.
    public func execute<T: Sendable>(in lane: WorkLane?, _ work: @escaping @Sendable () -> T, then: @escaping @MainActor (T) -> Void) {
        (lane?.queue ?? Self.workers).async {
            let result = work()
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self.arrive { then(result) } }
            }
        }
    }

    private func arrive(_ apply: @escaping @MainActor () -> Void) {
        arrived.append(apply)
        onArrival?()
    }

    /// 0 while results wait (due at once: the loop's timer fires for them), else nil.
    public var nextArrival: Double? { arrived.isEmpty ? nil : 0 }

    /// Applies the results waiting now.
    public func deliver(upTo now: Double) {
        let due = arrived
        arrived.removeAll()
        for apply in due { apply() }
    }
}

/// Virtual time: the work runs on the loop's own thread when its result is due,
/// ``latency`` seconds of the clock after it was asked (0 by default: at the next entry, at the
/// same time), so a test chooses when an answer comes and what happens meanwhile.
@MainActor
public final class VirtualExecutor: WorkExecutor {
    /// The clock the results' times are on (the host's).
    public let clock: ManualClock
    /// Seconds of virtual time each job takes from now on; 0: its result arrives at the next
    /// entry, at the time it was asked.
    public var latency = 0.0
    private struct Job {
        var due: Double
        var order: Int
        var run: @MainActor () -> Void
    }
    private var jobs: [Job] = []
    private var asked = 0
    /// Never called: the virtual-time driver asks ``nextArrival``.
    public var onArrival: (@MainActor () -> Void)?

    /// An executor on `clock`.
    public init(clock: ManualClock) { self.clock = clock }

    /// A lane by name only: in virtual time jobs run in due order on the loop's thread.
    public func lane(_ label: String) -> WorkLane { WorkLane(label: label, queue: nil) }

    /// Keeps `work` and `then` for the entry at `latency` from now.
    public func execute<T: Sendable>(in lane: WorkLane?, _ work: @escaping @Sendable () -> T, then: @escaping @MainActor (T) -> Void) {
        asked += 1
        jobs.append(Job(due: clock.now + max(0, latency), order: asked, run: { then(work()) }))
    }

    /// Jobs asked and not yet delivered.
    public var pending: Int { jobs.count }

    /// The earliest job's time.
    public var nextArrival: Double? { jobs.lazy.map(\.due).min() }

    /// Runs the jobs due by `now` that were asked before this entry, in due order (then in the
    /// order asked).
    public func deliver(upTo now: Double) {
        let due = jobs.filter { $0.due <= now }.sorted { ($0.due, $0.order) < ($1.due, $1.order) }
        guard !due.isEmpty else { return }
        let taken = Set(due.map(\.order))
        jobs.removeAll { taken.contains($0.order) }
        for job in due { job.run() }
    }
}
