import Foundation

/// A JSON value that keeps member order and the exact text of every string, so a document can be
/// written back as it was read (the String Catalog layout Xcode writes).
public indirect enum JSONValue: Sendable, Hashable {
    case object([JSONMember])
    case array([JSONValue])
    /// A string and, when read from a file, its literal as written (escapes and all).
    case string(String, raw: String?)
    /// A number as written.
    case number(String)
    case bool(Bool)
    case null

    public static func string(_ s: String) -> JSONValue { .string(s, raw: nil) }

    public var stringValue: String? { if case .string(let s, _) = self { return s } else { return nil } }
    public var intValue: Int? { if case .number(let n) = self { return Int(n) } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var members: [JSONMember]? { if case .object(let m) = self { return m } else { return nil } }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSONValue? {
        get { members?.first(where: { $0.key == key })?.value }
        set {
            guard case .object(var m) = self else { return }
            if let i = m.firstIndex(where: { $0.key == key }) {
                if let newValue { m[i].value = newValue } else { m.remove(at: i) }
            } else if let newValue {
                m.append(JSONMember(key: key, value: newValue))
            }
            self = .object(m)
        }
    }

    /// Sets `key` keeping members sorted the way Xcode sorts them (for new keys).
    public mutating func insertSorted(_ key: String, _ value: JSONValue) {
        guard case .object(var m) = self else { return }
        if let i = m.firstIndex(where: { $0.key == key }) {
            m[i].value = value
        } else {
            let i = m.firstIndex(where: { JSONValue.xcodeOrder(key, $0.key) }) ?? m.count
            m.insert(JSONMember(key: key, value: value), at: i)
        }
        self = .object(m)
    }

    /// Xcode sorts catalog keys case-insensitively with numbers compared by value.
    static func xcodeOrder(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.caseInsensitive, .numeric, .forcedOrdering]) == .orderedAscending
    }
}

public struct JSONMember: Sendable, Hashable {
    public var key: String
    var rawKey: String?
    public var value: JSONValue
    public init(key: String, value: JSONValue) {
        self.key = key
        self.rawKey = nil
        self.value = value
    }
    init(key: String, rawKey: String?, value: JSONValue) {
        self.key = key
        self.rawKey = rawKey
        self.value = value
    }
}

/// Reads JSON into ``JSONValue`` with line/column errors.
struct OrderedJSONParser {
    let s: [UInt8]
    let file: String
    var i = 0

