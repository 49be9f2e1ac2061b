import FoundationEssentials

/// Any JSON value, read with FoundationEssentials' `JSONDecoder` (the program links no full
/// Foundation, so no `JSONSerialization`): the item files and pages, whose fields are named
/// by the configuration, and the last-updated file.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    /// An integer that fits, kept exact (ids).
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses one JSON text.
    static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    var string: String? { if case .string(let s) = self { return s } else { return nil } }

    /// A number as a double, if it is one.
    var double: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }
}
