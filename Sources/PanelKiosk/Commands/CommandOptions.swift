import PanelHost

/// One option of a command, declared once: the parser, `--help`, the man page and
/// docs/program.md's synopsis all come from this (as `Configuration`'s key table does for keys).
public struct CommandOption: Sendable {
    /// "--screen"; for a positional argument its placeholder ("FILE").
    public let flag: String
    /// The placeholder of the value it takes ("WxH"); nil for a switch or a positional.
    public let value: String?
    /// What it does.
    public let meaning: String
    /// Whether it may be given more than once (`--set`, `--device`).
    public let repeats: Bool
    /// For a positional: whether it may be left out.
    public let isOptional: Bool

    /// Whether it is an argument without a flag.
    public var isPositional: Bool { !flag.hasPrefix("-") }

    /// How `--help` and the man page name it: "--screen WxH".
    public var label: String { value.map { "\(flag) \($0)" } ?? flag }

    /// How the synopsis shows it: "[--screen WxH]", "[--set KEY=VALUE]...", "FILE", "[DEVICE]".
    public var synopsis: String {
        if isPositional { return isOptional ? "[\(flag)]" : flag }
        return "[\(label)]" + (repeats ? "..." : "")
    }

    /// An option taking a value; `repeats`: it may be given more than once.
    public static func value(_ flag: String, _ value: String, _ meaning: String, repeats: Bool = false) -> CommandOption {
        CommandOption(flag: flag, value: value, meaning: meaning, repeats: repeats, isOptional: true)
    }

    /// A switch.
    public static func flag(_ flag: String, _ meaning: String) -> CommandOption {
        CommandOption(flag: flag, value: nil, meaning: meaning, repeats: false, isOptional: true)
    }

    /// An argument without a flag; `optional`: it may be left out.
    public static func positional(_ name: String, _ meaning: String, optional: Bool = false) -> CommandOption {
        CommandOption(flag: name, value: nil, meaning: meaning, repeats: false, isOptional: optional)
    }

    // MARK: The options several commands share, with their one parser each

    /// `--screen WxH`.
    static func screen(_ meaning: String) -> CommandOption { .value("--screen", "WxH", meaning) }
    /// `--rotation 0|90|180|270`.
    static func rotation(_ meaning: String) -> CommandOption { .value("--rotation", "0|90|180|270", meaning) }
    /// `--config FILE`.
    static func config(_ meaning: String) -> CommandOption { .value("--config", "FILE", meaning) }
    /// `--desc FILE`.
    static let desc = CommandOption.value("--desc", "FILE", "the device description, for a FILE that holds events only")
}

/// A command line parsed against its command's options: every flag known, every value
/// present, no argument left over (a usage error says which).
public struct ParsedArguments: Sendable {
    /// The command.
    public let command: CommandHelp
    private var values: [String: [String]] = [:]
    /// The arguments without a flag, in order.
    public private(set) var positionals: [String] = []

    /// Parses `arguments` (after the command's name) as `command` declares its options.
    public init(_ arguments: [String], for command: CommandHelp) throws(UsageError) {
        self.command = command
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            guard let option = command.options.first(where: { $0.flag == argument && !$0.isPositional }) else {
                let flags = command.options.filter { !$0.isPositional }.map(\.flag)
                throw UsageError("unknown option \"\(argument)\" for \(command.name)" + Suggestion.hint(for: argument, in: flags))
            }
            guard option.repeats || values[option.flag] == nil else { throw UsageError("\(option.flag) given twice") }
            if let placeholder = option.value {
                guard let value = rest.popFirst() else { throw UsageError("\(option.flag) needs \(placeholder)") }
                values[option.flag, default: []].append(value)
            } else {
                values[option.flag] = []
            }
        }
        let declared = command.options.filter(\.isPositional)
        if positionals.count > declared.count {
            throw UsageError("unexpected \"\(positionals[declared.count])\"")
        }
        if let missing = declared.dropFirst(positionals.count).first(where: { !$0.isOptional }) {
            throw UsageError("\(command.name) needs \(missing.flag)")
        }
    }

    /// The value of `flag`, nil when it was not given.
    public func value(_ flag: String) -> String? { values[flag]?.last }
    /// Every value of a repeatable `flag`, in order.
    public func all(_ flag: String) -> [String] { values[flag] ?? [] }
    /// Whether switch `flag` was given.
    public func isSet(_ flag: String) -> Bool { values[flag] != nil }
    /// The positional `name` declares, nil when left out.
    public func positional(_ name: String) -> String? {
        guard let index = command.options.filter(\.isPositional).firstIndex(where: { $0.flag == name }),
              index < positionals.count else { return nil }
        return positionals[index]
    }

    /// `--screen WxH` as pixels, nil when not given.
    public func screen() throws -> (width: Int, height: Int)? {
        try value("--screen").map { try ScreenOptions.parse($0) }
    }

    /// `--rotation N` as a turn, nil when not given.
    public func rotation() throws(UsageError) -> Rotation? {
        guard let text = value("--rotation") else { return nil }
        guard let rotation = Rotation(degrees: text) else {
            throw UsageError("bad rotation \"\(text)\": want 0, 90, 180 or 270")
        }
        return rotation
    }

    /// The number `flag` gives within `range`, nil when not given.
    public func double(_ flag: String, in range: ClosedRange<Double>) throws -> Double? {
        try value(flag).map { try NumericOption.double(flag, $0, in: range) }
    }

    /// The whole number `flag` gives within `range`, nil when not given.
    public func integer(_ flag: String, in range: ClosedRange<Int>) throws -> Int? {
        try value(flag).map { try NumericOption.integer(flag, $0, in: range) }
    }
}
