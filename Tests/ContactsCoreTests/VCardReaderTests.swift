import Foundation
import Testing

@testable import ContactsCore

@Suite struct ExporterStyleTests {
    @Test func android21QuotedPrintableAndBareTypes() throws {
        let b = try book("android-2.1.vcf")
        #expect(b.diagnostics.isEmpty)
        #expect(b.contacts.count == 2)
        let c = b.contacts[0]
        #expect(c.familyName == "Müller")
        #expect(c.givenName == "Jürgen")
        #expect(c.formattedName == "Jürgen Müller")
        #expect(c.phoneticGivenName == "Yurgen")
        #expect(c.phoneticFamilyName == "Myuller")
        #expect(
            c.phones == [
                LabeledValue(label: .mobile, value: "+49 151 5550123", preference: 1),
                LabeledValue(label: .home, value: "030 5550123"),
                LabeledValue(label: .workFax, value: "030 5550199"),
            ])
        #expect(c.emails == [LabeledValue(label: .home, value: "juergen@example.com")])
        // QP: =0D=0A is a line break, a trailing '=' joins the next physical line.
        #expect(c.note == "Erste Zeile\nZweite Zeile mit ä und eine sehr lange Zeile die weich umbrochen wird")
        #expect(c.photo == .embedded(tinyPNG, mediaType: "image/png"))
        #expect(
            c.unknownProperties == [
                VCardProperty(name: "X-ANDROID-CUSTOM", value: "vnd.android.cursor.item/nickname;Jü;1;;;;;;;;;;;;;")
            ])
        let phoneOnly = b.contacts[1]
        #expect(!phoneOnly.hasName)
        #expect(phoneOnly.displayName == "555-0100")
        #expect(phoneOnly.id.hasPrefix("hash-"))
    }

    @Test func iPhone30LabelsDatesPhotoAndGroupCard() throws {
        let b = try book("iphone-3.0.vcf")
        #expect(b.diagnostics.isEmpty)
        #expect(b.contacts.count == 1)
        let c = b.contacts[0]
        #expect(c.id == "4E3B1C2A-0000-4000-8000-000000000001")
        #expect(
            [c.namePrefix, c.givenName, c.middleName, c.familyName, c.nameSuffix] == [
                "Dr.", "Johnny", "Q.", "Appleseed", "Jr.",
            ])
        #expect(c.nickname == "Jay")
        #expect(c.organization == "Example Orchards")
        #expect(c.department == "Research")
        #expect(c.jobTitle == "Grower")
        #expect(
            c.emails == [
                LabeledValue(label: .other, value: "johnny@example.com", preference: 1),
                LabeledValue(label: .custom("Grandma's"), value: "jq@example.org"),
            ])
        #expect(c.phones.map(\.label) == [.mobile, .iPhone, .custom("Boat")])
        #expect(c.phones[0].preference == 1)
        #expect(
            c.addresses == [
                LabeledAddress(
                    label: .home,
                    value: PostalAddress(
                        street: "1 Orchard Way", locality: "Cupertino", region: "CA",
                        postalCode: "95014", country: "United States"),
                    preference: 1)
            ])
        #expect(c.urls == [LabeledValue(label: .homePage, value: "https://example.com/johnny", preference: 1)])
        #expect(c.birthday == ContactDate(year: nil, month: 4, day: 12))
        #expect(c.dates == [LabeledDate(label: .anniversary, value: ContactDate(year: 2010, month: 6, day: 1))])
        #expect(c.photo == .embedded(tinyPNG, mediaType: "image/png"))
        #expect(c.categories == ["Family", "Orchard"])
        // Not modelled, kept verbatim with their groups (the label of a related name stays with it).
        #expect(c.unknownProperties.map(\.name) == ["PRODID", "X-ABADR", "X-ABRELATEDNAMES", "X-ABLABEL"])
        #expect(c.unknownProperties[3] == VCardProperty(group: "item7", name: "X-ABLABEL", value: "_$!<Spouse>!$_"))
        let cards = b.groups.filter { $0.kind == .card }
        #expect(
            cards == [
                Group(
                    id: "4E3B1C2A-0000-4000-8000-0000000000AA", name: "Family", memberIDs: [c.id], kind: .card,
                    unknownProperties: [
                        VCardProperty(name: "PRODID", value: "-//Apple Inc.//iPhone OS 17.0//EN"),
                        VCardProperty(name: "N", value: "Family"),
                    ])
            ])
        #expect(
            b.groups(containing: c.id).map(\.id) == [
                "4E3B1C2A-0000-4000-8000-0000000000AA", "category:Family", "category:Orchard",
            ])
    }

    @Test func outlookWindows1252() throws {
        let b = try book("outlook-2.1.vcf")
        #expect(b.diagnostics.isEmpty)
        let c = try #require(b.contacts.first)
        #expect(c.familyName == "Lefèvre")
        #expect(c.givenName == "Renée")
        #expect(c.formattedName == "Renée Lefèvre")
        #expect(c.organization == "Société Exemple")
        #expect(c.jobTitle == "Directrice générale")
        #expect(c.addresses.first?.value.street == "12 rue de l'Église")
        #expect(c.addresses.first?.preference == 1)
        #expect(c.emails == [LabeledValue(label: .unlabeled, value: "renee@example.org", preference: 1)])
        let label = try #require(c.unknownProperties.first { $0.name == "LABEL" })
        #expect(label.value == "12 rue de l'Église\\nParis 75001\\nFrance")
        #expect(
            label.parameters == [
                VCardParameter(name: "TYPE", values: ["WORK"]), VCardParameter(name: "TYPE", values: ["PREF"]),
            ])
        #expect(
            c.unknownProperties.map(\.name) == ["LABEL", "X-MS-OL-DEFAULT-POSTAL-ADDRESS", "X-MS-OL-DESIGN", "REV"])
    }

    @Test func base64PhotoContinuedWithoutIndentation() throws {
        let b = try book("sony-2.1-base64.vcf")
        #expect(b.diagnostics.isEmpty)
        let c = try #require(b.contacts.first)
        #expect(c.photo == .embedded(tinyPNG, mediaType: "image/png"))
        #expect(c.emails.map(\.value) == ["ake@example.se"])
        #expect(c.phones.map(\.label) == [.mobile])
    }

    @Test func outlookUTF16WithByteOrderMark() throws {
        let b = try book("outlook-utf16.vcf")
        #expect(b.diagnostics.isEmpty)
        #expect(b.contacts.map(\.formattedName) == ["Renée Lefèvre"])
        #expect(b.contacts.first?.phones.first == LabeledValue(label: .work, value: "+33 1 99 00 01 23"))
        var streamed: [String] = []
        let diagnostics = VCardReader.read(data: try fixture("outlook-utf16.vcf"), fileName: "u.vcf") { record, line in
            if case .contact(let c) = record { streamed.append("\(line):\(c.familyName)") }
        }
        #expect(diagnostics.isEmpty)
        #expect(streamed == ["1:Lefèvre"])
    }

    @Test func google30EscapesCategoriesCustomLabels() throws {
        let b = try book("google-3.0.vcf")
        #expect(b.diagnostics.isEmpty)
        let c = try #require(b.contacts.first)
        #expect(c.emails.map(\.label) == [.home, .work, .custom("Conference")])
        #expect(c.phones.map(\.label) == [.mobile, .work, .custom("Studio")])
        #expect(c.addresses.first?.value.street == "42 Lake Road, Flat 3")
        #expect(c.note == "Met at the conference; likes tea.\nSecond line.")
        #expect(c.birthday == ContactDate(year: 1990, month: 2, day: 28))
        #expect(c.urls.first?.value == "https://example.net/priya")
        #expect(b.groups.map(\.id) == ["category:myContacts", "category:Friends"])
        #expect(b.groups.allSatisfy { $0.memberIDs == [c.id] && $0.kind == .category })
    }

    @Test func vCard4SortAsGroupsLanguagesPhotoAndRFC6868() throws {
        let b = try book("vcard-4.0.vcf")
        #expect(b.diagnostics.isEmpty)
        #expect(b.contacts.count == 2)
        let taro = b.contacts[0]
        #expect(taro.id == "11111111-2222-4333-8444-555555555555")
        #expect(taro.sortAsComponents == ["やまだ", "たろう"])
        #expect(taro.sortAs == "やまだ たろう")
        #expect(taro.phoneticFamilyName == "やまだ")
        #expect(taro.phoneticGivenName == "たろう")
        #expect(taro.nickname == "タロー")
        // PREF=1 first; tel: URIs lose their scheme.
        #expect(
            taro.phones == [
                LabeledValue(label: .work, value: "+81-3-5555-0102", preference: 1),
                LabeledValue(label: .mobile, value: "+81-90-5555-0101", preference: 2),
            ])
        #expect(taro.languages == ["ja", "en"])
        #expect(taro.photo == .embedded(tinyPNG, mediaType: "image/png"))
        #expect(taro.birthday == ContactDate(month: 4, day: 12))
        #expect(taro.dates == [LabeledDate(label: .anniversary, value: ContactDate(year: 2015, month: 6, day: 20))])
        let custom = try #require(taro.unknownProperties.first { $0.name == "X-CUSTOM" })
        #expect(custom.parameter("x-note") == ["He said \"hi\"\nthen left"])
        #expect(custom.parameter("X-EMPTY") == [""])
        #expect(custom.value == "value\\, with comma")
        let james = b.contacts[1]
        #expect(james.sortAs == "Mann James")
        #expect(james.unknownProperties == [VCardProperty(name: "KIND", value: "individual")])
        let club = try #require(b.groups.first)
        #expect(club.name == "Book club")
        #expect(club.kind == .card)
        #expect(club.memberIDs == [taro.id, james.id])
        #expect(club.unknownProperties == [VCardProperty(name: "NOTE", value: "Meets on Thursdays")])
        #expect(b.groups(containing: james.id).map(\.name) == ["Book club"])
    }

    @Test func doubledCarriageReturnsLFOnlyAndTabFolding() throws {
        let b = try book("line-endings.vcf")
        #expect(b.diagnostics.isEmpty)
        #expect(b.contacts.map(\.formattedName) == ["Doubled CR", "LF only"])
        #expect(b.contacts[0].note == "folded with a space")
        #expect(b.contacts[0].phones.map(\.value) == ["555-0111"])
        #expect(b.contacts[1].note == "tabfolded")
    }

    @Test func charsetsThroughICU() throws {
        let b = try book("charsets.vcf")
        #expect(b.diagnostics.isEmpty)
        #expect(b.contacts.map(\.formattedName) == ["Zoë Ångström", "山田花子", "张伟", "陳美玲", "Иван Петров", "Ελένη"])
    }
}

