/// What the renderer could not do.
public enum RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// FreeType or fontconfig could not start.
    case fonts(String)
    /// No font file matches the family (fontconfig found none).
    case noFont(family: String)
    /// A PNG could not be read or written.
    case png(path: String, message: String)

    public var description: String {
        switch self {
        case .fonts(let what): return "fonts: \(what)"
        case .noFont(let family): return "no font found for \"\(family)\" (is fontconfig set up, are fonts installed?)"
        case let .png(path, message): return "\(path): \(message)"
        }
    }
}
