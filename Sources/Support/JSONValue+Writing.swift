extension JSONValue {
    /// The value as compact JSON text on one line (members in order, strings escaped by ``JSONText``): the
    /// package's one JSON writer for values built in memory, such as one JSON line of output.
    package var compactText: String {
        var out = ""
        write(to: &out)
        return out
    }

    package func write(to out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                out += JSONText.quoted(m.key)
                out += ":"
                m.value.write(to: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .string(let s, _): out += JSONText.quoted(s)
        case .number(let n): out += n
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }
}