@Suite struct MalformedInputTests {
    @Test func exactDiagnosticsAndRecovery() throws {
        let b = try book("malformed.vcf")
        #expect(b.contacts.map(\.formattedName) == ["Good One", "Missing End", "Bad version", "Truncated at EOF"])
        let expected: [String] = [
            "malformed.vcf:1:1: expected BEGIN:VCARD, found 'garbage before any card'",
            "malformed.vcf:6:23: expected ':' before the value of TEL; line skipped",
            "malformed.vcf:7:12: unterminated quoted value of parameter TYPE (expected '\"'); line skipped",
            "malformed.vcf:8:3: unexpected ' ' in property name (expected ':' or ';' after 'NO'); line skipped",
            "malformed.vcf:9:15: invalid UTF-8 in the value of NOTE (value byte 10); replaced with U+FFFD",
            "malformed.vcf:11:1: END:VCARD without a BEGIN:VCARD before it",
            "malformed.vcf:12: card starting at line 12 has no END:VCARD (expected before BEGIN:VCARD at line 15); its properties are kept",
            "malformed.vcf:16:9: unsupported vCard version '5.0' (expected 2.1, 3.0 or 4.0); read as best as possible",
            "malformed.vcf:18:33: invalid quoted-printable sequence (expected '=' and two hex digits); kept as written",
            "malformed.vcf:19:24: unknown charset 'NOPE-123' on X-FOO (expected a name such as UTF-8, ISO-8859-1, Windows-1252, Shift_JIS); value read as UTF-8",
            "malformed.vcf:21: card starting at line 21 has no END:VCARD (expected before the end of the input); its properties are kept",
        ]
        #expect(b.diagnostics.map(\.description) == expected)
        #expect(b.contacts[0].note == "bad utf8 \u{FFFD} here")
        #expect(b.contacts[0].phones.isEmpty && b.contacts[0].emails.isEmpty)
        #expect(b.contacts[2].note == "a=ZZb")
        #expect(b.contacts[2].unknownProperties == [VCardProperty(name: "X-FOO", value: "zz")])
    }

