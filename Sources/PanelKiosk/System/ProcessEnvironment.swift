import Glibc
import PanelHost

/// The process's environment as a table, for the children it starts (command data sources and
/// tap commands get it with their own variables added). Read from the C library's `environ`
/// at the call: a variable set after the start is seen.
enum ProcessEnvironment {
    /// Every `NAME=value` entry of `environ`; an entry without "=" is left out, and of two
    /// entries with one name the first wins (as `getenv` reads it).
    static func variables() -> [String: String] {
        var table: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if table[name] == nil { table[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return table
    }
}
