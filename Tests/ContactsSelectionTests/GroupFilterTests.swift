import ContactsCore
import Foundation
import Testing

@testable import ContactsSelection

/// A group by name (any case) over the three kinds ContactsCore reads: vCard 4 KIND:group with MEMBER,
/// Apple's X-ADDRESSBOOKSERVER-KIND/-MEMBER, and CATEGORIES; an unknown name names the groups there are.
@Suite struct GroupFilterTests {
    static let book = AddressBook(
        data: Data(
            ("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:a1\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:b2\r\nFN:Bo Berg\r\nN:Berg;Bo;;;\r\nCATEGORIES:Chess\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:c3\r\nFN:Cy Dunn\r\nN:Dunn;Cy;;;\r\nCATEGORIES:work\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:urn:uuid:g1\r\nFN:Work\r\nMEMBER:urn:uuid:a1\r\n"
                + "MEMBER:urn:uuid:gone\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nX-ADDRESSBOOKSERVER-KIND:group\r\nUID:g2\r\nFN:Family\r\nN:Family;;;;\r\n"
                + "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:b2\r\nEND:VCARD\r\n").utf8), fileName: "groups.vcf")

    @Test func membersOfEveryKind() throws {
        let work = try GroupFilter(name: "WORK", in: Self.book)
        #expect(work.filter(Self.book.contacts).map(\.id) == ["a1", "c3"])  // the card and the category
        #expect(work.groups.map(\.kind) == [.card, .category])
        #expect(try GroupFilter(name: "family", in: Self.book).filter(Self.book.contacts).map(\.id) == ["b2"])
        #expect(try GroupFilter(name: "Chess", in: Self.book).filter(Self.book.contacts).map(\.id) == ["b2"])
    }

    @Test func unknownGroupsNameTheOnesThereAre() {
        #expect(throws: GroupError.unknownGroup(name: "Golf", known: ["Work", "Family", "Chess"])) {
            try GroupFilter(name: "Golf", in: Self.book)
        }
        #expect(
            GroupError.unknownGroup(name: "Golf", known: []).description
                == "no group 'Golf' (the address book has no groups)")
    }

    @Test func summariesCountTheBooksContacts() {
        let summaries = GroupSummary.summaries(of: Self.book)
        #expect(
            summaries == [
                GroupSummary(name: "Work", kinds: [.card, .category], memberCount: 2),  // "gone" is not counted
                GroupSummary(name: "Family", kinds: [.card], memberCount: 1),
                GroupSummary(name: "Chess", kinds: [.category], memberCount: 1),
            ])
    }
}
