import Foundation
import Testing

@testable import ContactsCore

@Suite struct VCardWriterTests {
    static let fixtures = [
        "android-2.1.vcf", "iphone-3.0.vcf", "outlook-2.1.vcf", "google-3.0.vcf", "vcard-4.0.vcf",
        "line-endings.vcf", "charsets.vcf", "malformed.vcf", "outlook-utf16.vcf", "sony-2.1-base64.vcf",
    ]

    @Test(arguments: fixtures) func roundTrip40(_ name: String) throws {
        let original = try book(name)
        let written = VCardWriter.data(for: original, version: .v4)
        let again = AddressBook(data: written, fileName: "out.vcf")
        #expect(again.diagnostics.isEmpty)
        #expect(again.contacts == original.contacts)
        #expect(again.groups == original.groups)
        #expect(again == original)
    }

    /// 3.0 has no PREF ranks (only TYPE=pref) and no ANNIVERSARY: a second pass is stable and keeps everything else.
    @Test(arguments: fixtures) func roundTrip30(_ name: String) throws {
        let original = try book(name)
        let first = AddressBook(data: VCardWriter.data(for: original, version: .v3), fileName: "a.vcf")
        #expect(first.diagnostics.isEmpty)
        #expect(first.contacts.map(\.id) == original.contacts.map(\.id))
        #expect(first.contacts.map(\.displayName) == original.contacts.map(\.displayName))
        #expect(first.contacts.map { $0.phones.map(\.value) } == original.contacts.map { $0.phones.map(\.value) })
        #expect(first.contacts.map { $0.phones.map(\.label) } == original.contacts.map { $0.phones.map(\.label) })
        #expect(first.contacts.map(\.unknownProperties) == original.contacts.map(\.unknownProperties))
        #expect(first.contacts.map(\.dates) == original.contacts.map(\.dates))
        #expect(first.groups == original.groups)
        let second = AddressBook(data: VCardWriter.data(for: first, version: .v3), fileName: "b.vcf")
        #expect(second == first)
    }

    /// Issue 18 item 6: a reading is written as X-PHONETIC-* also when N's SORT-AS says the same (it was left
    /// out then, so a 3.0 file — which has no SORT-AS — lost it), and reads back the same in both versions.
    @Test(arguments: VCardWriter.Version.allCases) func phoneticNamesAreKeptBesideSortAs(
        _ version: VCardWriter.Version
    ) {
        var c = Contact(id: "watanabe")
        c.familyName = "渡辺"
        c.givenName = "大輔"
        c.sortAsComponents = ["わたなべ", "だいすけ"]
        c.phoneticFamilyName = "わたなべ"
        c.phoneticGivenName = "だいすけ"
        c.languages = ["ja"]
        let text = VCardWriter.string(for: c, version: version)
        #expect(text.contains("\r\nX-PHONETIC-FIRST-NAME:だいすけ\r\n"), "\(text)")
        #expect(text.contains("\r\nX-PHONETIC-LAST-NAME:わたなべ\r\n"), "\(text)")
        let again = AddressBook(data: Data(text.utf8), fileName: "out.vcf")
        #expect(again.contacts.first?.phoneticGivenName == "だいすけ")
        #expect(again.contacts.first?.phoneticFamilyName == "わたなべ")
        #expect(again.contacts.first?.sortAsComponents == c.sortAsComponents)
    }

