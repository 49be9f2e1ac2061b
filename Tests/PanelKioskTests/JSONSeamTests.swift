import FoundationEssentials
import Glibc
import Testing
@testable import PanelHost
@testable import PanelKiosk

/// JSON through json-c (`JSONValue`, the program's one JSON seam): what the item files, the
/// pages, the status and the last-updated file read and write.
@Suite("JSON through json-c")
struct JSONSeamTests {
    static func parse(_ text: String) throws(JSONValue.ParseError) -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test("every kind of value reads back as itself, integers exact, nesting kept")
    func values() throws {
        let value = try Self.parse(#" {"a": [1, -2.5, true, false, null, "x\u00e9\n"], "b": {"c": 9007199254740993}} "#)
        #expect(value == .object([
            "a": .array([.integer(1), .number(-2.5), .bool(true), .bool(false), .null, .string("xé\n")]),
            "b": .object(["c": .integer(9_007_199_254_740_993)]),
        ]))
        #expect(try Self.parse("123") == .integer(123))
        #expect(try Self.parse("1.5e3") == .number(1500))
        #expect(try Self.parse("null") == .null)
        #expect(try Self.parse(#""a\u0000b""#) == .string("a\u{0}b"))
        // Above Int64.max: a number, as JSONDecoder made it.
        #expect(try Self.parse("18446744073709551615") == .number(Double(UInt64.max)))
        // A control character written raw in a string (JSON wants it escaped) is taken as it is:
        // json-c's strict mode lets it through, and a row shows it rather than no list.
        #expect(try Self.parse("\"a\u{1}b\"") == .string("a\u{1}b"))
    }

    @Test("what is not strict JSON is refused with json-c's reason and the place", arguments: [
        "", "   ", "[1,]", "'x'", "01", "[1, 2] x", "{\"a\" 1}", "[1", "nan",
    ])
    func refused(_ text: String) {
        #expect(throws: JSONValue.ParseError.self) { try Self.parse(text) }
    }

    @Test("invalid UTF-8 in a string is refused")
    func invalidUTF8() {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse([0x22, 0xff, 0x22]) }
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse([0x22, 0xc3, 0x22]) }
    }

    @Test("a refusal says why and where")
    func reason() {
        do {
            _ = try Self.parse("[1, 2] x")
            Issue.record("parsed")
        } catch {
            #expect(error.offset == 7)
            #expect(error.description.hasPrefix("not JSON at byte 7: "))
        }
    }

    @Test("written compact, keys sorted, slashes and UTF-8 as they are, numbers as Swift writes them")
    func encoded() {
        let value = JSONValue.object([
            "z": .string("a/b \"q\" é\n"), "a": .integer(-3), "m": .array([.number(0.1), .number(5), .number(1e-5), .number(.nan), .null, .bool(true)]),
        ])
        #expect(String(decoding: value.encoded, as: UTF8.self)
                == #"{"a":-3,"m":[0.1,5,1e-05,0,null,true],"z":"a/b \"q\" é\n"}"#)
        #expect(JSONValue.string("").encoded == Array(#""""#.utf8))
        #expect(JSONValue.null.encoded == Array("null".utf8))
    }

    @Test("what is written reads back the same")
    func roundTrip() throws {
        let value = JSONValue.object(["k": .array([.number(1767268800.25), .integer(Int64.min), .string("\u{0}→🙂"), .object([:])])])
        #expect(try JSONValue.parse(value.encoded) == value)
    }
}

/// The C library's parts that stand where Foundation's stood: the status's times, the children's
/// environment.
@Suite("Times and environment from the C library")
struct CLibraryPartsTests {
    @Test("status times are RFC 3339 in UTC to the second, rounded down")
    func rfc3339() {
        #expect(KioskStatus.rfc3339(Date(timeIntervalSince1970: 1_796_376_622.9)) == "2026-12-04T09:30:22Z")
        #expect(KioskStatus.rfc3339(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(KioskStatus.rfc3339(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59Z")
        #expect(KioskStatus.rfc3339(Date(timeIntervalSince1970: .infinity)) == "")
    }

    @Test("a child's environment is the process's, each variable once")
    func environment() {
        let table = ProcessEnvironment.variables()
        #expect(table["PATH"] == getenv("PATH").map { String(cString: $0) })
        #expect(table.count >= 1)
        #expect(table.keys.allSatisfy { !$0.contains("=") })
    }
}
