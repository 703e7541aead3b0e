import Foundation
import Testing

@testable import ContactsCore

/// The byte-level fast paths of the reader and the address book index give what the String-level code gives.
@Suite struct ReaderFastPathTests {
    private func read(_ text: String) -> AddressBook {
        AddressBook(data: Data(text.utf8), fileName: "t.vcf")
    }

    @Test func asciiLabelsMatchTheStringPath() {
        let samples = [
            "_$!<Mobile>!$_", "_$!<HomeFAX>!$_", "_$!<Other>!$_", "CELL", "iPhone", "_$!<>!$_", "Grandma",
            "_$!<Custom label>!$_", "", "_$!<Home", "anniversary", "x\r\ny",
        ]
        // Every built-in name in many casings, with and without the markers, and near misses.
        let names = [
            "home", "work", "other", "mobile", "cell", "iphone", "main", "homefax", "workfax", "otherfax", "pager",
            "homepage", "school", "anniversary", "homes", "wor", "mobil", "xhome", "anniversarY ",
        ]
        var generator = SystemRandomNumberGenerator()
        var all = samples
        for name in names {
            for _ in 0..<8 {
                let cased = String(name.map { Bool.random(using: &generator) ? Character($0.uppercased()) : $0 })
                all += [cased, "_$!<" + cased + ">!$_", "_$!<" + cased, cased + ">!$_"]
            }
        }
        for s in all {
            let ascii = ContactLabel(asciiABLabel: s)
            #expect(ascii != nil, "\(s.debugDescription)")
            #expect(ascii == ContactLabel(unicodeABLabel: s), "\(s.debugDescription)")
        }
        #expect(ContactLabel(abLabel: "_$!<Mobile>!$_") == .mobile)
        #expect(ContactLabel(abLabel: "_$!<HomeFAX>!$_") == .homeFax)
        #expect(ContactLabel(abLabel: "_$!<>!$_") == .unlabeled)
        #expect(ContactLabel(abLabel: "_$!<Custom label>!$_") == .custom("Custom label"))
        #expect(ContactLabel(abLabel: "_$!<Home") == .custom("_$!<Home"))
        #expect(ContactLabel(abLabel: "") == .unlabeled)
        // Non-ASCII labels take the String path (Unicode lower-casing).
        #expect(ContactLabel(asciiABLabel: "Grand-mère") == nil)
        #expect(ContactLabel(abLabel: "_$!<Grand-mère>!$_") == .custom("Grand-mère"))
        #expect(ContactLabel(abLabel: "_$!<MOBİLE>!$_") == .custom("MOBİLE"))
    }

    @Test func telSchemeIsStrippedOnBytesAndAfterUnescaping() {
        let b = read(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nTEL;VALUE=uri:tel:+1-555-0100\r\nTEL:tel\\:+1-555-0101\r\n"
                + "TEL:tel:\r\nTEL:Tel:+1-555-0102\r\nEND:VCARD\r\n")
        #expect(b.contacts[0].phones.map(\.value) == ["+1-555-0100", "+1-555-0101", "", "Tel:+1-555-0102"])
    }

    @Test func sortAsValuesSplitLikeStrings() {
        let b = read(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nN;SORT-AS=\"Петров,Иван\":Петров;Иван;;;\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:B\r\nN;SORT-AS=\"a^'b,c\",d:B;;;;\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:C\r\nN;SORT-AS=\"x,\u{301}y\":C;;;;\r\nEND:VCARD\r\n")
        #expect(b.contacts[0].sortAsComponents == ["Петров", "Иван"])
        #expect(b.contacts[0].phoneticFamilyName == "Петров")
        #expect(b.contacts[1].sortAsComponents == ["a\"b", "c", "d"])
        // A combining mark after the comma joins it into one Character: no split there (as String.split does).
        #expect(b.contacts[2].sortAsComponents == ["x,\u{301}y"])
    }

