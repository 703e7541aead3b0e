import Foundation
import Testing

@testable import ContactsCore

/// RFC 2426 §4 allows a group on every content line of a 3.0 card, BEGIN and END included.
@Suite("Grouped BEGIN and END")
struct GroupedBoundaryTests {
    @Test func groupedBeginAndEndAreCardBoundaries() {
        let text =
            "home.begin:vcard\r\nVERSION:3.0\r\nFN:Ada Lovelace\r\nhome.EMAIL:ada@example.com\r\nhome.end:vcard\r\n"
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Grace Hopper\r\nwork-2.END:VCARD\r\n"
            + "item1.BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Alan Turing\r\nEND:VCARD\r\n"
        let book = AddressBook(data: Data(text.utf8), fileName: "g.vcf", maxChunks: 1)
        #expect(book.diagnostics.isEmpty, "\(book.diagnostics)")
        #expect(book.contacts.map(\.formattedName) == ["Ada Lovelace", "Grace Hopper", "Alan Turing"])
        #expect(book.contacts.first?.emails.map(\.value) == ["ada@example.com"])
    }

    @Test func linesThatOnlyLookGroupedStayProperties() {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada\r\nNOTE:x.end\r\nX-A.B:begin:vcard\r\nEND:VCARD\r\n"
        let book = AddressBook(data: Data(text.utf8), fileName: "g.vcf", maxChunks: 1)
        #expect(book.diagnostics.isEmpty, "\(book.diagnostics)")
        #expect(book.contacts.count == 1 && book.contacts[0].note == "x.end")
    }
}