    @Test func valueDiagnostics() {
        var bytes = Array("BEGIN:VCARD\r\nFN:Values\r\nPHOTO;ENCODING=b;TYPE=PNG:abc\r\n".utf8)
        bytes += Array("X-JP;CHARSET=Shift_JIS:".utf8) + [0x82, 0xA0, 0x81, 0x0B] + Array("\r\n".utf8)
        bytes += Array("MEMBER:urn:uuid:x\r\nEND:VCARD\r\n".utf8)
        bytes += Array("BEGIN:VCARD\r\nFN:Uri\r\nPHOTO:data:image/png;base64\r\nEND:VCARD\r\n".utf8)
        let b = AddressBook(data: Data(bytes), fileName: "v.vcf")
        #expect(
            b.diagnostics.map(\.description) == [
                "v.vcf:3:27: PHOTO data is not valid base64; kept as an unknown property",
                "v.vcf:4:24: X-JP value has bytes that are not valid Shift_JIS (at value byte 3); they were replaced with a substitution character",
                "v.vcf:1: MEMBER in a card that is not a group (expected KIND:group); kept as an unknown property",
                "v.vcf:9:7: PHOTO data: URI has no ',' before its data; kept as an unknown property",
            ])
        let values = b.contacts[0]
        #expect(values.photo == nil)
        #expect(values.unknownProperties.map(\.name) == ["PHOTO", "X-JP", "MEMBER"])
        #expect(values.unknownProperties[1].value == "あ\u{1A}\u{0B}")  // ICU's substitute for Shift_JIS is U+001A
        #expect(values.unknownProperties[1].parameters.isEmpty)
        #expect(b.contacts[1].unknownProperties.map(\.value) == ["data:image/png;base64"])
    }

    @Test func emptyAndNonVCardInput() {
        let empty = AddressBook(data: Data(), fileName: "e.vcf")
        #expect(
            empty.diagnostics.map(\.description) == [
                "e.vcf:1: no vCard found: the input is empty (expected BEGIN:VCARD)"
            ])
        let text = AddressBook(data: Data("hello\nworld\n".utf8), fileName: "t.txt")
        #expect(text.contacts.isEmpty)
        #expect(text.diagnostics.map(\.description) == ["t.txt:1:1: expected BEGIN:VCARD, found 'hello'"])
    }

    @Test func duplicateUIDsGetDistinctIDs() {
        let b = book(lines: ["BEGIN:VCARD", "UID:x", "FN:A", "END:VCARD", "BEGIN:VCARD", "UID:x", "FN:B", "END:VCARD"])
        #expect(b.contacts.map(\.id) == ["x", "x-2"])
        #expect(
            b.diagnostics.map(\.description) == [
                "test.vcf:5: duplicate UID 'x' (first used by the card at line 1); this card's id is 'x-2'"
            ])
        #expect(b.contact(id: "x-2")?.formattedName == "B")
    }

    @Test func hashIDsAreDeterministic() {
        let lines = ["BEGIN:VCARD", "VERSION:3.0", "FN:No UID", "TEL:555-0123", "END:VCARD"]
        let a = book(lines: lines)
        let b = book(lines: lines.map { $0 })
        #expect(a.contacts[0].id == b.contacts[0].id)
        #expect(a.contacts[0].id.hasPrefix("hash-"))
        #expect(book(lines: ["BEGIN:VCARD", "FN:Other", "END:VCARD"]).contacts[0].id != a.contacts[0].id)
    }

    /// One card whose BEGIN line is mangled among 100,000: its lines are skipped (two diagnostics), every
    /// other card is read.
    @Test func oneBrokenCardAmongManyLosesOnlyThatCard() {
        var text = ""
        text.reserveCapacity(100_000 * 80)
        for i in 0..<100_000 {
            text += i == 50_000 ? "BEGN:VCARD\r\n" : "BEGIN:VCARD\r\n"
            text += "VERSION:3.0\r\nUID:u\(i)\r\nFN:Person \(i)\r\nTEL:555-01\(i % 100)\r\nEND:VCARD\r\n"
        }
        let b = AddressBook(data: Data(text.utf8), fileName: "big.vcf")
        #expect(b.contacts.count == 99_999)
        #expect(b.contact(id: "u50000") == nil)
        #expect(b.contact(id: "u99999")?.formattedName == "Person 99999")
        #expect(
            b.diagnostics.map(\.description) == [
                "big.vcf:300001:1: expected BEGIN:VCARD, found 'BEGN:VCARD'",
                "big.vcf:300006:1: END:VCARD without a BEGIN:VCARD before it",
            ])
    }

    /// Random damage to real cards never crashes or hangs, and every card with intact BEGIN/END survives.
    @Test func fuzzedInputNeverCrashes() throws {
        var rng = SeededRandom(state: 0x9E37_79B9_7F4A_7C15)
        let names = [
            "android-2.1.vcf", "iphone-3.0.vcf", "outlook-2.1.vcf", "google-3.0.vcf", "vcard-4.0.vcf", "charsets.vcf",
        ]
        let sources = try names.map { Array(try fixture($0)) }
        let specials: [UInt8] = [
            0x3A, 0x3B, 0x3D, 0x22, 0x5C, 0x5E, 0x2C, 0x0D, 0x0A, 0x20, 0x09, 0xFF, 0xC3, 0x00, 0x2E,
        ]
        for round in 0..<400 {
            var bytes = sources[round % sources.count]
            for _ in 0..<(1 + Int(rng.next() % 8)) {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[at] = specials[Int(rng.next() % UInt64(specials.count))]
                case 1: bytes.insert(specials[Int(rng.next() % UInt64(specials.count))], at: at)
                default: bytes.remove(at: at)
                }
            }
            let b = AddressBook(data: Data(bytes), fileName: "fuzz.vcf")
            let written = VCardWriter.data(for: b)
            let again = AddressBook(data: written, fileName: "again.vcf")
            #expect(again.contacts.count == b.contacts.count)
        }
    }
}