    @Test func preferenceOrderIsStable() {
        let b = read(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nEMAIL:a@example.com\r\nEMAIL;PREF=2:b@example.com\r\n"
                + "EMAIL:c@example.com\r\nEMAIL;PREF=1:d@example.com\r\nEMAIL;PREF=2:e@example.com\r\nEND:VCARD\r\n")
        #expect(
            b.contacts[0].emails.map(\.value) == [
                "d@example.com", "b@example.com", "e@example.com", "a@example.com", "c@example.com",
            ])
    }

    @Test func customTypeAndCharsetAfterRefactor() {
        let b = read(
            "BEGIN:VCARD\r\nVERSION:2.1\r\nitem1.TEL;X-SATELLITE:+1 555 0100\r\nitem1.X-ABLabel:_$!<Main>!$_\r\n"
                + "NOTE;CHARSET=utf-8:caf\u{e9}\r\nX-THING;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:a=0D=0Ab\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nTEL;TYPE=x-car^'s:+1 555 0101\r\nEND:VCARD\r\n")
        #expect(b.contacts[0].phones == [LabeledValue(label: .main, value: "+1 555 0100")])
        #expect(b.contacts[0].note == "café")
        #expect(b.contacts[0].unknownProperties == [VCardProperty(name: "X-THING", value: "a\\nb")])
        #expect(b.contacts[1].phones == [LabeledValue(label: .custom("x-car\"s"), value: "+1 555 0101")])
    }

    @Test func asciiIDsAreIndexedAndDuplicatesRenamed() {
        var text = ""
        for i in 0..<40 { text += "BEGIN:VCARD\r\nUID:u\(i % 30)\r\nFN:P\(i)\r\nEND:VCARD\r\n" }
        text += "BEGIN:VCARD\r\nUID:u1-2\r\nFN:Q\r\nEND:VCARD\r\n"
        let b = read(text)
        #expect(Set(b.contacts.map(\.id)).count == b.contacts.count)
        #expect(b.contact(id: "u1")?.formattedName == "P1")
        #expect(b.contact(id: "u1-2")?.formattedName == "P31")
        #expect(b.contact(id: "u1-2-2")?.formattedName == "Q")
        #expect(b.contact(id: "nope") == nil)
        for c in b.contacts { #expect(b.contact(id: c.id) == c) }
        #expect(b.diagnostics.count == 11)
        // A query that is canonically equal to an ASCII id finds it.
        let k = read("BEGIN:VCARD\r\nUID:K1\r\nFN:Kelvin\r\nEND:VCARD\r\n")
        #expect(k.contact(id: "\u{212A}1")?.formattedName == "Kelvin")
    }

    @Test func nonASCIIIDsUseStringEquality() {
        let b = read(
            "BEGIN:VCARD\r\nUID:caf\u{e9}\r\nFN:A\r\nCATEGORIES:x\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nUID:cafe\u{301}\r\nFN:B\r\nCATEGORIES:x\r\nEND:VCARD\r\n")
        #expect(b.contacts.map(\.id) == ["caf\u{e9}", "caf\u{e9}-2"])
        #expect(b.contact(id: "cafe\u{301}")?.formattedName == "A")
        #expect(b.groups(containing: "caf\u{e9}-2").map(\.id) == ["category:x"])
        let direct = AddressBook(contacts: [Contact(id: "\u{212A}"), Contact(id: "K")])
        #expect(direct.contact(id: "K") == Contact(id: "\u{212A}"))
    }

    @Test func manyCategoriesKeepFirstAppearanceOrder() {
        var text = ""
        for i in 0..<30 { text += "BEGIN:VCARD\r\nFN:P\(i)\r\nCATEGORIES:c\(i % 12),all\r\nEND:VCARD\r\n" }
        let b = read(text)
        let cats = b.groups.filter { $0.kind == .category }
        #expect(cats.map(\.name) == ["c0", "all"] + (1..<12).map { "c\($0)" })
        #expect(cats[1].memberIDs.count == 30)
        #expect(cats[0].memberIDs == [b.contacts[0].id, b.contacts[12].id, b.contacts[24].id])
    }
}

