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
    /// one match per address: contacts in list order, each contact's addresses in `pref` order (unranked ones
    /// last, as written). Contacts without an email address are not matched.
    ///
    /// ```swift
    /// let source = try ContactsDataSource(contacts: book.contacts, configuration: Configuration())
    /// for match in source.addressMatches("anna") { print("\(match.email)\t\(match.name)") }
    /// ```
    public func addressMatches(_ query: String, keywords: Bool? = nil) -> [AddressMatch] {
        var matches: [AddressMatch] = []
        for number in search(query, keywords: keywords).rowNumbers {
            let row = rows[Int(number)]
            let contact = row.contact
            // `pref` order (1 first; unranked last), otherwise as written.
            let emails = contact.emails.enumerated().sorted { a, b in
                (a.element.preference ?? Int.max, a.offset) < (b.element.preference ?? Int.max, b.offset)
            }.map(\.element)
            for email in emails {
                matches.append(
                    AddressMatch(
                        id: row.id, name: contact.hasName ? row.displayName : "", email: email.value,
                        label: email.label.identifier,
                        organization: contact.organization))
            }
        }
        return matches
    }
}
