import ContactsCore

/// One email address of a contact a search found — what a mail client completes a recipient from
/// (mutt's `query_command`, aerc's `address-book-cmd`).
public struct AddressMatch: Sendable, Hashable, Codable {
    /// The contact's id.
    public var id: String
    /// The contact's name as the list shows it; empty for a contact without a name (a mail client then
    /// shows the address alone).
    public var name: String
    public var email: String
    /// The address's label ("home", "work", a custom label; "" when it has none).
    public var label: String
    public var organization: String

    public init(id: String, name: String, email: String, label: String, organization: String) {
        self.id = id
        self.name = name
        self.email = email
        self.label = label
        self.organization = organization
    }
}

extension ContactsDataSource {
    /// Every email address of every contact `query` finds (the list's search: folded, plain or by keywords),
    /// one match per address, best first (``AddressMatch/matches(_:in:contacts:keywords:)``: ranked, then in
    /// list order), each contact's addresses in `pref` order (unranked ones last, as written). Contacts without an email address are not matched.
    ///
    /// ```swift
    /// let source = try ContactsDataSource(contacts: book.contacts, configuration: Configuration())
    /// for match in source.addressMatches("anna") { print("\(match.email)\t\(match.name)") }
    /// ```
    public func addressMatches(_ query: String, keywords: Bool? = nil) -> [AddressMatch] {
        // The contacts are in memory: the lookup cannot fail.
        (try? AddressMatch.matches(query, in: self, contacts: .dataSource(self), keywords: keywords)) ?? []
    }
}