@Suite struct ModelTests {
    @Test func contactDateParsing() {
        #expect(ContactDate(parsing: "1985-04-12") == ContactDate(year: 1985, month: 4, day: 12))
        #expect(ContactDate(parsing: "19850412") == ContactDate(year: 1985, month: 4, day: 12))
        #expect(ContactDate(parsing: "--0412") == ContactDate(month: 4, day: 12))
        #expect(ContactDate(parsing: "--04-12") == ContactDate(month: 4, day: 12))
        #expect(ContactDate(parsing: "1985-04-12T10:00:00Z") == ContactDate(year: 1985, month: 4, day: 12))
        #expect(ContactDate(parsing: "2001-13-01") == ContactDate(text: "2001-13-01"))
        #expect(ContactDate(parsing: "circa 1800") == ContactDate(text: "circa 1800"))
        #expect(ContactDate(month: 4, day: 12).isoString == "--04-12")
    }

    @Test func labelsFromAppleText() {
        #expect(ContactLabel(abLabel: "_$!<Mobile>!$_") == .mobile)
        #expect(ContactLabel(abLabel: "_$!<HomeFAX>!$_") == .homeFax)
        #expect(ContactLabel(abLabel: "Grandma") == .custom("Grandma"))
    }

    @Test func hasNameAndDisplayName() {
        var c = Contact(id: "1")
        #expect(!c.hasName)
        #expect(c.displayName == "")
        c.emails = [LabeledValue(value: "a@example.com")]
        #expect(c.displayName == "a@example.com")
        c.organization = "Example Ltd"
        #expect(c.hasName)
        #expect(c.displayName == "Example Ltd")
        c.givenName = "Ada"
        c.familyName = "Lovelace"
        #expect(c.displayName == "Ada Lovelace")
    }
}

