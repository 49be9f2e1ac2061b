import Glibc
import PanelHost

/// `state.metrics-file`: the kiosk's metrics written every `state.metrics-seconds` for
/// node_exporter's textfile collector, whole, to a temporary file renamed over it (the
/// collector never reads half of one). A loop source of deadlines only: the host's timer
/// writes it when it is due.
@MainActor
public final class MetricsFile: LoopSource {
    /// The file; nil: none is written.
    public private(set) var file: String?
    /// Seconds between writes.
    public private(set) var seconds: Double
    /// When the file is written next, seconds of the clock; nil: not at all.
    public private(set) var due: Double?
    /// The metrics' text now (the kiosk's status in Prometheus' format).
    var render: () -> String = { "" }
    /// The file's failures logged so far (each cause once).
    private var failures = Set<Int32>()

    /// A file at `file` (nil: none) written every `seconds`, from the first ``schedule(from:)``.
    init(file: String?, seconds: Double) { (self.file, self.seconds) = (file, seconds) }

    /// Written at once (the start, a reload), then every `seconds`.
    func schedule(from now: Double) { due = file == nil ? nil : now }

    /// A reload's settings, written at once by them.
    func reconfigure(file: String?, seconds: Double, now: Double) {
        (self.file, self.seconds) = (file, seconds)
        schedule(from: now)
    }

    /// The next write.
    public var nextDeadline: Double? { due }

    /// Writes the file when it is due.
    public func tick(at now: Double) {
        guard let at = due, now >= at, let file else { return }
        due = now + seconds
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(Array(render().utf8), to: file, durable: false)
        } catch {
            if failures.insert(error.errno).inserted {
                Log.warning("metrics: cannot write \(file): \(error.step): \(String(cString: strerror(error.errno)))")
            }
        }
    }
}
