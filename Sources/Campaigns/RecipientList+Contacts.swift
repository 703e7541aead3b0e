import ContactsCore

extension RecipientList {
    /// The rows as contacts (for `contacts vcard import`): name, given and family name, every e-mail
    /// address, phones, organization, note, groups as categories and the row's language. The ids are
    /// empty: the writer gives each a new UID (`ContactEditor.add(contacts:)`).
    ///
    /// ```swift
    /// let list = try RecipientList(data: Data("First Name,Last Name,E-mail Address\nAda,Lovelace,ada@example.org\n".utf8), fileName: "outlook.csv")
    /// list.contacts()[0].familyName   // "Lovelace"
    /// ```
    public func contacts() -> [Contact] {
        rows.map { row in
            var contact = Contact(id: "")
            contact.givenName = row.givenName
            contact.familyName = row.familyName
            contact.formattedName = row.to.name ?? ""
            contact.emails = ([row.to.address] + row.otherEmails).map { LabeledValue(label: .unlabeled, value: $0) }
            contact.phones = row.phones.map { LabeledValue(label: .unlabeled, value: $0) }
            contact.organization = row.organization
            contact.note = row.note
            contact.categories = row.groups
            contact.languages = row.language.map { [$0] } ?? []
            return contact
        }
    }
}
