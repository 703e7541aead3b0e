import Foundation
import TestSupport
import Testing

@testable import ContactsCore

/// Adding, editing and deleting contacts in a vCard file and in a vdir (issue 20, item 7).
@Suite struct ContactEditorTests {
    /// Three cards: one with unknown properties and parameters, folded lines and LF-only endings inside a
    /// CRLF file would be unusual, so the file is CRLF throughout; the bytes of the others must not move.
    static let ada =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ada\r\nFN:Ada Lovelace\r\nN:Lovelace;Ada;;;\r\n"
        + "EMAIL;TYPE=work;X-CUSTOM=\"a,b\":ada@example.org\r\nX-SOCIAL;X-SERVICE=mastodon:@ada@example.social\r\n"
        + "NOTE:A long note that is folded by the writer of this card because it is longer th\r\n an 75 octets.\r\n"
        + "END:VCARD\r\n"
    static let bea =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bea\r\nFN:Bea\r\nN:;Bea;;;\r\nTEL:+1 415 555 0100\r\nEND:VCARD\r\n"
    static let cleo = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cleo\r\nN:;Cleo;;;\r\nEND:VCARD\r\n"

    static func file() throws -> URL {
        let url = Scratch.path("editor", suffix: ".vcf")
        try Scratch.write(ada + bea + cleo, to: url)
        return url
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test func editingOneCardKeepsEveryOtherByte() throws {
        let url = try Self.file()
        let editor = try ContactEditor(source: .file(url.path))
        try editor.edit(
            id: "bea",
            [
                try .set(parsing: "TEL;TYPE=cell=+44 20 7946 0000"), try .add(parsing: "X-TWITTER=@bea"),
                try .add(parsing: "NOTE=Likes tea, coffee; and \\ backslashes"),
            ])
        let text = try Self.text(url)
        #expect(text.hasPrefix(Self.ada))
        #expect(text.hasSuffix(Self.cleo))
        #expect(
            text.contains(
                "UID:bea\r\nFN:Bea\r\nN:;Bea;;;\r\nTEL;TYPE=cell:+44 20 7946 0000\r\nX-TWITTER:@bea\r\n"
                    + "NOTE:Likes tea\\, coffee\\; and \\\\ backslashes\r\nEND:VCARD\r\n"), "\(text)")
        let book = AddressBook(data: Data(text.utf8), fileName: "x")
        let bea = try #require(book.contact(id: "bea"))
        #expect(bea.phones.map(\.value) == ["+44 20 7946 0000"])
        #expect(bea.note == "Likes tea, coffee; and \\ backslashes")
    }

    @Test func unknownPropertiesAndParametersOfTheEditedCardSurvive() throws {
        let url = try Self.file()
        let editor = try ContactEditor(source: .file(url.path))
        try editor.edit(id: "ada", [try .set(parsing: "N=Byron;Ada;;;")])
        let text = try Self.text(url)
        #expect(text.contains("EMAIL;TYPE=work;X-CUSTOM=\"a,b\":ada@example.org\r\n"))
        #expect(text.contains("X-SOCIAL;X-SERVICE=mastodon:@ada@example.social\r\n"))
        #expect(text.contains("longer th\r\n an 75 octets.\r\n"))
        // N changed: FN follows it.
        #expect(text.contains("FN:Ada Byron\r\nN:Byron;Ada;;;\r\n"), "\(text)")
        #expect(text.hasSuffix(Self.bea + Self.cleo))
    }

    @Test func removeTakesEveryLineOrTheOneWithTheValue() throws {
        let url = try Self.file()
        let editor = try ContactEditor(source: .file(url.path))
        try editor.edit(id: "ada", [try .add(parsing: "EMAIL=second@example.org")])
        try editor.edit(id: "ada", [try .remove(parsing: "EMAIL=ADA@example.org")])
        var ada = try #require(AddressBook(contentsOf: url).contact(id: "ada"))
        #expect(ada.emails.map(\.value) == ["second@example.org"])
        try editor.edit(id: "ada", [try .remove(parsing: "X-SOCIAL")])
        #expect(!(try Self.text(url)).contains("X-SOCIAL"))
        #expect(throws: ContactsCoreError.self) { try editor.edit(id: "ada", [try .remove(parsing: "X-SOCIAL")]) }
        ada = try #require(AddressBook(contentsOf: url).contact(id: "ada"))
        #expect(ada.displayName == "Ada Lovelace")
    }

