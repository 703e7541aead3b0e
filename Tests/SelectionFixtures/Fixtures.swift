import ContactsCore

/// Builds a contact for tests.
public func person(
    _ id: String, given: String = "", family: String = "", nickname: String = "", org: String = "",
    phones: [String] = [], emails: [String] = [], phoneticGiven: String = "", phoneticFamily: String = "",
    formatted: String = ""
) -> Contact {
    var c = Contact(id: id)
    c.givenName = given
    c.familyName = family
    c.nickname = nickname
    c.organization = org
    c.formattedName = formatted
    c.phoneticGivenName = phoneticGiven
    c.phoneticFamilyName = phoneticFamily
    c.phones = phones.map { LabeledValue(label: .mobile, value: $0) }
    c.emails = emails.map { LabeledValue(label: .home, value: $0) }
    return c
}

/// The address book of KBContactsSelection's own examples, plus a few scripts.
public let book: [Contact] = [
    person(
        "felipe", given: "Felipe", family: "Baytelman", phones: ["+1 (415) 555-0100"], emails: ["felipe@example.com"]),
    person("bruno", given: "Bruno", family: "Finstein", phones: ["+1 415 555 0101"], emails: ["bruno@example.org"]),
    person("helene", given: "Hélène", family: "Dupont", phones: ["+33 1 99 00 01 02"], emails: ["helene@example.org"]),
    person("zhang", given: "伟", family: "张", phones: ["+86 10 5555 0100"]),
    person("lee", given: "상일", family: "이", phones: ["+82 2 555 0100"]),
    person("boris", given: "Борис", family: "Иванов", phones: ["+7 495 555-01-00"]),
    person("emailonly", given: "Erin", family: "Mail", emails: ["erin@example.net"]),
    person(
        "nick", given: "Robert", family: "Tables", nickname: "Bobby", org: "Acme Widgets", phones: ["+1 415 555 0102"]),
    person("unnamed", phones: ["+1 415 555 0199"]),
    person(
        "yamada", given: "太郎", family: "山田", phones: ["+81 3 5555 0100"], phoneticGiven: "たろう", phoneticFamily: "やまだ"),
    person("dup1", given: "Anna", family: "Berg", phones: ["+46 8 555 010 00"]),
    person("dup2", given: "Anna", family: "Berg", phones: ["+46 8 555 010 00"]),
    person("nothing", given: "No", family: "Channel"),
]

/// Noah (no address, a US number written without its country code), Hans (an address in Germany, a Berlin
/// number), Ærin and Anaïs (international numbers).
public var phoneRegionBook: [Contact] {
    var hans = person("hans", given: "Hans", family: "Berg", phones: ["030 1234567"])
    hans.addresses = [LabeledAddress(value: PostalAddress(locality: "Berlin", country: "Deutschland"))]
    return [
        person("noah", given: "Noah", family: "White", phones: ["(206) 555-0101"]), hans,
        person("aerin", given: "Ærin", family: "Nyström", phones: ["+44 20 7946 0140"]),
        person("anais", given: "Anaïs", family: "Fournier", phones: ["+33 1 99 00 03 88"]),
    ]
}
