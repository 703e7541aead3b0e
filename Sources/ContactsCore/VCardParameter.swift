import Foundation

/// One parameter of a property: upper-cased name and its values (quotes and RFC 6868 escapes removed).
///
/// ```swift
/// VCardParameter(name: "TYPE", values: ["work", "voice"])   // written as TYPE=work,voice
/// ```
public struct VCardParameter: Sendable, Hashable {
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}
