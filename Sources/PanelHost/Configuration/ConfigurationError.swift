/// A bad configuration: which file, which line, what is wrong.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, or "command line".
    public var file: String
    /// The line (0: the whole file or an option).
    public var line: Int
    /// What is wrong.
    public var message: String

    /// An error in `file` at `line` (0: the whole file) saying `message`.
    public init(file: String, line: Int, message: String) { (self.file, self.line, self.message) = (file, line, message) }

    /// "FILE:LINE: message" (without a line when the whole file or an option is meant).
    public var description: String {
        if file.isEmpty { return message }
        return line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
    }
}
