import PanelHost

/// Why a data source gave no page.
public enum DataSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A command ended with `status`; its last stderr line says why.
    case exitStatus(command: String, status: Int32, stderr: String)
    /// No answer within `seconds`.
    case timeout(source: String, seconds: Double)
    /// The source could not be reached (no such program, file or host).
    case unreachable(source: String, reason: String)
    /// The answer is not a list of items.
    case malformed(source: String, reason: String)
    /// The answer is larger than `limit` bytes.
    case tooLarge(source: String, limit: Int)
    /// Slower than `bytesPerSecond` for `seconds`: a server that trickles.
    case stalled(source: String, bytesPerSecond: Int, seconds: Int)
    /// Given up because nothing wants the answer any more (a picture's row scrolled away).
    case cancelled(source: String)
    /// The server is busy (HTTP 429 Too Many Requests or 503 Service Unavailable) and asks
    /// for no request for `retryAfter` seconds (its `Retry-After`); the kiosk makes none.
    case busy(source: String, status: Int, retryAfter: Double)
    /// Connected for `seconds`, the broker has sent nothing on the list's topic: no list is
    /// retained there (a retained one comes at once with the subscription).
    case nothingPublished(source: String, seconds: Double)

    /// Seconds the source asked to be left alone, when it did (a `busy` answer).
    public var retryAfter: Double? {
        if case let .busy(_, _, seconds) = self { return seconds }
        return nil
    }

    /// What happened, with every URL's password and secret-looking query values masked
    /// (`Redaction`): this text goes to the journal and to STATUS.
    public var description: String { Redaction.redact(plainDescription) }

    private var plainDescription: String {
        switch self {
        case let .exitStatus(command, status, stderr):
            return "\(command) exited with status \(status)" + (stderr.isEmpty ? "" : ": \(stderr.prefix(200))")
        case let .timeout(source, seconds): return "\(source) gave no answer within \(seconds) s"
        case let .unreachable(source, reason): return "\(source) is unreachable: \(reason)"
        case let .malformed(source, reason): return "\(source) sent something that is not a list of items: \(reason)"
        case let .tooLarge(source, limit): return "\(source) sent an answer too large (more than \(limit) bytes)"
        case let .stalled(source, rate, seconds): return "\(source) sent less than \(rate) bytes/s for \(seconds) s"
        case let .cancelled(source): return "\(source) was no longer wanted"
        case let .busy(source, status, seconds):
            return "\(source) is busy (HTTP \(status)) and asks for no request for \(TextFormat.number(seconds.rounded(.up))) s"
        case let .nothingPublished(source, seconds):
            return "\(source) has no list yet: nothing came in the \(TextFormat.number(seconds)) s since the connection, so none is "
                + "retained there (does the server publish the list with retain?); it shows when one comes"
        }
    }
}
