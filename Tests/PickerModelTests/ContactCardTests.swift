import ContactsCore
import ContactsSelection
import ICUKit
import Testing

@testable import PickerModel

/// The contact card (Ctrl-O): every property, labels in the picker's language, scrolling, back to the list.
@Suite struct ContactCardTests {
    static var full: Contact {
        var c = contact("ada", "Ada", "Lovelace", phones: ["+1 415 555 0100"], emails: ["ada@example.org"])
        c.namePrefix = "Countess"
        c.nickname = "Enchantress"
        c.organization = "Analytical Engines"
        c.jobTitle = "Programmer"
        c.addresses = [
            LabeledAddress(
                label: .work,
                value: PostalAddress(street: "12 St James's Square", locality: "London", postalCode: "SW1Y 4JH"))
        ]
        c.urls = [LabeledValue(label: .homePage, value: "https://example.org/ada")]
        c.birthday = ContactDate(year: 1815, month: 12, day: 10)
        c.categories = ["Friends", "Work"]
        c.note = "First\nprogram"
        c.unknownProperties = [VCardProperty(name: "X-TWITTER", value: "@ada")]
        return c
    }

    @Test func everyPropertyHasALine() {
        let card = ContactCard(Self.full, locale: "en")
        let lines = card.lines.map { "\($0.label): \($0.value)" }
        #expect(
            lines == [
                "Name: Countess Ada Lovelace", "Prefix: Countess", "Given name: Ada", "Family name: Lovelace",
                "Nickname: Enchantress", "Organization: Analytical Engines", "Job title: Programmer",
                "Phone (mobile): +1 415 555 0100", "Email (home): ada@example.org",
                "Address (work): 12 St James's Square, London, SW1Y 4JH", "Website (homePage): https://example.org/ada",
                "Birthday: 1815-12-10", "Groups: Friends, Work", "Note: First program", "X-TWITTER: @ada",
            ], "\(lines)")
    }

    @Test(arguments: [
        ("de", "Telefon (Mobil)", "Nachname"), ("ja", "電話", "姓"), ("ar", "الهاتف", "اسم العائلة"),
    ])
    func labelsAreLocalized(locale: String, phone: String, family: String) {
        let labels = ContactCard(Self.full, locale: locale).lines.map(\.label)
        #expect(labels.contains { $0.hasPrefix(phone) }, "\(labels)")
        #expect(labels.contains(family))
        #expect(labels.contains("X-TWITTER"))
    }

    @Test func ctrlOOpensTheCardOfTheRowAndEscGoesBack() throws {
        var contacts = people
        contacts.append(Self.full)
        let picker = try makePicker(contacts, columns: 60, lines: 10, options: { $0.showsHints = true })
        _ = picker.handle(.text("lovelace"))
        let list = picker.screen().text
        _ = picker.handle(.control("o"))
        let text = picker.screen().text
        #expect(text.count == 10)
        for line in text { #expect(DisplayWidth.measure(line) == 60) }
        #expect(text[0].trimmingCharacters(in: .whitespaces) == "Countess Ada Lovelace")
        #expect(text[1].hasPrefix("Name    "))
        #expect(text[1].contains("Countess Ada Lovelace"))
        #expect(text[9].hasPrefix("Esc Back  ↑ ↓ Scroll"))
        // Scrolls to the last property and no further.
        for _ in 0..<40 { _ = picker.handle(.down) }
        #expect(picker.screen().text[8].hasPrefix("X-TWITTER"))
        // Typed letters do not reach the search while the card is open; Esc goes back to the list as it was.
        _ = picker.handle(.text("z"))
        #expect(picker.query == "lovelace")
        #expect(picker.handle(.escape) == nil)
        #expect(picker.card == nil)
        #expect(picker.screen().text == list)
    }

    @Test func theCardIsMirroredInArabicAndFitsEverySize() throws {
        var contacts = people
        contacts.append(Self.full)
        for (columns, lines) in [(30, 6), (80, 24)] {
            let picker = try makePicker(contacts, locale: "ar", columns: columns, lines: lines)
            _ = picker.handle(.text("lovelace"))
            _ = picker.handle(.control("o"))
            let text = picker.screen().text
            #expect(text.count == lines)
            for line in text { #expect(DisplayWidth.measure(line) == columns) }
            #expect(text[1].hasSuffix("الاسم"), "\(text[1])")
        }
    }
}
