import Foundation

/// A postal address (`ADR`), component by component.
///
/// ```swift
/// let a = PostalAddress(street: "1 Main St", locality: "Springfield", country: "USA")
/// ```
public struct PostalAddress: Sendable, Hashable {
    public var poBox: String
    public var extended: String
    public var street: String
    public var locality: String
    public var region: String
    public var postalCode: String
    public var country: String

    public init(
        poBox: String = "", extended: String = "", street: String = "", locality: String = "",
        region: String = "", postalCode: String = "", country: String = ""
    ) {
        self.poBox = poBox
        self.extended = extended
        self.street = street
        self.locality = locality
        self.region = region
        self.postalCode = postalCode
        self.country = country
    }

    /// True when every component is empty.
    public var isEmpty: Bool {
        poBox.isEmpty && extended.isEmpty && street.isEmpty && locality.isEmpty && region.isEmpty
            && postalCode.isEmpty && country.isEmpty
    }
}