@Suite struct ParallelAddressBookTests {
    /// Cards with repeated UIDs and identical cards across pieces, categories, a group card, non-ASCII ids.
    private func corpus(nonASCII: Bool) -> Data {
        var text = ""
        for i in 0..<300 {
            if i == 150 {
                text += "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nFN:Club\r\nUID:club\r\n"
                text += "MEMBER:urn:uuid:u7\r\nMEMBER:urn:uuid:u250\r\nX-NOTE:kept\r\nEND:VCARD\r\n"
            }
            text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i % 40)\r\n"
            if i % 3 != 0 { text += "UID:u\(i % 120)\r\n" }
            if nonASCII && i == 200 { text += "UID:é\(i)\r\n" }
            if i % 4 == 0 { text += "CATEGORIES:c\(i % 11),All\r\n" }
            text += "END:VCARD\r\n"
        }
        return Data(text.utf8)
    }

    @Test(arguments: [false, true]) func piecesGiveTheSameBook(nonASCII: Bool) {
        let data = corpus(nonASCII: nonASCII)
        let one = AddressBook(data: data, fileName: "p.vcf", maxChunks: 1)
        #expect(one.contacts.count == 300)
        #expect(Set(one.contacts.map(\.id)).count == 300)
        for pieces in [2, 3, 5] {
            let book = AddressBook(data: data, fileName: "p.vcf", maxChunks: pieces, minChunkSize: 1)
            #expect(book == one)
            #expect(book.contacts.map(\.id) == one.contacts.map(\.id))
            #expect(book.diagnostics == one.diagnostics)
            for c in one.contacts {
                #expect(book.contact(id: c.id) == c)
                #expect(book.groups(containing: c.id) == one.groups(containing: c.id))
            }
        }
        // More pieces than threads: each thread takes the next piece; the pieces stay in file order.
        let sequential = VCardReader.readChunked(data: data, fileName: "p.vcf", maxChunks: 1)
        for threads in [1, 2, 3] {
            let chunks = VCardReader.readChunked(
                data: data, fileName: "p.vcf", maxChunks: 6, threads: threads, minChunkSize: 1)
            #expect(chunks.count == 6)
            #expect(chunks.flatMap(\.contacts) == sequential[0].contacts)
            #expect(chunks.flatMap(\.contactLines) == sequential[0].contactLines)
            #expect(chunks.flatMap(\.idHashes) == sequential[0].idHashes)
        }
        #expect(one.groups(containing: "u7").map(\.id) == ["club"])
        let all = one.groups.first { $0.id == "category:All" }
        #expect(all?.memberIDs.count == 75)
        #expect(one.groups(containing: one.contacts[0].id).map(\.name) == ["c0", "All"])
    }

    /// A file is split only before a line the parser reads as the start of a card: not before
    /// "BEGIN:VCARDn", nor before a BEGIN:VCARD line that a continuation line is unfolded into (both found
    /// by fuzzing: the second piece reported its junk again, or read a card the whole file does not have).
    @Test(arguments: [
        "B:I\u{7F}\nBEGIN:VCARDn", "junk\nBEGIN:VCARD\r\n x\r\nFN:A\r\nEND:VCARD\r\n",
        "junk\nBEGIN:vcard \t\r\r\n\tFN:A\r\nEND:VCARD\r\n", "junk\nbegin:vcard\r\r\nFN:A\r\nEND:VCARD",
        "BEGIN:VCARD\nFN:A\nBEGIN:VCARD:x\nEND:VCARD\nBEGIN:VCARD\nFN:B\nEND:VCARD\n",
    ])
    func piecesStartOnlyWhereTheParserSeesACard(_ text: String) {
        let data = Data(text.utf8)
        let whole = AddressBook(data: data, fileName: "p.vcf", maxChunks: 1)
        for pieces in [2, 3, 4] {
            let book = AddressBook(data: data, fileName: "p.vcf", maxChunks: pieces, minChunkSize: 1)
            #expect(book == whole, "\(pieces) pieces")
            #expect(book.diagnostics == whole.diagnostics, "\(pieces) pieces")
        }
        let split = VCardReader.pieceBoundaries(data, maxChunks: 4, minChunkSize: 1)
        let starts = split.dropFirst().dropLast()
        #expect(
            starts.allSatisfy {
                data[$0...].starts(with: Data("begin:vcard".utf8)) || data[$0...].starts(with: Data("BEGIN:VCARD".utf8))
            })
    }

    /// Category members (noted by the reader threads) match the contacts' final ids, with and without ids
    /// made unique afterwards, for one piece and several.
    @Test(arguments: [false, true]) func categoryMembersHaveTheFinalIDs(duplicates: Bool) {
        var text = ""
        for i in 0..<200 {
            text += "BEGIN:VCARD\r\nFN:P\(i)\r\nUID:id\(duplicates ? i % 50 : i)\r\n"
            if i % 3 == 0 { text += "CATEGORIES:k\(i % 7),Every\r\n" }
            text += "END:VCARD\r\n"
        }
        let data = Data(text.utf8)
        for pieces in [1, 4] {
            let book = AddressBook(data: data, fileName: "c.vcf", maxChunks: pieces, minChunkSize: 1)
            #expect(Set(book.contacts.map(\.id)).count == 200)
            let cats = book.groups.filter { $0.kind == .category }
            #expect(cats.map(\.name) == ["k0", "Every", "k3", "k6", "k2", "k5", "k1", "k4"])
            for g in cats {
                #expect(g.memberIDs == book.contacts.filter { $0.categories.contains(g.name) }.map(\.id))
            }
            #expect(cats[1].memberIDs.contains(duplicates ? "id1-2" : "id51"))
        }
    }
}

