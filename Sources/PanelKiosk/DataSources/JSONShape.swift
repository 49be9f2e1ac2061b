/// What a JSON text costs to hold, read without holding it: one pass over its bytes counting
/// the objects, arrays and separators outside strings. json-c builds a tree whose size follows
/// these counts, not the text's length: 3 MB of `[{}, {}, …]` took 818 MB. The parse is refused
/// before json-c allocates anything when ``treeBytes`` is over its budget
/// (``JSONValue/budget(forBytes:)``). The scan does not validate: json-c does that.
struct JSONShape: Equatable {
    /// `{` outside strings.
    var objects = 0
    /// `[` outside strings.
    var arrays = 0
    /// `,` outside strings: one per member or element after the first.
    var separators = 0
    /// Bytes scanned.
    var bytes = 0

    /// Bytes json-c's tree of the text takes at most, by its counts. Measured with glibc's
    /// `mallinfo2` on json-c 0.16 (Debian 12, x86_64; arm64's are the same sizes): an object
    /// with one member 784 B (its hash table of 16 entries), an array 152 B (32 slots), each
    /// further member or element 72-201 B (its value, a key, a slot, the table's growth);
    /// strings are copied (at most the text's bytes). Rounded up: 1024, 192 and 256.
    var treeBytes: Int { objects * 1024 + arrays * 192 + separators * 256 + bytes }

    /// The shape of `bytes`.
    static func of(_ bytes: ArraySlice<UInt8>) -> JSONShape {
        var shape = JSONShape()
        _ = shape.scan(bytes, from: bytes.startIndex, oneValue: false)
        return shape
    }

    /// The end of the value that starts at `start` (a blank-free position): the index after its
    /// last byte, with the shape of the value added to this one; nil when the text ends inside
    /// it. A scalar ends at the first blank, `,`, `]` or `}`.
    mutating func valueEnd(in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        scan(bytes, from: start, oneValue: true)
    }

    /// Scans from `start`: the whole text, or (`oneValue`) one value, returning where it ends.
    private mutating func scan(_ text: ArraySlice<UInt8>, from start: Int, oneValue: Bool) -> Int? {
        var depth = 0, inString = false, escaped = false
        var at = start
        while at < text.endIndex {
            let byte = text[at]
            at += 1
            bytes += 1
            if inString {
                if escaped { escaped = false } else if byte == 0x5c { escaped = true } else if byte == 0x22 {
                    inString = false
                    if oneValue && depth == 0 { return at }
                }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x7b: objects += 1; depth += 1
            case 0x5b: arrays += 1; depth += 1
            case 0x7d, 0x5d:
                depth -= 1
                if oneValue && depth <= 0 { return depth == 0 ? at : at - 1 }
            case 0x2c:
                if oneValue && depth == 0 { return at - 1 }
                separators += 1
            case 0x20, 0x09, 0x0a, 0x0d:
                if oneValue && depth == 0 && at - 1 > start { return at - 1 }
            default: break
            }
        }
        return oneValue && depth == 0 && !inString && at > start ? at : (oneValue ? nil : at)
    }
}
