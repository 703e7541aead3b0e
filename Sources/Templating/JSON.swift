extension MustacheValue {
    /// Reads JSON into a context value (objects become dictionaries; integers stay integers). Errors name
    /// `file`, line and column and say what was expected.
    ///
    /// ```swift
    /// let ctx = try MustacheValue(json: Array(#"{"name": "Ada", "n": 3}"#.utf8), file: "data.json")
    /// ```
    public init(json bytes: [UInt8], file: String = "<json>") throws {
        var reader = JSONReader(bytes: bytes, file: file)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        if reader.i < bytes.count { throw reader.error("unexpected text after the JSON value") }
        self = value
    }
}

struct JSONReader {
    let bytes: [UInt8]
    let file: String
    var i = 0

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    func error(_ message: String) -> TemplatingError {
        var line = 1
        var lineStart = 0
        for k in 0..<min(i, bytes.count) where bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        let column = String(decoding: bytes[lineStart..<min(i, bytes.count)], as: UTF8.self).unicodeScalars.count + 1
        return .badData(file: file, line: line, column: column, message: message)
    }

    mutating func skipSpace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    mutating func expect(_ word: String) throws {
        let w = Array(word.utf8)
        guard bytes.count - i >= w.count, Array(bytes[i..<i + w.count]) == w else {
            throw error("expected a JSON value ('\(word)'?)")
        }
        i += w.count
    }

    mutating func value(depth: Int) throws -> MustacheValue {
        guard depth < 512 else { throw error("JSON nests too deeply") }
        guard i < bytes.count else { throw error("expected a JSON value, found the end of the file") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            // Members are collected and the dictionary built once (a later duplicate key wins, in the
            // first one's place), not rebuilt per member.
            var members: [(String, MustacheValue)] = []
            skipSpace()
            if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .dictionary(MustacheDictionary())
            }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                    throw error("expected a string key in an object")
                }
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                    throw error("expected ':' after an object key")
                }
                i += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard i < bytes.count else { throw error("expected ',' or '}', found the end of the file") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard bytes[i] == UInt8(ascii: "}") else { throw error("expected ',' or '}' in an object") }
                i += 1
                return .dictionary(MustacheDictionary(entries: members))
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [MustacheValue] = []
            skipSpace()
            if i < bytes.count && bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw error("expected ',' or ']', found the end of the file") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard bytes[i] == UInt8(ascii: "]") else { throw error("expected ',' or ']' in an array") }
                i += 1
                return .array(items)
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        default:
            return try number()
        }
    }

    mutating func number() throws -> MustacheValue {
        let start = i
        var isInteger = true
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") { i += 1 }
        while i < bytes.count {
            let b = bytes[i]
            if b >= 0x30 && b <= 0x39 {
                i += 1
            } else if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
                || b == UInt8(ascii: "+")
                || (b == UInt8(ascii: "-") && i > start)
            {
                isInteger = false
                i += 1
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if isInteger, let n = Int(text) { return .int(n) }
        if let d = Double(text), !text.isEmpty, text != "-" { return .double(d) }
        i = start
        throw error("expected a JSON value (object, array, string, number, true, false or null)")
    }

    mutating func string() throws -> String {
        let start = i
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else {
                i = start
                throw error("unterminated string (no closing quote)")
            }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw error("control character in a string (escape it)") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                i += 1
                continue
            }
            i += 1
            guard i < bytes.count else { throw error("unterminated escape") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("lone high surrogate in \\u escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("bad low surrogate in \\u escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("bad \\u escape") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                i -= 1
                throw error("unknown escape '\\\(String(decoding: [e], as: UTF8.self))'")
            }
        }
    }

    mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("expected 4 hex digits after \\u") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
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
