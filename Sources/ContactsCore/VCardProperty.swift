import Foundation

/// A vCard property kept verbatim: group, upper-cased name, parameters and the value text as written
/// (unfolded, quoted-printable and charset already decoded to UTF-8, escapes untouched).
///
/// ```swift
/// VCardProperty(group: "item1", name: "X-ABADR", value: "us")
/// ```
public struct VCardProperty: Sendable, Hashable {
    public var group: String?
    public var name: String
    public var parameters: [VCardParameter]
    public var value: String

    public init(group: String? = nil, name: String, parameters: [VCardParameter] = [], value: String) {
        self.group = group
        self.name = name
        self.parameters = parameters
        self.value = value
    }

    /// The values of parameter `name` (case-insensitive), all occurrences merged.
    public func parameter(_ name: String) -> [String] {
        let upper = name.uppercased()
        return parameters.filter { $0.name == upper }.flatMap(\.values)
    }
}
