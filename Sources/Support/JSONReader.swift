/// The package's one JSON reader: String Catalogs (`.xcstrings`), template data (`sample.json`,
/// `--data`) and recipient data all go through it. It keeps member order, optionally the literal text of
/// every string (so a catalog writes back byte for byte), reads in one pass (linear in the input), bounds
/// nesting (a hostile file cannot overflow the stack) and reports the first error with its line and column.
///
/// ```swift
/// var reader = JSONReader(Array(#"{"b": 1, "a": [true, "x"]}"#.utf8), file: "data.json")
/// let value = try reader.document()          // .object([b: 1, a: [true, "x"]]) in file order
/// ```
package struct JSONReader {
    /// Nesting deeper than this (objects and arrays inside each other) is an error.
    package static let maximumDepth = 512

    /// A syntax error: where, and what was expected. Each module turns it into its own error type.
    package struct SyntaxError: Error, Equatable {
        package var file: String
        package var line: Int
        package var column: Int
        package var message: String
    }

    /// A member name written twice in one object: the reader keeps both members in order (a lookup sees the
    /// first); a linter reports the second.
    package struct DuplicateKey: Sendable, Hashable {
        package var key: String
        /// Where the repeated member's name starts, and the first one's (line and column as in errors).
        package var line: Int
        package var column: Int
        package var firstLine: Int
        package var firstColumn: Int
    }

    /// Member names repeated within an object, in the order read.
    package private(set) var duplicateKeys: [DuplicateKey] = []

    let s: [UInt8]
    let file: String
    /// Whether strings and member names keep their literal text (escapes and all) for writing back.
    let keepRawText: Bool
    var i = 0

    package init(_ bytes: [UInt8], file: String, keepRawText: Bool = true) {
        s = bytes
        self.file = file
        self.keepRawText = keepRawText
        if s.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    /// The whole input as one JSON value (white space around it allowed, nothing else).
    package mutating func document() throws(SyntaxError) -> JSONValue {
        skipSpace()
        let value = try value(depth: 0)
        skipSpace()
        guard i == s.count else { throw error("unexpected text after the JSON value") }
        if !repeats.isEmpty {
            let at = positions(of: repeats.flatMap { [$0.at, $0.first] })
            duplicateKeys = repeats.map { r in
                let (here, first) = (at[r.at] ?? (1, 1), at[r.first] ?? (1, 1))
                return DuplicateKey(
                    key: r.key, line: here.line, column: here.column, firstLine: first.line,
                    firstColumn: first.column)
            }
        }
        return value
    }

    /// Repeated member names as read: the name, where it starts and where the first one starts (bytes);
    /// made into lines and columns in one pass at the end, however many there are.
    private var repeats: [(key: String, at: Int, first: Int)] = []

    mutating func recordDuplicate(_ key: String, at offset: Int, first: Int) {
        repeats.append((key, offset, first))
    }

    /// Lines and columns of `offsets` (ascending or not), in one pass over the bytes.
    func positions(of offsets: [Int]) -> [Int: (line: Int, column: Int)] {
        TextPosition.of(bytes: offsets, in: s)
    }

    /// Line and column (in Unicode scalars) of the current position.
    func error(_ message: String) -> SyntaxError {
        let (line, column) = TextPosition.of(byte: i, in: s)
        return SyntaxError(file: file, line: line, column: column, message: message)
    }

    mutating func skipSpace() {
        while i < s.count, s[i] == 0x20 || s[i] == 0x0A || s[i] == 0x0D || s[i] == 0x09 { i += 1 }
    }

    mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
        guard depth < Self.maximumDepth else {
            throw error("JSON nests more than \(Self.maximumDepth) levels deep")
        }
        guard i < s.count else { throw error("expected a JSON value, found the end of the file") }
        switch s[i] {
        case UInt8(ascii: "{"):
            i += 1
            var members: [JSONMember] = []
            // Where each member's name starts: the first eight in place (no allocation for the many small
            // objects), past them name → where its first member starts.
            var smallStarts: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
            var firstStart: [String: Int]? = nil
            skipSpace()
            if i < s.count, s[i] == UInt8(ascii: "}") {
                i += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard i < s.count, s[i] == UInt8(ascii: "\"") else { throw error("expected a string key in an object") }
                let keyStart = i
                let (key, raw) = try string()
                let earlier: Int?
                if firstStart != nil {
                    earlier = firstStart![key]
                    if earlier == nil { firstStart![key] = keyStart }
                } else {
                    let n = members.count
                    earlier = members.firstIndex { $0.key == key }.map { k in
                        withUnsafeBytes(of: smallStarts) { $0.load(fromByteOffset: k * 8, as: Int.self) }
                    }
                    if n < 8 {
                        withUnsafeMutableBytes(of: &smallStarts) {
                            $0.storeBytes(of: keyStart, toByteOffset: n * 8, as: Int.self)
                        }
                    } else {
                        var index: [String: Int] = [:]
                        withUnsafeBytes(of: smallStarts) { starts in
                            for (k, m) in members.enumerated() where index[m.key] == nil {
                                index[m.key] = starts.load(fromByteOffset: k * 8, as: Int.self)
                            }
                        }
                        if index[key] == nil { index[key] = keyStart }
                        firstStart = index
                    }
                }
                if let earlier { recordDuplicate(key, at: keyStart, first: earlier) }
                skipSpace()
                guard i < s.count, s[i] == UInt8(ascii: ":") else { throw error("expected ':' after an object key") }
                i += 1
                skipSpace()
                members.append(JSONMember(key: key, rawKey: raw, value: try value(depth: depth + 1)))
                skipSpace()
                guard i < s.count else { throw error("expected ',' or '}', found the end of the file") }
                if s[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard s[i] == UInt8(ascii: "}") else { throw error("expected ',' or '}' in an object") }
                i += 1
                return .object(members)
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < s.count, s[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < s.count else { throw error("expected ',' or ']', found the end of the file") }
                if s[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard s[i] == UInt8(ascii: "]") else { throw error("expected ',' or ']' in an array") }
                i += 1
                return .array(items)
            }
        case UInt8(ascii: "\""):
            let (text, raw) = try string()
            return .string(text, raw: raw)
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    mutating func literal(_ word: StaticString, _ value: JSONValue) throws(SyntaxError) -> JSONValue {
        let n = word.utf8CodeUnitCount
        let w = UnsafeBufferPointer(start: word.utf8Start, count: n)
        guard s.count - i >= n, s[i..<i + n].elementsEqual(w) else {
            throw error("expected a JSON value ('\(word)'?)")
        }
        i += n
        return value
    }

    /// A number as written (RFC 8259 grammar: `-`, digits, optional fraction and exponent).
    mutating func number() throws(SyntaxError) -> JSONValue {
        let start = i
        func digits() -> Int {
            let from = i
            while i < s.count, s[i] >= 0x30 && s[i] <= 0x39 { i += 1 }
            return i - from
        }
        if i < s.count, s[i] == UInt8(ascii: "-") { i += 1 }
        var valid = digits() > 0
        if valid, i < s.count, s[i] == UInt8(ascii: ".") {
            i += 1
            valid = digits() > 0
        }
        if valid, i < s.count, s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E") {
            i += 1
            if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") { i += 1 }
            valid = digits() > 0
        }
        guard valid else {
            i = start
            throw error("expected a JSON value (object, array, string, number, true, false or null)")
        }
        return .number(String(decoding: s[start..<i], as: UTF8.self))
    }

    /// The string at `i` (which is a quote) and its literal text when kept.
    mutating func string() throws(SyntaxError) -> (String, String?) {
        let start = i
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < s.count else {
                i = start
                throw error("unterminated string (no closing quote)")
            }
            let b = s[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                let raw = keepRawText ? String(decoding: s[start..<i], as: UTF8.self) : nil
                return (String(decoding: out, as: UTF8.self), raw)
            }
            if b < 0x20 { throw error("control character in a string (escape it)") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                i += 1
                continue
            }
            i += 1
            guard i < s.count else { throw error("unterminated escape") }
            let e = s[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard s.count - i >= 2, s[i] == UInt8(ascii: "\\"), s[i + 1] == UInt8(ascii: "u") else {
                        throw error("lone high surrogate in \\u escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("bad low surrogate in \\u escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("bad \\u escape (a lone low surrogate)") }
                out.append(contentsOf: String(Character(scalar)).utf8)
            default:
                i -= 1
                throw error("unknown escape '\\\(String(decoding: [e], as: UTF8.self))'")
            }
        }
    }

    mutating func hex4() throws(SyntaxError) -> UInt32 {
        guard s.count - i >= 4 else { throw error("expected 4 hex digits after \\u") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = s[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw error("expected 4 hex digits after \\u")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }
}