@Suite struct AppleLabelTests {
    /// `n` labelled emails after `padding` unknown properties; every third label's group has no email.
    private func card(padding: Int, labels n: Int) -> String {
        var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Many\r\n"
        for i in 0..<padding { text += "X-PAD\(i):p\(i)\r\n" }
        for i in 0..<n {
            if i % 3 != 2 { text += "item\(i).EMAIL:e\(i)@example.com\r\n" }
            text += "item\(i).X-ABLabel:_$!<\(i % 2 == 0 ? "Work" : "Home")>!$_\r\n"
        }
        return text + "END:VCARD\r\n"
    }

    @Test(arguments: [(0, 3), (0, 12), (70, 3), (60, 12), (0, 40)])
    func usedLabelsAreRemovedAndOthersKeptInOrder(padding: Int, labels: Int) {
        let book = AddressBook(data: Data(card(padding: padding, labels: labels).utf8), fileName: "l.vcf")
        let c = book.contacts[0]
        let withEmail = (0..<labels).filter { $0 % 3 != 2 }
        #expect(c.emails.map(\.value) == withEmail.map { "e\($0)@example.com" })
        #expect(c.emails.map(\.label) == withEmail.map { $0 % 2 == 0 ? .work : .home })
        // Padding first, then the labels whose group has no email, in file order.
        let kept = (0..<padding).map { "X-PAD\($0)" } + (0..<labels).filter { $0 % 3 == 2 }.map { _ in "X-ABLABEL" }
        #expect(c.unknownProperties.map(\.name) == kept)
        #expect(
            c.unknownProperties.filter { $0.name == "X-ABLABEL" }.map(\.group)
                == (0..<labels).filter { $0 % 3 == 2 }.map { "item\($0)" })
    }
}
