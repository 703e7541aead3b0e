import Foundation
import Support

extension JSONValue {
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

/// Writes `JSONValue` in Xcode's String Catalog layout: two-space indent, `"key" : value`, empty
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

    /// A JSON string as Xcode writes it (the package's one escaper, controls but `\n \r \t` as `\u00xx`).
    static func quote(_ s: String) -> String { JSONText.quoted(s, shortBackspaceAndFormFeed: false) }
}
