import PanelGestures
import PanelInput

/// Settings read from an INI-style file through one table of keys (``ConfigurationKey``): the
/// host's ``Configuration``, which an app reads, and the kiosk program's, which holds the host's
/// and adds its own. The table drives the reader (every error with its line), `set` (the
/// command line's `--set`), what a reload changed, the man page and the documentation.
public protocol KeyedConfiguration: Sendable {
    /// The built-in defaults (what an empty file gives).
    init()
    /// Every key, in the order the manual lists them.
    static var keys: [ConfigurationKey<Self>] { get }
    /// The keys set (by the file, `--set` or `set(_:_:)`) and their text, so a reload can tell
    /// what it changes.
    var setKeys: [String: String] { get set }
    /// Checks what single keys cannot (a source needs its location); throws the first problem.
    func validate(file path: String) throws(ConfigurationError)
    /// What is wrong with the files the keys name, for `check` (`screen`: the screen's size
    /// in pixels, when known).
    @MainActor func fileProblems(screen: (width: Int, height: Int)?) -> [(key: String, message: String)]
}

extension KeyedConfiguration {
    /// Nothing needs checking across keys.
    public func validate(file path: String) throws(ConfigurationError) {}
    /// No key names a file.
    @MainActor public func fileProblems(screen: (width: Int, height: Int)?) -> [(key: String, message: String)] { [] }

    /// The sections in the order of the table.
    public static var sections: [String] {
        var seen: [String] = []
        for key in keys where !seen.contains(key.section) { seen.append(key.section) }
        return seen
    }

    /// Every key as `section.key`, for docs and errors.
    public static var keyNames: [String] { keys.map(\.qualified) }

    /// The section a key of this name is in, if any.
    static func section(of name: String) -> String? { keys.first { $0.name == name }?.section }

    /// Reads INI-style text: `[section]` headers, `key = value` lines, `#` or `;` comments on
    /// lines of their own. Throws the first error (`check` reports them all).
    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> Self {
        let parsed = read(text, file: file)
        if let first = parsed.errors.first { throw first }
        try parsed.configuration.validate(file: file)
        return parsed.configuration
    }

    /// Reads and checks the file at `path` (at most 1 MiB, a regular file).
    public static func load(path: String) throws(ConfigurationError) -> Self {
        try parse(String(decoding: try readFile(path), as: UTF8.self), file: path)
    }

    /// What a file's text sets, the line of each key, and every error on the way: a bad line
    /// is reported and passed over, so one reading finds them all.
    public static func read(_ text: String, file: String) -> (configuration: Self, lines: [String: Int], errors: [ConfigurationError]) {
        var configuration = Self()
        let sections = self.sections
        var section: String? = ""
        var lines: [String: Int] = [:]
        var errors: [ConfigurationError] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let number = index + 1
            func error(_ message: String) { errors.append(ConfigurationError(file: file, line: number, message: message)) }
            let line = TextFormat.trimmed(raw)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else {
                    error("a section header ends with ]")
                    section = nil
                    continue
                }
                let name = TextFormat.trimmed(line.dropFirst().dropLast())
                guard sections.contains(name) else {
                    let hint = Suggestion.closest(to: name, in: sections).map { "; did you mean [\($0)]?" }
                        ?? "; sections: \(sections.joined(separator: ", "))"
                    error("unknown section [\(name)]" + hint)
                    // Its keys are not looked at: each would only repeat this error.
                    section = nil
                    continue
                }
                section = name
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                error("expected key = value")
                continue
            }
            let name = TextFormat.trimmed(line[..<equals])
            let value = TextFormat.trimmed(line[line.index(after: equals)...])
            guard let section else { continue }
            guard !section.isEmpty else {
                error("\(name) is outside any [section]" + (Self.section(of: name).map { "; it belongs in [\($0)]" } ?? ""))
                continue
            }
            let qualified = "\(section).\(name)"
            guard lines[qualified] == nil else {
                error("\(qualified) is set twice (first on line \(lines[qualified] ?? 0))")
                continue
            }
            lines[qualified] = number
            do {
                try configuration.set(qualified, value)
            } catch {
                errors.append(ConfigurationError(file: file, line: number, message: error.message))
            }
        }
        return (configuration, lines, errors)
    }

    /// Every error in the file at `path`, none when it is valid: each line, then what keys
    /// need together, then the files the keys name (`files` false: not those, for a
    /// configuration written for another machine).
    @MainActor
    public static func check(path: String, screen: (width: Int, height: Int)? = nil, files: Bool = true) -> [ConfigurationError] {
        let text: String
        do {
            text = try String(decoding: readFile(path), as: UTF8.self)
        } catch {
            return [error]
        }
        let (configuration, lines, errors) = read(text, file: path)
        var found = errors
        do { try configuration.validate(file: path) } catch { found.append(error) }
        for problem in files ? configuration.fileProblems(screen: screen) : [] {
            found.append(ConfigurationError(file: path, line: lines[problem.key] ?? 0, message: problem.message))
        }
        return found.sorted { $0.line < $1.line }
    }

    /// The file's bytes: a regular file of at most 1 MiB.
    static func readFile(_ path: String) throws(ConfigurationError) -> [UInt8] {
        // 1 MiB: a configuration is a few hundred bytes; anything near this is not one.
        do throws(BoundedFile.Failure) {
            return try BoundedFile.read(path, limit: 1 << 20)
        } catch .tooLarge {
            throw ConfigurationError(file: path, line: 0, message: "larger than 1 MiB: not a configuration file")
        } catch {
            throw ConfigurationError(file: path, line: 0, message: error.explanation(limit: 1 << 20))
        }
    }

    /// Sets `section.key` from text, as in the file (command-line overrides use this too).
    public mutating func set(_ qualified: String, _ value: String) throws(ConfigurationError) {
        guard let key = Self.keys.first(where: { $0.qualified == qualified }) else {
            throw ConfigurationError(file: "", line: 0, message: "unknown key \(qualified)" + Self.hint(forUnknown: qualified))
        }
        do {
            try key.apply(&self, value)
            setKeys[qualified] = value
        } catch let error as ConfigurationValueError {
            throw ConfigurationError(file: "", line: 0, message: "\(qualified): \(error.message)")
        } catch {
            throw ConfigurationError(file: "", line: 0, message: "\(qualified): \(error)")
        }
    }

    /// The keys whose value differs between this configuration and `other` ("display.blank-after"),
    /// by what each set: a key set to its default on one side counts as changed, which at worst
    /// rebuilds what did not need it.
    public func changedKeys(from other: Self) -> Set<String> {
        Set(setKeys.keys).union(other.setKeys.keys).filter { setKeys[$0] != other.setKeys[$0] }
    }

    /// What to say after "unknown key X": the section the key is in when it is in another
    /// one, else the closest known key.
    static func hint(forUnknown qualified: String) -> String {
        let name = qualified.split(separator: ".", maxSplits: 1).last.map(String.init) ?? qualified
        if let section = section(of: name), !qualified.hasPrefix(section + ".") {
            return "; \(name) is in [\(section)]"
        }
        return Suggestion.closest(to: qualified, in: keyNames).map { "; did you mean \($0)?" } ?? ""
    }
}
