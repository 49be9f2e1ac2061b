/// What the renderer could not do.
public enum RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// FreeType or fontconfig could not start.
    case fonts(String)
    /// No font file matches the family (fontconfig found none).
    case noFont(family: String)
    /// A PNG could not be read or written.
    case png(path: String, message: String)
    /// A JPEG or WebP picture could not be decoded (`message` is the library's).
    case image(path: String, message: String)
    /// An image declares more pixels than the decode may allocate (its header, read first).
    case imageTooLarge(path: String, width: Int, height: Int, maxPixels: Int)

    /// What failed, naming the file or the library call.
    public var description: String {
        switch self {
        case .fonts(let what): return "fonts: \(what)"
        case .noFont(let family): return "no font found for \"\(family)\" (is fontconfig set up, are fonts installed?)"
        case let .png(path, message), let .image(path, message): return "\(path): \(message)"
        case let .imageTooLarge(path, width, height, maxPixels):
            return "\(path): \(width)x\(height) is more than \(maxPixels) pixels, the most an image may have"
        }
    }
}
