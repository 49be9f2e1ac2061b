import Glibc
import PanelHost

/// `rows.tap = command`: the program run for each tapped row, with the item's JSON on stdin
/// and its id in `PANEL_REFRESH_ITEM`, supervised as a data-source command is (its own process
/// group, ended with the group at its timeout; stdout and stderr bounded; what it leaves
/// running is ended with it).
@MainActor
public final class TapCommand {
    /// The program (an absolute path).
    public let executable: String
    /// Its arguments.
    public let arguments: [String]
    /// Seconds a run may take before its group is ended.
    public var timeout: Double
    /// Where a run happens and how its result comes back (the host's).
    public let executor: any WorkExecutor
    /// Runs at once, at most: 4. A fifth tap while four run is refused ("busy"), so a
    /// drumming finger cannot pile up processes.
    public static let maxRunning = 4
    /// Bytes of stdout kept (and then thrown away: the kiosk does not show it): 64 KiB; more
    /// ends the run as a flood.
    nonisolated public static let maxOutput = 64 << 10
    /// Runs under way now.
    public private(set) var running = 0
    /// The machine's clock for how long a run took (CLOCK_MONOTONIC in the kiosk, seconds);
    /// nil: a run takes no time (virtual time). The list's command line is the tap's time
    /// plus that: the run's end on the kiosk's clock, which has not moved when the result comes
    /// back from the worker (the loop moves it at its next entry).
    public var stopwatch: (@Sendable () -> Double)?

    /// A command running `executable` with `arguments` for each tap, at most `timeout` seconds,
    /// on `executor`'s workers.
    public init(executable: String, arguments: [String] = [], timeout: Double = 10, executor: any WorkExecutor) {
        (self.executable, self.arguments, self.timeout, self.executor) = (executable, arguments, timeout, executor)
    }

    /// Runs the command for `item`; `completion` gets what became of it: "exit 0", "exit 3:
    /// its last stderr line", "timed out after 10 s", "flooded its output", "cannot start: …",
    /// or "busy"; and the seconds it took (`stopwatch`'s; 0 without one).
    public func run(item: Item, completion: @escaping @MainActor (String, Double) -> Void) {
        guard running < Self.maxRunning else { return completion("busy", 0) }
        running += 1
        let (executable, arguments, timeout, stopwatch) = (executable, arguments, timeout, stopwatch)
        let (id, json) = (item.id, item.json + [0x0a])
        let work: @Sendable () -> (String, Double) = {
            let start = stopwatch?() ?? 0
            let result = Self.execute(executable, arguments, id: id, json: json, timeout: timeout)
            return (result, max(0, (stopwatch?() ?? 0) - start))
        }
        let finish: @MainActor ((String, Double)) -> Void = { [weak self] outcome in
            self?.running -= 1
            completion(outcome.0, outcome.1)
        }
        executor.execute(in: nil, work, then: finish)
    }

    nonisolated static func execute(_ executable: String, _ arguments: [String], id: String, json: [UInt8], timeout: Double) -> String {
        var environment = ProcessEnvironment.variables()
        environment["PANEL_REFRESH_ITEM"] = id
        do throws(ChildProcess.Failure) {
            let outcome = try ChildProcess.run(executable, arguments, environment: environment, input: json,
                                               limits: ChildProcess.Limits(timeout: timeout, stdoutBytes: maxOutput))
            if outcome.stdoutOverflowed { return "flooded its output (more than \(maxOutput) bytes)" }
            let stderr = TextFormat.trimmed(String(decoding: outcome.stderrTail, as: UTF8.self), newlines: true)
            let last = stderr.split(separator: "\n").last.map { ": " + $0.prefix(200) } ?? ""
            if let code = outcome.exitCode { return "exit \(code)" + (code == 0 ? "" : last) }
            return "killed by signal \(outcome.signal)" + last
        } catch {
            switch error {
            case .spawn(let code): return "cannot start: " + String(cString: strerror(code))
            case .timedOut(let overflowed):
                return overflowed ? "flooded its output (more than \(maxOutput) bytes)" : "timed out after \(TextFormat.number(timeout)) s"
            }
        }
    }
}