    @Test func knownValuesAreCheckedAndNothingIsWrittenOnError() throws {
        let url = try Self.file()
        let before = try Data(contentsOf: url)
        let editor = try ContactEditor(source: .file(url.path))
        for bad in ["EMAIL=not-an-address", "TEL=12", "BDAY=1990-13-01", "BDAY=yesterday", "FN= "] {
            #expect(throws: ContactsCoreError.self, "\(bad)") { try editor.edit(id: "ada", [try .set(parsing: bad)]) }
        }
        #expect(throws: ContactsCoreError.self) { try editor.edit(id: "ada", [try .remove(parsing: "FN")]) }
        #expect(throws: ContactsCoreError.self) { try PropertyEdit.set(parsing: "UID=other") }
        #expect(throws: ContactsCoreError.self) { try PropertyEdit.set(parsing: "=value") }
        #expect(throws: ContactsCoreError.self) { try PropertyEdit.set(parsing: "NOTE") }
        #expect(throws: ContactsCoreError.noSuchContact(id: "nobody", source: url.path)) {
            try editor.edit(id: "nobody", [try .set(parsing: "NOTE=x")])
        }
        #expect(try Data(contentsOf: url) == before)
        // A national number is fine with a region.
        try ContactEditor(source: .file(url.path), region: "GB").edit(
            id: "ada", [try .add(parsing: "TEL=020 7946 0000")])
        try editor.edit(id: "ada", [try .set(parsing: "BDAY=1815-12-10")])
        #expect(
            try AddressBook(contentsOf: url).contact(id: "ada")?.birthday == ContactDate(year: 1815, month: 12, day: 10)
        )
    }

    /// A card without UID has a content-hash id: it is found by it, and deleting it keeps the other cards.
    @Test func deleteRemovesOneCardAndKeepsTheRest() throws {
        let url = try Self.file()
        let cleoID = try #require(AddressBook(contentsOf: url).contacts.last?.id)
        #expect(cleoID.hasPrefix("hash-"))
        let editor = try ContactEditor(source: .file(url.path))
        try editor.delete(id: cleoID)
        #expect(try Self.text(url) == Self.ada + Self.bea)
        try editor.delete(id: "ada")
        #expect(try Self.text(url) == Self.bea)
    }

    @Test func addAppendsACardWithANewUIDAndGroups() throws {
        let url = try Self.file()
        let editor = try ContactEditor(source: .file(url.path))
        let id = try editor.add(
            givenName: "Dan", familyName: "Eck", emails: ["dan@example.org"], phones: ["+1 212 555 0177"],
            groups: ["Friends"], edits: [try .set(parsing: "X-PRONOUNS=he/him")])
        let text = try Self.text(url)
        #expect(text.hasPrefix(Self.ada + Self.bea + Self.cleo))
        let dan = try #require(AddressBook(contentsOf: url).contact(id: id))
        #expect(dan.displayName == "Dan Eck")
        #expect(dan.emails.map(\.value) == ["dan@example.org"])
        #expect(dan.categories == ["Friends"])
        #expect(dan.unknownProperties.contains { $0.name == "X-PRONOUNS" && $0.value == "he/him" })
        #expect(throws: ContactsCoreError.self) { try editor.add(givenName: "", familyName: " ") }
        #expect(throws: ContactsCoreError.self) { try editor.add(givenName: "X", familyName: "Y", emails: ["nope"]) }
    }

    @Test func aGroupCardGetsTheMember() throws {
        let url = Scratch.path("groups", suffix: ".vcf")
        let group = "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:g1\r\nFN:Team\r\nEND:VCARD\r\n"
        try Scratch.write(Self.bea + group, to: url)
        let editor = try ContactEditor(source: .file(url.path))
        try editor.edit(id: "bea", [], addingToGroups: ["Team", "Chess"])
        let book = try AddressBook(contentsOf: url)
        #expect(book.groups(containing: "bea").map(\.name).sorted() == ["Chess", "Team"])
        #expect(try Self.text(url).contains("MEMBER:urn:uuid:bea\r\nEND:VCARD"))
    }

    /// In a vdir the group cards are files of their own: `--add-to-group` adds the member there (vCard 4
    /// `MEMBER`, or Apple's `X-ADDRESSBOOKSERVER-MEMBER`), and a name without a group card is a category.
    @Test func aVDirGroupCardFileGetsTheMember() throws {
        let dir = try Scratch.directory("editor-vdir-groups")
        let team = "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:g1\r\nFN:Team\r\nEND:VCARD\r\n"
        let apple =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nX-ADDRESSBOOKSERVER-KIND:group\r\nUID:g2\r\nFN:Chess Club\r\n"
            + "N:Chess Club;;;;\r\nEND:VCARD\r\n"
        try Scratch.write(team, to: dir.appendingPathComponent("team.vcf"))
        try Scratch.write(apple, to: dir.appendingPathComponent("chess.vcf"))
        try Scratch.write(Self.bea, to: dir.appendingPathComponent("bea.vcf"))
        let editor = try ContactEditor(source: .vdir(dir.path))
        let id = try editor.add(givenName: "Ada", familyName: "Lovelace", groups: ["Team", "Chess Club", "Poets"])
        #expect(
            try Self.text(dir.appendingPathComponent("team.vcf"))
                == team.replacingOccurrences(
                    of: "END:VCARD", with: "MEMBER:urn:uuid:\(id)\r\nEND:VCARD"))
        #expect(
            try Self.text(dir.appendingPathComponent("chess.vcf"))
                == apple.replacingOccurrences(
                    of: "END:VCARD", with: "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\(id)\r\nEND:VCARD"))
        let added = try #require(VDir(path: dir.path).read().contact(id: id))
        #expect(added.categories == ["Poets"])
        try editor.edit(id: "bea", [], addingToGroups: ["Team"])
        #expect(try Self.text(dir.appendingPathComponent("bea.vcf")) == Self.bea)
        let book = try VDir(path: dir.path).read()
        #expect(book.groups(containing: "bea").map(\.name) == ["Team"])
        #expect(book.groups(containing: id).map(\.name).sorted() == ["Chess Club", "Poets", "Team"])
        // Already a member: nothing is written twice.
        try editor.edit(id: "bea", [], addingToGroups: ["Team"])
        #expect(
            try Self.text(dir.appendingPathComponent("team.vcf")).components(separatedBy: "urn:uuid:bea").count == 2)
    }

    @Test func aVDirGetsOneFilePerContactAndKeepsFileNames() throws {
        let dir = try Scratch.directory("editor-vdir")
        try Scratch.write(Self.bea, to: dir.appendingPathComponent("some-name.vcf"))
        let editor = try ContactEditor(source: .vdir(dir.path))
        let id = try editor.add(givenName: "Ada", familyName: "Lovelace", emails: ["ada@example.org"])
        let newFile = dir.appendingPathComponent("\(id).vcf")
        #expect(FileManager.default.fileExists(atPath: newFile.path))
        try editor.edit(id: "bea", [try .set(parsing: "EMAIL=bea@example.org")])
        #expect(try Self.text(dir.appendingPathComponent("some-name.vcf")).contains("EMAIL:bea@example.org\r\n"))
        try editor.delete(id: id)
        #expect(!FileManager.default.fileExists(atPath: newFile.path))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(names == ["some-name.vcf"], "no temporary file is left: \(names)")
        #expect(throws: ContactsCoreError.self) { try ContactEditor(source: .standardInput) }
    }

    @Test func anLFFileGetsLFLines() throws {
        let url = Scratch.path("lf", suffix: ".vcf")
        try Scratch.write(Self.bea.replacingOccurrences(of: "\r\n", with: "\n"), to: url)
        let editor = try ContactEditor(source: .file(url.path))
        try editor.edit(id: "bea", [try .add(parsing: "NOTE=hi")])
        _ = try editor.add(givenName: "Ada", familyName: "L")
        #expect(!(try Self.text(url)).contains("\r"))
        #expect(try Self.text(url).contains("NOTE:hi\nEND:VCARD\n"))
    }
}
