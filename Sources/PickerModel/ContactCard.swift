import ContactsCore

/// A contact's card as the picker shows it: every property of the contact, one labeled line each, the
/// labels in the picker's language (the property's name, and a phone's or email's own label after it).
/// Properties the library does not model (`X-` ones and others) are shown as the card names them.
///
/// ```swift
/// var anna = Contact(id: "anna")
/// anna.givenName = "Anna"
/// anna.phones = [LabeledValue(label: .mobile, value: "+1 415 555 0100")]
/// ContactCard(anna, locale: "de").lines.last   // ("Telefon (Mobil)", "+1 415 555 0100")
/// ```
public struct ContactCard: Sendable {
    /// The contact's id.
    public let id: String
    /// The name the card is titled with.
    public let title: String
    /// Each property: its localized label and its value as text.
    public let lines: [(label: String, value: String)]

    public init(_ contact: Contact, locale: String) {
        id = contact.id
        title = contact.displayName
        var lines: [(String, String)] = []
        func add(_ english: String, _ value: String, _ label: ContactLabel? = nil) {
            guard !value.isEmpty else { return }
            var text = PickerText.string(english, locale: locale)
            if let label {
                let name = ContactPicker.labelText(label, locale: locale)
                if !name.isEmpty { text += " (\(name))" }
            }
            lines.append((text, value))
        }
        let names: [(String, String)] = [
            ("Name", contact.displayName), ("Prefix", contact.namePrefix), ("Given name", contact.givenName),
            ("Middle name", contact.middleName), ("Family name", contact.familyName), ("Suffix", contact.nameSuffix),
            ("Phonetic given name", contact.phoneticGivenName), ("Phonetic family name", contact.phoneticFamilyName),
            ("Nickname", contact.nickname), ("Organization", contact.organization),
            ("Department", contact.department), ("Job title", contact.jobTitle),
        ]
        for (label, value) in names { add(label, value) }
        for phone in contact.phones { add("Phone", phone.value, phone.label) }
        for email in contact.emails { add("Email", email.value, email.label) }
        for address in contact.addresses {
            let a = address.value
            let parts = [a.poBox, a.extended, a.street, a.locality, a.region, a.postalCode, a.country]
            add("Address", parts.filter { !$0.isEmpty }.joined(separator: ", "), address.label)
        }
        for url in contact.urls { add("Website", url.value, url.label) }
        if let birthday = contact.birthday { add("Birthday", birthday.text ?? birthday.isoString) }
        for date in contact.dates { add("Date", date.value.text ?? date.value.isoString, date.label) }
        add("Groups", contact.categories.joined(separator: ", "))
        add("Languages", contact.languages.joined(separator: ", "))
        add("Note", contact.note.replacingOccurrences(of: "\n", with: " "))
        if contact.photo != nil { add("Photo", "✓") }
        for property in contact.unknownProperties {
            let label = property.group.map { "\($0).\(property.name)" } ?? property.name
            lines.append((label, property.value))
        }
        self.lines = lines
    }
}
