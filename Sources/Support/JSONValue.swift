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
}

public struct JSONMember: Sendable, Hashable {
    public var key: String
    /// The member name as written in the file (escapes and all), when read from one.
    package var rawKey: String?
    public var value: JSONValue
    public init(key: String, value: JSONValue) {
        self.key = key
        self.rawKey = nil
        self.value = value
    }
    package init(key: String, rawKey: String?, value: JSONValue) {
        self.key = key
        self.rawKey = rawKey
        self.value = value
    }
}