@Suite struct ChunkedReadingTests {
    /// Reading in parallel pieces gives the same contacts, lines and diagnostics as one sequential read,
    /// including a card whose END is missing right at a piece boundary.
    @Test func parallelPiecesMatchSequentialRead() throws {
        var text = "junk first\r\n"
        for i in 0..<400 {
            text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\n"
            if i % 7 == 0 { text += "NOTE:folded\r\n  line \(i)\r\n" }
            if i % 50 == 3 { text += "BAD LINE \(i)\r\n" }
            if i % 90 != 5 { text += "END:VCARD\r\n" }
            if i % 10 == 0 { text += "UID:dup\r\n" }  // outside a card: junk
        }
        let data = Data(text.utf8)
        let sequential = VCardReader.readChunked(data: data, fileName: "p.vcf", maxChunks: 1)
        #expect(sequential.count == 1)
        for pieces in [2, 3, 8] {
            let parallel = VCardReader.readChunked(data: data, fileName: "p.vcf", maxChunks: pieces, minChunkSize: 1)
            #expect(parallel.count == pieces)
            #expect(parallel.flatMap(\.contacts) == sequential[0].contacts)
            #expect(parallel.flatMap(\.contactLines) == sequential[0].contactLines)
            #expect(parallel.flatMap(\.diagnostics) == sequential[0].diagnostics)
        }
        #expect(sequential[0].contacts.count == 400)
        let missingEnd = sequential[0].diagnostics.filter { $0.message.contains("has no END:VCARD") }
        #expect(missingEnd.count == 5)
        #expect(missingEnd.allSatisfy { $0.message.contains("(expected before BEGIN:VCARD at line ") })
        let lines = sequential[0].contactLines
        #expect(missingEnd.first?.line == lines[5])
        #expect(
            missingEnd.first?.message
                == "card starting at line \(lines[5]) has no END:VCARD (expected before BEGIN:VCARD at line \(lines[6])); its properties are kept"
        )
    }
}

