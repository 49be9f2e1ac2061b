import PanelHost

/// How a row's badge shows by its value (`rows.badge-hide`, `rows.badge-colors`): hidden for
/// some values (a delay of 0), coloured by rules (late in red, on time in green).
public struct BadgeStyle: Sendable, Equatable {
    /// A rule: which values it matches, and their colour.
    public struct Rule: Sendable, Equatable {
        /// What a value is compared with.
        public enum Test: Sendable, Equatable {
            /// Every value.
            case any
            /// A number compared with one: `>5`, `>=5`, `<0`, `<=0`, `=0`.
            case compare(String, Double)
            /// The text, exactly.
            case text(String)
        }
        /// The test.
        public var test: Test
        /// The badge's colour when it matches.
        public var color: Color

        /// Whether the badge text `value` matches ("+2" is the number 2).
        func matches(_ value: String) -> Bool {
            switch test {
            case .any: return true
            case .text(let text): return value == text
            case .compare(let op, let bound):
                guard let number = Double(value.hasPrefix("+") ? String(value.dropFirst()) : value) else { return false }
                switch op {
                case ">": return number > bound
                case ">=": return number >= bound
                case "<": return number < bound
                case "<=": return number <= bound
                default: return number == bound
                }
            }
        }
    }

    /// Values whose badge is not shown.
    public var hidden: Set<String> = []
    /// The rules, the first match wins; no match: the badge's red.
    public var rules: [Rule] = []

    /// No value hidden, every badge red.
    public init() {}

    /// `hidden` values not shown, `rules` for the colours.
    public init(hidden: Set<String>, rules: [Rule]) { (self.hidden, self.rules) = (hidden, rules) }

    /// `rows.badge-hide`: values separated by commas, each trimmed.
    public static func hiddenValues(_ text: String) -> Set<String> {
        Set(text.split(separator: ",").map { TextFormat.trimmed($0) }.filter { !$0.isEmpty })
    }

    /// `rows.badge-colors`: `RULE #rrggbb` pairs separated by commas; a rule is `*`, a
    /// comparison with a number (`>0`, `>=5`, `<0`, `<=0`, `=0`) or a text to equal.
    public static func rules(_ text: String) throws(ConfigurationValueError) -> [Rule] {
        var rules: [Rule] = []
        for pair in text.split(separator: ",") {
            let words = TextFormat.trimmed(pair)
            guard let space = words.lastIndex(of: " ") else {
                throw ConfigurationValueError("\"\(words)\" is not RULE #rrggbb (e.g. >0 #c62828)")
            }
            let rule = TextFormat.trimmed(words[..<space])
            let color = try ConfigurationValue.color(String(words[words.index(after: space)...]))
            let test: Rule.Test
            if rule == "*" {
                test = .any
            } else if let op = [">=", "<=", ">", "<", "="].first(where: { rule.hasPrefix($0) }),
                      let bound = Double(TextFormat.trimmed(rule.dropFirst(op.count))) {
                test = .compare(op, bound)
            } else {
                test = .text(rule)
            }
            rules.append(Rule(test: test, color: color))
        }
        return rules
    }

    /// The badge's text and colour for `value`: nil colour where no rule matches (the cell's
    /// red); empty text when it is hidden.
    public func styled(_ value: String) -> (text: String, color: Color?) {
        if hidden.contains(TextFormat.trimmed(value)) { return ("", nil) }
        return (value, rules.first { $0.matches(value) }?.color)
    }
}
