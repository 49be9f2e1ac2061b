import PanelHost

/// A bad command line: printed with the usage, exit code 2.
public struct UsageError: Error, CustomStringConvertible, Equatable {
    /// What is wrong with the command line, as printed before the usage.
    public var description: String
    /// A usage error saying `description`.
    public init(_ description: String) { self.description = description }
}