/// Inputs that would take hours with a quadratic step: each must be read (correctly) in seconds.
@Suite struct PathologicalInputTests {
    func timed(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    @Test func longQuotedPrintableValueWithSoftBreaks() {
        var text = "BEGIN:VCARD\r\nVERSION:2.1\r\nNOTE;ENCODING=QUOTED-PRINTABLE:"
        for _ in 0..<40_000 { text += "abcdefghij=C3=A4=\r\n" }
        text += "end\r\nEND:VCARD\r\n"
        var b: AddressBook?
        let seconds = timed { b = AddressBook(data: Data(text.utf8), fileName: "qp.vcf") }
        #expect(b?.contacts.first?.note == String(repeating: "abcdefghijä", count: 40_000) + "end")
        #expect(seconds < 20)
    }

    @Test func carriageReturnOnlyLineEnds() {
        var text = ""
        for i in 0..<30_000 { text += "BEGIN:VCARD\rVERSION:3.0\rFN:Mac \(i)\rNOTE:old\r  style\rEND:VCARD\r" }
        var b: AddressBook?
        let seconds = timed { b = AddressBook(data: Data(text.utf8), fileName: "mac.vcf") }
        #expect(b?.contacts.count == 30_000)
        #expect(b?.contacts.last?.formattedName == "Mac 29999")
        #expect(b?.contacts.last?.note == "old style")
        #expect(b?.diagnostics.isEmpty == true)
        #expect(seconds < 20)
    }

    @Test func manyDuplicateUIDsCategoriesAndLabels() {
        var text = ""
        for i in 0..<20_000 { text += "BEGIN:VCARD\r\nUID:same\r\nFN:P\(i)\r\nEND:VCARD\r\n" }
        text +=
            "BEGIN:VCARD\r\nFN:Labels\r\nCATEGORIES:" + (0..<50_000).map { "c\($0 % 25_000)" }.joined(separator: ",")
        text += "\r\n"
        for i in 0..<10_000 { text += "item\(i).TEL:555-01\(i % 100)\r\nitem\(i).X-ABLabel:L\(i)\r\n" }
        text += "END:VCARD\r\n"
        var b: AddressBook?
        let seconds = timed { b = AddressBook(data: Data(text.utf8), fileName: "big.vcf") }
        guard let b else { return }
        #expect(b.contacts.count == 20_001)
        #expect(b.contacts[19_999].id == "same-20000")
        #expect(b.diagnostics.count == 19_999)
        let labels = b.contacts[20_000]
        #expect(labels.categories.count == 25_000)
        #expect(labels.phones.count == 10_000)
        #expect(labels.phones[9_999].label == .custom("L9999"))
        #expect(labels.unknownProperties.isEmpty)
        #expect(seconds < 20)
    }
}
