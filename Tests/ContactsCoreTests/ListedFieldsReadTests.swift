import Foundation
import TestSupport
import Testing

@testable import ContactsCore

/// A streamed read of only what a list uses (`listedFieldsOnly`) keeps every name, organization,
/// language, email and phone (labels from X-ABLabel too) and the addresses' countries, leaves the other
/// values out, and still gives the ids (a card without UID: the hash of all it says) and the diagnostics
/// (invalid UTF-8 or quoted-printable in a value left out) of a full read.
@Suite struct ListedFieldsReadTests {
    /// What a list uses of a contact, and what it does not.
    struct Kept: Equatable {
        var id, names, organization: String
        var languages, emails, phones, countries: [String]
        var leftOut: Int

        init(_ c: Contact) {
            id = c.id
            names = [
                c.formattedName, c.namePrefix, c.givenName, c.middleName, c.familyName, c.nameSuffix, c.nickname,
                c.phoneticGivenName, c.phoneticFamilyName, c.sortAsComponents.joined(separator: "|"),
            ].joined(separator: "/")
            organization = c.organization
            languages = c.languages
            emails = c.emails.map { "\($0.value) \($0.label.identifier) \($0.preference ?? 0)" }
            phones = c.phones.map { "\($0.value) \($0.label.identifier) \($0.label.receivesTextMessages)" }
            countries = c.addresses.map(\.value.country).filter { !$0.isEmpty }.sorted()
            leftOut =
                c.jobTitle.count + c.note.count + c.urls.count + c.categories.count + c.dates.count
                + (c.birthday == nil ? 0 : 1)
                + c.unknownProperties.filter { $0.name.hasPrefix("X-") && $0.name != "X-ABLABEL" }.count
        }
    }

    func read(_ data: Data, listed: Bool) -> VCardReader.Stream<[Kept]> {
        VCardReader.stream(
            data: data, fileName: "book.vcf", releasingPagesRead: false, listedFieldsOnly: listed,
            makePiece: { [Kept]() }, { kept, contact in kept.append(Kept(contact)) }, maxChunks: 4, threads: 2,
            minChunkSize: 1_024)
    }

    func compare(_ text: String) {
        let data = Data(text.utf8)
        let full = read(data, listed: false)
        let listed = read(data, listed: true)
        let fullKept = full.pieces.flatMap { $0 }
        let listedKept = listed.pieces.flatMap { $0 }
        #expect(fullKept.count == listedKept.count)
        for (a, b) in zip(fullKept, listedKept) {
            var expected = a
            expected.leftOut = 0
            #expect(b == expected)
        }
        #expect(fullKept.contains { $0.leftOut > 0 }, "the book has values a list does not use")
        #expect(listed.renamedIDs == full.renamedIDs)
        #expect(listed.diagnostics == full.diagnostics)
        #expect(listed.cardOffsets == full.cardOffsets)
    }

    @Test func aGeneratedBookKeepsWhatAListUsesWithTheIdsAndDiagnosticsOfAFullRead() {
        compare(VCardBookGenerator.book(cards: 400, seed: 5))
    }

    @Test func valuesLeftOutStillCountForIdsLabelsAndDiagnostics() {
        let text =
            [
                // No UID: the id hashes the title, note, URL and unknown properties too.
                "BEGIN:VCARD", "VERSION:3.0", "FN:Ada Lovelace", "N:Lovelace;Ada;;;", "TITLE:Countess",
                "NOTE:Analyst", "URL:https://example.org/ada", "X-CUSTOM:one", "EMAIL;TYPE=WORK:ada@example.org",
                "ADR;TYPE=HOME:;;1 Main St;London;;N1;United Kingdom", "END:VCARD",
                "BEGIN:VCARD", "VERSION:3.0", "FN:Ada Lovelace", "N:Lovelace;Ada;;;", "TITLE:Analyst",
                "NOTE:Countess", "URL:https://example.org/ada", "X-CUSTOM:one", "EMAIL;TYPE=WORK:ada@example.org",
                "END:VCARD",
                // A label from X-ABLabel (a fax: not textable), an invalid sequence in a note, bad UTF-8 in a title.
                "BEGIN:VCARD", "VERSION:3.0", "UID:b1", "FN:Bruno Finstein", "item1.TEL:+49 30 1234567",
                "item1.X-ABLabel:_$!<HomeFAX>!$_", "TEL;TYPE=CELL:+49 170 1234567", "LANG:de",
                "NOTE;ENCODING=QUOTED-PRINTABLE:broken =ZZ", "TITLE:caf\u{FFFF}", "BDAY:1970-01-01", "CATEGORIES:a,b",
                "ADR:;;;Berlin;;;Germany", "ADR:;;;Paris;;;France", "END:VCARD",
            ].joined(separator: "\r\n") + "\r\n"
        let bad = Data(text.utf8).replacing(Data("\u{FFFF}".utf8), with: Data([0xC3, 0x28]))
        let full = read(bad, listed: false)
        let listed = read(bad, listed: true)
        let fullKept = full.pieces.flatMap { $0 }
        let listedKept = listed.pieces.flatMap { $0 }
        #expect(listedKept.map(\.id) == fullKept.map(\.id))
        #expect(fullKept[0].id != fullKept[1].id, "two cards without UID that differ only in values left out")
        #expect(listedKept[2].phones == fullKept[2].phones)
        #expect(listedKept[2].phones.first?.hasSuffix("false") == true, "the fax label of X-ABLabel is kept")
        #expect(listedKept[2].countries == ["France", "Germany"])
        #expect(listedKept.allSatisfy { $0.leftOut == 0 } && fullKept.allSatisfy { $0.leftOut > 0 })
        #expect(full.diagnostics.count == 2)
        #expect(listed.diagnostics == full.diagnostics)
    }
}
