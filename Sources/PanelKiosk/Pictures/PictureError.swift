import PanelHost

/// Why a row's picture shows the broken mark.
public enum PictureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes could not be had: no such file, a 404, a timeout, a trickle, a redirect loop,
    /// too large (the data source's errors, with the picture's source named).
    case fetch(DataSourceError)
    /// The bytes are no picture that can be shown: corrupt, truncated, the wrong type, a bomb.
    case decode(RenderError)
    /// The source is neither an absolute path nor an http(s) URL.
    case unsupported(source: String)
    /// Nothing wants the picture any more (its row scrolled away before it was ready).
    case cancelled

    /// What happened, URLs' secrets masked.
    public var description: String {
        switch self {
        case .fetch(let error): return error.description
        case .decode(let error): return Redaction.redact(error.description)
        case .unsupported(let source): return Redaction.redact("\(source): a picture is an absolute file path or an http(s) URL")
        case .cancelled: return "no longer wanted"
        }
    }
}
