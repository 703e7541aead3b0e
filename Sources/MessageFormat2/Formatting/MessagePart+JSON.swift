package import Support

extension MessagePart {
    /// The part in the test suite's `expParts` shape (`{"type":"text","value":"…"}`, `{"type":"markup",…}`,
    /// `{"type":"number","locale":"en","parts":[…]}`, `{"type":"fallback","source":"$x"}`).
    package var json: JSONValue {
        func object(_ members: [(String, JSONValue)]) -> JSONValue {
            .object(members.map { JSONMember(key: $0.0, value: $0.1) })
        }
        switch self {
        case .text(let s): return object([("type", .string("text")), ("value", .string(s))])
        case .bidiIsolation(let s): return object([("type", .string("bidiIsolation")), ("value", .string(s))])
        case .fallback(let source): return object([("type", .string("fallback")), ("source", .string(source))])
        case .markup(let kind, let name, let id, let options):
            var members: [(String, JSONValue)] = [
                ("type", .string("markup")), ("kind", .string(kind.rawValue)), ("name", .string(name)),
            ]
            if let id { members.append(("id", .string(id))) }
            if !options.isEmpty {
                members.append(
                    ("options", object(options.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
            }
            return object(members)
        case .expression(let e):
            var members: [(String, JSONValue)] = [("type", .string(e.value.type)), ("locale", .string(e.locale))]
            if let d = e.direction { members.append(("dir", .string(d.rawValue))) }
            if let id = e.id { members.append(("id", .string(id))) }
            if let parts = e.value.parts {
                members.append(
                    ("parts", .array(parts.map { object([("type", .string($0.type)), ("value", .string($0.value))]) })))
            } else {
                members.append(("value", .string(e.value.text)))
            }
            return object(members)
        }
    }
}
