import CJSON
import PanelHost

/// Any JSON value: the item files and pages (whose fields the configuration names), the
/// last-updated file, the status and the items a tap command is given. Read and written by
/// json-c, the program's one JSON seam: FoundationEssentials' `JSONDecoder` and `JSONEncoder`
/// and their Codable machinery were most of the 4.8 MB of file and 1.2 MB resident that
/// Foundation cost the program (docs/deployment.md, "What Foundation costs").
enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// An integer that fits in 64 bits, kept exact (ids). Past 64 bits json-c saturates.
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Why a text is not JSON.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        /// json-c's words (`json_tokener_error_desc`), or the seam's own.
        let reason: String
        /// Where the parser stopped, bytes from the start.
        let offset: Int
        /// The reason and its place.
        var description: String { "not JSON at byte \(offset): \(reason)" }
    }

    /// The deepest nesting a text may have: JSONDecoder's limit, kept (a hostile page gets an
    /// error; the conversion below recurses once a level, well within a worker's stack:
    /// WorkerStackTests).
    static let maximumDepth: Int32 = 512

    /// Bytes json-c's tree of a text of `count` bytes may take: 16 times the text plus 1 MiB.
    /// A text whose shape would take more is refused before it is parsed (``JSONShape``): item
    /// documents are parsed an item at a time (``ItemParser``), so this bounds one item's tree;
    /// the status, the last-updated file and a tap command's item are far below it.
    static func budget(forBytes count: Int) -> Int { 16 * count + (1 << 20) }

    /// Parses one JSON text: strict JSON (no trailing commas, single quotes or leading zeros),
    /// valid UTF-8, nothing but blanks after the value. A control character written raw in a
    /// string is taken as it is (json-c's strict mode lets it through). A text that would take
    /// more than ``budget(forBytes:)`` to hold is refused.
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSONValue { try parse(bytes[...]) }

    /// Parses the JSON text in `bytes` (a part of a larger text: an item of a document, a line).
    static func parse(_ bytes: ArraySlice<UInt8>) throws(ParseError) -> JSONValue {
        // json-c counts in Int32; the sources' limits keep a page far below.
        guard bytes.count < Int(Int32.max) else { throw ParseError(reason: "over 2 GiB", offset: 0) }
        let shape = JSONShape.of(bytes)
        guard shape.treeBytes <= budget(forBytes: bytes.count) else {
            throw ParseError(reason: "\(shape.objects) objects and \(shape.arrays) arrays in \(bytes.count) bytes would take about "
                             + "\(shape.treeBytes >> 20) MiB to hold (at most 16 times the text and 1 MiB)", offset: 0)
        }
        guard let tokener = json_tokener_new_ex(maximumDepth) else { throw ParseError(reason: "out of memory", offset: 0) }
        defer { json_tokener_free(tokener) }
        json_tokener_set_flags(tokener, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8)
        // With its terminating NUL: a number that ends the text is complete, not waiting for more.
        var text = [UInt8]()
        text.reserveCapacity(bytes.count + 1)
        text.append(contentsOf: bytes)
        text.append(0)
        let parsed = text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { json_tokener_parse_ex(tokener, $0.baseAddress, Int32($0.count)) }
        }
        defer { json_object_put(parsed) }
        let status = json_tokener_get_error(tokener)
        let end = json_tokener_get_parse_end(tokener)
        guard status == json_tokener_success, end >= bytes.count || text[end...].allSatisfy(isBlank) else {
            let reason = status == json_tokener_success ? "more after the value" : String(cString: json_tokener_error_desc(status))
            throw ParseError(reason: reason, offset: min(end, bytes.count))
        }
        return value(of: parsed)
    }

    /// JSON's blanks: space, tab, line feed, carriage return (and the NUL the parser was given).
    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d || byte == 0 }

    /// The value of a json-c object (nil is JSON's null).
    private static func value(of object: OpaquePointer?) -> JSONValue {
        guard let object else { return .null }
        switch json_object_get_type(object) {
        case json_type_boolean:
            return .bool(json_object_get_boolean(object) != 0)
        case json_type_int:
            let signed = json_object_get_int64(object)
            // Above Int64.max json-c holds the integer unsigned: a number, as JSONDecoder made it.
            if signed == Int64.max, json_object_get_uint64(object) > UInt64(Int64.max) {
                return .number(Double(json_object_get_uint64(object)))
            }
            return .integer(signed)
        case json_type_double:
            return .number(json_object_get_double(object))
        case json_type_string:
            let count = Int(json_object_get_string_len(object))
            guard let start = json_object_get_string(object) else { return .string("") }
            // Validated as UTF-8 by the parser; NULs escaped as \u0000 are kept.
            return .string(start.withMemoryRebound(to: UInt8.self, capacity: count) {
                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            })
        case json_type_array:
            let count = json_object_array_length(object)
            return .array((0..<count).map { value(of: json_object_array_get_idx(object, $0)) })
        case json_type_object:
            var members: [String: JSONValue] = [:]
            var at = json_object_iter_begin(object)
            var end = json_object_iter_end(object)
            while json_object_iter_equal(&at, &end) == 0 {
                if let name = json_object_iter_peek_name(&at) {
                    members[String(cString: name)] = value(of: json_object_iter_peek_value(&at))
                }
                json_object_iter_next(&at)
            }
            return .object(members)
        default:
            return .null
        }
    }

    /// The value as compact JSON, keys sorted (the same item gives the same bytes), slashes
    /// not escaped, numbers as Swift writes them (shortest form that reads back the same; an
    /// integral number without ".0"; a number that is not finite as 0).
    var encoded: [UInt8] {
        let object = Self.object(of: self)
        defer { json_object_put(object) }
        var count = 0
        guard let text = json_object_to_json_string_length(object, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &count) else {
            return Array("null".utf8)
        }
        return text.withMemoryRebound(to: UInt8.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
    }

    /// A new json-c object for `value` (nil for null, which json-c writes as null).
    private static func object(of value: JSONValue) -> OpaquePointer? {
        switch value {
        case .null:
            return nil
        case .bool(let b):
            return json_object_new_boolean(b ? 1 : 0)
        case .integer(let i):
            return json_object_new_int64(i)
        case .number(let d):
            let finite = d.isFinite ? d : 0
            var text = "\(finite)"
            if text.hasSuffix(".0") { text.removeLast(2) }
            return json_object_new_double_s(finite, text)
        case .string(let s):
            var s = s
            return s.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    // An empty string's buffer may have no address: json-c wants one all the same.
                    guard let start = chars.baseAddress else { return json_object_new_string("") }
                    return json_object_new_string_len(start, Int32(chars.count))
                }
            }
        case .array(let items):
            let array = json_object_new_array_ext(Int32(items.count))
            for item in items { json_object_array_add(array, object(of: item)) }
            return array
        case .object(let members):
            let table = json_object_new_object()
            // json-c writes members in the order they were added.
            for key in members.keys.sorted() {
                json_object_object_add(table, key, object(of: members[key] ?? .null))
            }
            return table
        }
    }

    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The value when it is a number, whole or not.
    var number: Double? {
        switch self {
        case .integer(let n): return Double(n)
        case .number(let d): return d
        default: return nil
        }
    }

    /// A number as a double, if it is one.
    var double: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }
}
