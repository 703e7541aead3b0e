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
