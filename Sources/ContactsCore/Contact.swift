import Foundation
import Locales

/// One person (or organization) of an address book, read from a vCard.
///
/// Everything the model does not name is kept in ``unknownProperties`` so that writing the contact back
/// loses nothing.
///
/// ```swift
/// var c = Contact(id: "ada")
/// c.givenName = "Ada"; c.familyName = "Lovelace"
/// c.emails = [LabeledValue(label: .work, value: "ada@example.com")]
/// print(c.displayName)   // "Ada Lovelace"
/// ```
public struct Contact: Sendable, Hashable, Identifiable {
    /// The vCard UID (without a `urn:uuid:` prefix), else a deterministic id derived from the card's bytes.
    public var id: String
    public var namePrefix: String = ""
    public var givenName: String = ""
    public var middleName: String = ""
    public var familyName: String = ""
    public var nameSuffix: String = ""
    /// `FN` ("" when absent).
    public var formattedName: String = ""
    /// `NICKNAME`: the "remark name" that lists prefer when present.
    public var nickname: String = ""
    /// `X-PHONETIC-FIRST-NAME`, else the second `SORT-AS` value of `N` when there are two or more.
    public var phoneticGivenName: String = ""
    /// `X-PHONETIC-LAST-NAME`, else the first `SORT-AS` value of `N`.
    public var phoneticFamilyName: String = ""
    /// The `SORT-AS` values of `N` (vCard 4), in order.
    public var sortAsComponents: [String] = []
    /// First component of `ORG`.
    public var organization: String = ""
    /// The other components of `ORG` (departments), joined with ", ".
    public var department: String = ""
    /// `TITLE`.
    public var jobTitle: String = ""
    /// `TEL`s in preference order (preferred first), each value as written (a `tel:` URI without its scheme).
    public var phones: [LabeledValue] = []
    /// The phones a text message can go to, in preference order: every phone but fax and pager numbers
    /// (``ContactLabel/receivesTextMessages``).
    ///
    /// ```swift
    /// contact.phones.map(\.label)           // [.workFax, .mobile]
    /// contact.textablePhones.map(\.label)   // [.mobile]
    /// ```
    public var textablePhones: [LabeledValue] { phones.filter(\.label.receivesTextMessages) }
    /// `EMAIL`s in preference order.
    public var emails: [LabeledValue] = []
    /// `ADR`s in preference order.
    public var addresses: [LabeledAddress] = []
    /// `URL`s in preference order.
    public var urls: [LabeledValue] = []
    /// `BDAY`.
    public var birthday: ContactDate?
    /// `ANNIVERSARY` and Apple `X-ABDATE`s.
    public var dates: [LabeledDate] = []
    /// `NOTE` ("" when absent).
    public var note: String = ""
    /// `PHOTO`.
    public var photo: ContactPhoto?
    /// `CATEGORIES`, in order, without duplicates.
    public var categories: [String] = []
    /// `LANG` values (BCP 47) in preference order.
    public var languages: [String] = []
    /// Every property the model does not name, verbatim (group, name, parameters, value).
    public var unknownProperties: [VCardProperty] = []

    /// Creates an empty contact with `id`.
    public init(id: String) { self.id = id }

    /// The `SORT-AS` values joined with a space, when present.
    public var sortAs: String? { sortAsComponents.isEmpty ? nil : sortAsComponents.joined(separator: " ") }

    /// True when any name part, `FN`, the nickname or the organization is present.
    public var hasName: Bool {
        !(givenName.isEmpty && familyName.isEmpty && middleName.isEmpty && namePrefix.isEmpty
            && nameSuffix.isEmpty && formattedName.isEmpty && nickname.isEmpty && organization.isEmpty)
    }

    /// The contact's name, the one every surface shows (list, search, `vcard inspect`, templates' `fullName`,
    /// the To: header, draft file names), whoever reads it: the name parts in the name's own order
    /// (`NameOrder.format(_:language:)` with the contact's first `LANG`), else `FN`, the nickname, the
    /// organization, the first email or phone; "" when nothing is there.
    public var displayName: String { displayName(preferringNickname: false) }

    /// ``displayName``, or the nickname when `preferringNickname` and the contact has one (like iOS
    /// "Prefer Nicknames").
    ///
    /// ```swift
    /// var c = Contact(id: "n")
    /// c.givenName = "Noah"; c.familyName = "White"; c.nickname = "Abby"
    /// c.displayName                                // "Noah White"
    /// c.displayName(preferringNickname: true)      // "Abby"
    /// ```
    public func displayName(preferringNickname: Bool) -> String {
        if preferringNickname {
            let nickname = NameOrder.trimmed(nickname)
            if !nickname.isEmpty { return nickname }
        }
        let parts = PersonName(
            prefix: namePrefix, given: givenName, middle: middleName, family: familyName, suffix: nameSuffix)
        if !parts.isEmpty { return NameOrder.format(parts, language: languages.first) }
        for candidate in [formattedName, nickname, organization] {
            let trimmed = NameOrder.trimmed(candidate)
            if !trimmed.isEmpty { return trimmed }
        }
        return emails.first?.value ?? phones.first?.value ?? ""
    }
}
