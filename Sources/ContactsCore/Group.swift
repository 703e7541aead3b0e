import Foundation

/// A group of contacts: a vCard 4 `KIND:group` card with `MEMBER`s, an Apple
/// `X-ADDRESSBOOKSERVER-KIND:group` card, or a `CATEGORIES` value shared by contacts. A contact may be in
/// several groups.
///
/// ```swift
/// for group in book.groups where group.memberIDs.contains(contact.id) { print(group.name) }
/// ```
public struct Group: Sendable, Hashable, Identifiable {
    /// Where the group comes from.
    public enum Kind: Sendable, Hashable {
        /// A group card (vCard 4 `KIND:group` or Apple's `X-ADDRESSBOOKSERVER-KIND:group`); written back.
        case card
        /// A `CATEGORIES` value; derived from the contacts, not written as a card.
        case category
    }

    /// The group card's UID (without `urn:uuid:`), or `category:<name>`.
    public var id: String
    /// `FN` of the card, or the category.
    public var name: String
    /// Ids of the members (`MEMBER` values without `urn:uuid:`), in order.
    public var memberIDs: [String]
    public var kind: Kind
    /// Properties of the group card that the model does not name, verbatim.
    public var unknownProperties: [VCardProperty]

    public init(
        id: String, name: String, memberIDs: [String] = [], kind: Kind = .card,
        unknownProperties: [VCardProperty] = []
    ) {
        self.id = id
        self.name = name
        self.memberIDs = memberIDs
        self.kind = kind
        self.unknownProperties = unknownProperties
    }
}
