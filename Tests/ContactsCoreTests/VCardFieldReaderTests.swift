import Support
import Testing

@testable import ContactsCore

/// The field reader alone, one property at a time: values decoded into fields, and notes with columns.
@Suite struct VCardFieldReaderTests {
    /// Reads each of `lines` as a property of one card; returns the card and the notes (line index, note).
    func read(_ lines: [String], mode: ReadMode = .contact) -> (CardBuilder, [(Int, VCardFieldReader.Note)]) {
        var line = CheckedBuffer<UInt8>(capacity: 8)
        defer { line.deallocate() }
        var properties = VCardPropertyParser(line: line)
        defer { properties.deallocate() }
        var fields = VCardFieldReader(properties: properties)
        defer { fields.deallocate() }
        var card = CardBuilder()
        var notes: [(Int, VCardFieldReader.Note)] = []
        for (k, text) in lines.enumerated() {
            line.removeAll()
            Array(text.utf8).withUnsafeBufferPointer { line.append(contentsOf: $0) }
            guard let head = try? properties.parse(line, from: 0) else {
                Issue.record("line \(k) did not parse")
                continue
            }
            fields.read(head, properties: properties, mode: mode, into: &card)
            notes += fields.takeNotes().map { (k, $0) }
            #expect(fields.notes.isEmpty)
        }
        return (card, notes)
    }

    @Test("an email address loses the spaces and tabs written around it")
    func emailValuesAreTrimmed() {
        let (card, notes) = read(["EMAIL: Case.Mail@Example.ORG ", "EMAIL;TYPE=work:\tx@example.org\t", "EMAIL:   "])
        #expect(notes.isEmpty)
        #expect(card.contact.emails.map(\.value) == ["Case.Mail@Example.ORG", "x@example.org", ""])
    }

    @Test func valuesBecomeFields() {
        let (card, notes) = read([
            "FN:Ada Lovelace", "N:Lovelace;Ada;;;", "item1.TEL;TYPE=CELL:tel:+1 555", "EMAIL;PREF=1:ada@example.org",
            "NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:M=C3=BCller", "X-CUSTOM;X-P=a:value",
        ])
        #expect(notes.isEmpty)
        #expect(card.contact.formattedName == "Ada Lovelace")
        #expect(card.contact.familyName == "Lovelace" && card.contact.givenName == "Ada")
        #expect(card.contact.phones.map(\.value) == ["+1 555"])
        #expect(card.contact.phones.first?.label == .mobile)
        #expect(card.contact.emails.first?.preference == 1)
        #expect(card.contact.note == "Müller")
        #expect(card.contact.unknownProperties.map(\.name) == ["X-CUSTOM"])
        #expect(card.grouped.map { $0.group } == ["item1"])
    }

    @Test func problemsAreNotedWithTheirColumn() {
        let (card, notes) = read([
            "VERSION:5.0", "NOTE;ENCODING=QUOTED-PRINTABLE:a=ZZ", "FN;CHARSET=X-NOPE:Ada", "PHOTO;ENCODING=b:A",
        ])
        #expect(notes.map { $0.0 } == [0, 1, 2, 3])
        #expect(notes.map { $0.1.column } == [9, 33, 19, 18])
        #expect(notes[0].1.message.contains("unsupported vCard version '5.0'"))
        #expect(notes[1].1.message.contains("invalid quoted-printable sequence"))
        #expect(notes[2].1.message.contains("unknown charset 'X-NOPE' on FN"))
        #expect(notes[3].1.message.contains("PHOTO data is not valid base64"))
        #expect(card.contact.note == "a=ZZ")
        #expect(card.contact.formattedName == "Ada")
        #expect(card.contact.photo == nil)
    }

    @Test func groupCardModeKeepsOnlyWhatAGroupHas() {
        let (card, _) = read(
            ["UID:g1", "FN:Friends", "TEL:+1 555", "MEMBER:urn:uuid:abc"], mode: .groupCard)
        #expect(card.uid == "g1")
        #expect(card.contact.formattedName == "Friends")
        #expect(card.contact.phones.isEmpty)
        #expect(card.contact.unknownProperties.map(\.name) == ["TEL"])
        #expect(card.members == ["abc"])
    }
}
