import ContactsCore
import ContactsSelection
import ICUKit
import Testing

@testable import PickerModel

/// The duplicates view (Ctrl-T): groups of likely duplicates from the library's finder, one section each.
@Suite struct PickerDuplicatesTests {
    static var planted: [Contact] {
        var contacts = people
        // Anna Adams again, under another id, with her email: the same person.
        contacts.append(
            contact("adams-anna-2", "Anna", "Adams", phones: ["+1 415 555 0700"], emails: ["anna@adams.example"]))
        // Ben Berg's second number on a card of its own, named alike.
        contacts.append(contact("berg-ben-2", "Benjamin", "Berg", phones: ["+1 415 555 0999"]))
        return contacts
    }

    @Test func ctrlTShowsTheGroupsAndEscGoesBack() throws {
        let picker = try makePicker(Self.planted, options: { $0.showsHints = true })
        _ = picker.handle(.control("t"))
        #expect(picker.duplicates)
        let text = picker.screen().text
        #expect(text[1].hasPrefix("> Duplicates"))
        #expect(text[1].hasSuffix("4/32"))
        #expect(text[2].hasPrefix("Same email anna@adams.example · 99%"), "\(text)")
        #expect(text[3].hasPrefix("[ ] Anna Adams") && text[4].hasPrefix("[ ] Anna Adams"))
        #expect(text[5].hasPrefix("Same phone +14155550999 · 90%"), "\(text)")
        #expect(text[6].hasPrefix("[ ] Ben Berg") && text[7].hasPrefix("[ ] Benjamin Berg"))
        #expect(text[15].hasPrefix("Esc Back  ? Help  Tab Mark  Enter Select"))
        // Marks and Enter work as in the list.
        _ = picker.handle(.tab)
        _ = picker.handle(.tab)
        #expect(
            picker.handle(.enter)
                == .selected(picker.selection.selectedRowNumbersInSelectionOrder.map { picker.picked($0) }))
        #expect(picker.selection.selectedRows.map(\.id).sorted() == ["adams-anna", "adams-anna-2"])
        // Esc goes back to the list, not out of the picker.
        #expect(picker.handle(.escape) == nil)
        #expect(!picker.duplicates)
        #expect(picker.result.count == 32)
        // Typing leaves the view too.
        _ = picker.handle(.control("t"))
        _ = picker.handle(.text("ben"))
        #expect(!picker.duplicates && picker.query == "ben")
    }

    @Test(arguments: [("de", "Gleiche E-Mail", "99 %"), ("ja", "同じメール", "99%"), ("ar", "نفس البريد الإلكتروني", "99٪")])
    func groupTitlesAreLocalized(locale: String, reason: String, percent: String) throws {
        let picker = try makePicker(Self.planted, locale: locale, columns: 80, lines: 12)
        _ = picker.handle(.control("t"))
        let text = picker.screen().text
        for line in text { #expect(DisplayWidth.measure(line) == 80) }
        #expect(text.contains { $0.contains("\(reason) anna@adams.example · \(percent)") }, "\(text)")
    }

    @Test func aBookWithoutDuplicatesShowsNoContacts() throws {
        let picker = try makePicker()
        _ = picker.handle(.control("t"))
        #expect(picker.result.count == 0)
        #expect(picker.screen().text[2].hasPrefix("No contacts"))
    }
}
