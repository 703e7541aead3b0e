import Foundation

/// A labelled postal address.
///
/// ```swift
/// let home = LabeledAddress(label: .home, value: PostalAddress(locality: "Lyon"))
/// ```
public struct LabeledAddress: Sendable, Hashable {
    public var label: ContactLabel
    public var value: PostalAddress
    public var preference: Int?

    public init(label: ContactLabel = .unlabeled, value: PostalAddress, preference: Int? = nil) {
        self.label = label
        self.value = value
        self.preference = preference
    }
}