    init(_ bytes: [UInt8], file: String) {
        s = bytes
        self.file = file
        if s.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    func error(_ message: String) -> StringsCatalogError {
        var line = 1
        var col = 1
        for k in 0..<min(i, s.count) {
            if s[k] == 0x0A {
                line += 1
                col = 1
            } else if s[k] & 0xC0 != 0x80 {
                col += 1
            }
        }
        return .malformed(file: file, line: line, column: col, message: message)
    }

    mutating func skip() {
        while i < s.count, s[i] == 0x20 || s[i] == 0x0A || s[i] == 0x0D || s[i] == 0x09 { i += 1 }
    }

    mutating func parseDocument() throws -> JSONValue {
        skip()
        let v = try parseValue()
        skip()
        guard i == s.count else { throw error("unexpected text after the JSON value") }
        return v
    }

    mutating func parseValue() throws -> JSONValue {
        skip()
        guard i < s.count else { throw error("unexpected end of file, expected a value") }
        switch s[i] {
        case UInt8(ascii: "{"):
            i += 1
            var members: [JSONMember] = []
            skip()
            if i < s.count, s[i] == UInt8(ascii: "}") {
                i += 1
                return .object(members)
            }
            while true {
                skip()
                guard i < s.count, s[i] == UInt8(ascii: "\"") else { throw error("expected a quoted member name") }
                let (key, raw) = try parseString()
                skip()
                guard i < s.count, s[i] == UInt8(ascii: ":") else {
                    throw error("expected ':' after member name \"\(key)\"")
                }
                i += 1
                let value = try parseValue()
                members.append(JSONMember(key: key, rawKey: raw, value: value))
                skip()
                guard i < s.count else { throw error("unexpected end of file inside an object") }
                if s[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if s[i] == UInt8(ascii: "}") {
                    i += 1
                    return .object(members)
                }
                throw error("expected ',' or '}' in an object")
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSONValue] = []
            skip()
            if i < s.count, s[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            while true {
                items.append(try parseValue())
                skip()
                guard i < s.count else { throw error("unexpected end of file inside an array") }
                if s[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if s[i] == UInt8(ascii: "]") {
                    i += 1
                    return .array(items)
                }
                throw error("expected ',' or ']' in an array")
            }
        case UInt8(ascii: "\""):
            let (v, raw) = try parseString()
            return .string(v, raw: raw)
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default:
            let start = i
            while i < s.count, "+-0123456789.eE".utf8.contains(s[i]) { i += 1 }
            guard i > start, Double(String(decoding: s[start..<i], as: UTF8.self)) != nil else {
                i = start
                throw error("unexpected character, expected a value")
            }
            return .number(String(decoding: s[start..<i], as: UTF8.self))
        }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws -> JSONValue {
        let w = Array(word.utf8)
        guard i + w.count <= s.count, Array(s[i..<i + w.count]) == w else { throw error("expected \(word)") }
        i += w.count
        return value
    }

    mutating func parseString() throws -> (String, String) {
        let start = i
        i += 1
        var out: [UInt8] = []
        var units: [UInt16] = []
        func flushUnits(_ out: inout [UInt8], _ units: inout [UInt16]) {
            guard !units.isEmpty else { return }
            out += Array(String(decoding: units, as: UTF16.self).utf8)
            units.removeAll()
        }
        while i < s.count {
            let c = s[i]
            if c == UInt8(ascii: "\"") {
                flushUnits(&out, &units)
                i += 1
                return (String(decoding: out, as: UTF8.self), String(decoding: s[start..<i], as: UTF8.self))
            }
            if c < 0x20 { throw error("control character in a string (escape it)") }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard i < s.count else { break }
                let e = s[i]
                i += 1
                if e == UInt8(ascii: "u") {
                    guard i + 4 <= s.count, let v = UInt16(String(decoding: s[i..<i + 4], as: UTF8.self), radix: 16)
                    else {
                        throw error("\\u needs four hex digits")
                    }
                    i += 4
                    units.append(v)
                    continue
                }
                flushUnits(&out, &units)
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                default: throw error("unknown escape \\\(Character(Unicode.Scalar(e)))")
                }
                continue
            }
            flushUnits(&out, &units)
            out.append(c)
            i += 1
        }
        i = start
        throw error("unterminated string")
    }
}

/// Writes ``JSONValue`` in Xcode's String Catalog layout: two-space indent, `"key" : value`, empty
/// objects as `{` blank line `}`.
enum XcodeJSONWriter {
    static func write(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, into: &out)
        return out
    }

    static func write(_ value: JSONValue, indent: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: indent)
        let inner = String(repeating: "  ", count: indent + 1)
        switch value {
        case .object(let members):
            if members.isEmpty {
                out += "{\n\n\(pad)}"
                return
            }
            out += "{\n"
            for (k, m) in members.enumerated() {
                out += inner + (m.rawKey ?? quote(m.key)) + " : "
                write(m.value, indent: indent + 1, into: &out)
                out += k == members.count - 1 ? "\n" : ",\n"
            }
            out += pad + "}"
        case .array(let items):
            if items.isEmpty {
                out += "[\n\n\(pad)]"
                return
            }
            out += "[\n"
            for (k, item) in items.enumerated() {
                out += inner
                write(item, indent: indent + 1, into: &out)
                out += k == items.count - 1 ? "\n" : ",\n"
            }
            out += pad + "]"
        case .string(let s, let raw): out += raw ?? quote(s)
        case .number(let n): out += n
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