    @Test func foldsAt75OctetsWithoutSplittingUTF8() {
        var c = Contact(id: "fold")
        c.note = String(repeating: "ünïcødé ✓ 漢字 ", count: 20)
        let text = VCardWriter.string(for: c)
        let bytes = Array(text.utf8)
        var lines: [[UInt8]] = [[]]
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0D {
                #expect(i + 1 < bytes.count && bytes[i + 1] == 0x0A, "every line ends with CRLF")
                lines.append([])
                i += 2
                continue
            }
            #expect(bytes[i] != 0x0A, "no bare LF")
            lines[lines.count - 1].append(bytes[i])
            i += 1
        }
        #expect(lines.count > 5)
        for line in lines {
            #expect(line.count <= 75)
            #expect(String(validating: line, as: UTF8.self) != nil, "a line splits a UTF-8 sequence")
        }
        let again = AddressBook(data: Data(text.utf8), fileName: "f.vcf")
        #expect(again.contacts.first?.note == c.note)
    }

    @Test func escapesTextAndParameters() {
        var c = Contact(id: "esc")
        c.formattedName = "A, B; C\\D"
        c.note = "line 1\nline 2"
        c.familyName = "Semi;colon"
        c.phones = [LabeledValue(label: .custom("Car: \"fast\""), value: "555-0199")]
        c.unknownProperties = [
            VCardProperty(
                name: "X-THING", parameters: [VCardParameter(name: "X-P", values: ["a:b", "c^d"])], value: "raw\\,kept")
        ]
        let text = VCardWriter.string(for: c)
        #expect(text.contains("FN:A\\, B\\; C\\\\D\r\n"))
        #expect(text.contains("NOTE:line 1\\nline 2\r\n"))
        #expect(text.contains("N:Semi\\;colon;;;;"))
        #expect(text.contains("X-THING;X-P=\"a:b\",c^^d:raw\\,kept\r\n"))
        let again = AddressBook(data: Data(text.utf8), fileName: "e.vcf").contacts[0]
        #expect(again == c)
    }

    @Test func writes30Specifics() {
        var c = Contact(id: "v3")
        c.phones = [LabeledValue(label: .homeFax, value: "555-0142", preference: 1)]
        c.photo = .embedded(tinyPNG, mediaType: "image/png")
        c.birthday = ContactDate(month: 12, day: 24)
        c.dates = [LabeledDate(label: .anniversary, value: ContactDate(year: 2001, month: 1, day: 2))]
        let text = VCardWriter.string(for: c, version: .v3)
        #expect(text.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:v3\r\nFN:\r\nN:;;;;\r\n"))
        #expect(text.contains("TEL;TYPE=home,fax,pref:555-0142\r\n"))
        #expect(text.contains("PHOTO;ENCODING=b;TYPE=PNG:"))
        #expect(text.contains("BDAY:--12-24\r\n"))
        #expect(text.contains("item1.X-ABDATE:2001-01-02\r\nitem1.X-ABLabel:_$!<Anniversary>!$_\r\n"))
        #expect(AddressBook(data: Data(text.utf8), fileName: "v3.vcf").contacts[0] == c)
    }

    @Test func streamedOutputEqualsWholeOutput() throws {
        let sample = try AddressBook.sample()
        var pieces: [Data] = []
        VCardWriter.write(sample, version: .v3) { pieces.append($0) }
        #expect(pieces.count > 1)
        #expect(pieces.reduce(Data(), +) == VCardWriter.data(for: sample, version: .v3))
    }

    @Test func versionParsing() throws {
        #expect(try VCardWriter.Version(parsing: "3.0") == .v3)
        #expect(throws: ContactsCoreError.unsupportedVersion("2.1")) { try VCardWriter.Version(parsing: "2.1") }
    }
}

/// Random contacts full of characters that need escaping survive write → read, in 4.0.
@Suite struct RandomRoundTripTests {
    static let alphabet: [String] = [
        "a", "Z", "é", "ß", "Ж", "λ", "ع", "ש", "漢", "か", "한", "ก", "ह", "😀", " ", ",", ";", ":", "\\", "\"", "^",
        "=", "\n", "'", "n", "N", "\t",
    ]

    func text(_ rng: inout SeededRandom, max: Int = 12) -> String {
        let n = Int(rng.next() % UInt64(max + 1))
        return (0..<n).map { _ in Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))] }.joined()
    }

    func label(_ rng: inout SeededRandom) -> ContactLabel {
        let labels: [ContactLabel] = [
            .unlabeled, .home, .work, .other, .mobile, .iPhone, .main, .homeFax, .workFax,
            .otherFax, .pager, .homePage, .school, .custom("Boat"), .custom("Ä, b; c"),
        ]
        return labels[Int(rng.next() % UInt64(labels.count))]
    }

    @Test func randomContactsRoundTrip() {
        var rng = SeededRandom(state: 0xDEAD_BEEF_1234_5678)
        var contacts: [Contact] = []
        for i in 0..<300 {
            var c = Contact(id: "id-\(i)")
            c.givenName = text(&rng)
            c.familyName = text(&rng)
            c.middleName = text(&rng, max: 3)
            c.formattedName = text(&rng)
            c.nickname = text(&rng, max: 5)
            c.organization = text(&rng, max: 6)
            c.jobTitle = text(&rng, max: 6)
            c.note = text(&rng, max: 40)
            c.phones = (0..<Int(rng.next() % 3)).map { k in
                LabeledValue(label: label(&rng), value: "+1 415 555 01\(k)\(i % 10)", preference: k == 0 ? 1 : nil)
            }
            c.emails = (0..<Int(rng.next() % 3)).map { k in
                LabeledValue(label: label(&rng), value: "u\(i).\(k)@example.com")
            }
            c.addresses = [
                LabeledAddress(label: .home, value: PostalAddress(street: text(&rng), locality: text(&rng, max: 4)))
            ]
            c.categories = Array(Set((0..<Int(rng.next() % 3)).map { _ in "cat" + text(&rng, max: 3) }))
                .filter {
                    !$0.trimmingCharacters(in: .whitespaces).isEmpty && $0 == $0.trimmingCharacters(in: .whitespaces)
                }
                .sorted()
            c.unknownProperties = [
                VCardProperty(
                    group: nil, name: "X-RANDOM",
                    parameters: [VCardParameter(name: "X-P", values: [text(&rng, max: 6)])],
                    value: "v\(i)")
            ]
            contacts.append(c)
        }
        let book = AddressBook(contacts: contacts)
        let again = AddressBook(data: VCardWriter.data(for: book), fileName: "r.vcf")
        #expect(again.diagnostics.isEmpty)
        for (a, b) in zip(book.contacts, again.contacts) where a != b {
            Issue.record("round trip changed \(a.id): \(a) → \(b)")
        }
        #expect(again.contacts.count == book.contacts.count)
    }
}
