import Glibc
import PanelHost

/// Runs a program for each page: `executable arguments... PAGE`, with PANEL_REFRESH_PAGE and
/// PANEL_REFRESH_PAGE_SIZE in its environment; its stdout is the page's items (the same bytes
/// as last time for that page: unchanged, not parsed again). Killed after `timeout` seconds.
@MainActor
public final class CommandItemSource: ItemSource {
    /// The item fields shown.
    public var fields = ItemParser.Fields()
    /// Where a load's work runs and how its answer comes back (the host's).
    public let executor: any WorkExecutor
    /// The program run for each page.
    public let executable: String
    /// Its arguments; the page number follows them.
    public let arguments: [String]
    /// Seconds a run may take before it is ended.
    public var timeout: Double
    private let memo = AnswerMemo()

    /// A source running `executable` with `arguments` for each page, at most `timeout` seconds,
    /// on `executor`'s workers.
    public init(executable: String, arguments: [String] = [], timeout: Double = 10, executor: any WorkExecutor) {
        (self.executable, self.arguments, self.timeout, self.executor) = (executable, arguments, timeout, executor)
    }

    /// Runs the program for `page` off the main actor and answers with its parsed output.
    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void) {
        let executable = executable, arguments = arguments + [String(page)], timeout = timeout, fields = fields, memo = memo
        executor.execute(in: nil, {
            Result {
                let output = try Self.run(executable, arguments, page: page, pageSize: pageSize, timeout: timeout)
                return try memo.answer(page: page, fingerprint: .init(hash: FNV1a.hash(output), stamp: nil, pageSize: pageSize)) {
                    try ItemParser.parse(output, source: executable, fields: fields)
                }
            }
        }, then: completion)
    }

    /// The program's output for `page`, checked: a failure, a timeout and a flood are errors.
    nonisolated static func run(_ executable: String, _ arguments: [String], page: Int, pageSize: Int, timeout: Double) throws -> [UInt8] {
        var environment = ProcessEnvironment.variables()
        environment["PANEL_REFRESH_PAGE"] = String(page)
        environment["PANEL_REFRESH_PAGE_SIZE"] = String(pageSize)
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(executable, arguments, environment: environment,
                                           limits: ChildProcess.Limits(timeout: timeout, stdoutBytes: ItemParser.maxBytes))
        } catch .spawn(let code) {
            throw DataSourceError.unreachable(source: executable, reason: String(cString: strerror(code)))
        } catch .timedOut(let overflowed) {
            if overflowed { throw DataSourceError.tooLarge(source: executable, limit: ItemParser.maxBytes) }
            throw DataSourceError.timeout(source: executable, seconds: timeout)
        }
        if outcome.stdoutOverflowed { throw DataSourceError.tooLarge(source: executable, limit: ItemParser.maxBytes) }
        guard outcome.exitCode == 0 else {
            let stderr = TextFormat.trimmed(String(decoding: outcome.stderrTail, as: UTF8.self), newlines: true)
            // A signal shows as the shell shows it: 128 + its number.
            throw DataSourceError.exitStatus(command: executable, status: outcome.exitCode ?? 128 + outcome.signal, stderr: stderr)
        }
        return outcome.stdout
    }
}
