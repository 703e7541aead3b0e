import Foundation
import TestSupport
import Testing

@testable import ContactsCore

/// Merging contacts without loss, and undoing it byte for byte (issue 34, item 5).
@Suite struct ContactMergeTests {
    static let ada =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ada\r\nFN:Ada Lovelace\r\nN:Lovelace;Ada;;;\r\n"
        + "EMAIL;TYPE=work:ada@example.org\r\nTEL;TYPE=cell:+44 20 7946 0000\r\nitem1.EMAIL:a@home.example\r\n"
        + "item1.X-ABLabel:home\r\nBDAY:1815-12-10\r\nEND:VCARD\r\n"
    static let bea = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bea\r\nFN:Bea\r\nN:;Bea;;;\r\nEND:VCARD\r\n"
    /// Ada again: the same email in capitals, the same phone written another way, a new phone, a grouped
    /// email whose group name is taken, another birthday, an unknown property, LF line endings.
    static let ada2 =
        "BEGIN:VCARD\nVERSION:3.0\nUID:ada-2\nFN:Augusta Ada King\nN:King;Augusta Ada;;;\n"
        + "EMAIL:ADA@EXAMPLE.ORG\nTEL:+442079460000\nTEL;TYPE=work:+44 20 7946 0999\n"
        + "item1.EMAIL:countess@example.org\nitem1.X-ABLabel:lovelace\nBDAY:1815-12-11\n"
        + "X-SOCIAL;X-SERVICE=mastodon:@ada@example.social\nCATEGORIES:Friends\nEND:VCARD\n"

    static func file(_ text: String) throws -> URL {
        let url = Scratch.path("merge", suffix: ".vcf")
        try Scratch.write(text, to: url)
        return url
    }

    @Test func mergedCardHasEveryValueOnceAndConflictsInANote() throws {
        let url = try Self.file(Self.ada + Self.bea + Self.ada2)
        let undo = try ContactEditor(source: .file(url.path)).merge(ids: ["ada", "ada-2"])
        #expect(undo.kept == "ada" && undo.merged == ["ada-2"])
        let text = try String(contentsOf: url, encoding: .utf8)
        // The kept card's own lines first, byte for byte; the other card is gone; Bea untouched.
        #expect(text.hasPrefix(String(Self.ada.dropLast("END:VCARD\r\n".count))), "\(text)")
        #expect(text.hasSuffix(Self.bea))
        #expect(!text.contains("UID:ada-2"))
        let book = AddressBook(data: Data(text.utf8), fileName: "x")
        #expect(book.contacts.count == 2)
        let ada = try #require(book.contact(id: "ada"))
        #expect(ada.emails.map(\.value) == ["ada@example.org", "a@home.example", "countess@example.org"])
        #expect(ada.phones.map(\.value) == ["+44 20 7946 0000", "+44 20 7946 0999"])
        #expect(ada.categories == ["Friends"])
        #expect(ada.formattedName == "Ada Lovelace")
        // The taken group name is renamed, its label travelling with it; CRLF throughout.
        #expect(text.contains("item2.EMAIL:countess@example.org\r\nitem2.X-ABLabel:lovelace\r\n"), "\(text)")
        #expect(text.contains("X-SOCIAL;X-SERVICE=mastodon:@ada@example.social\r\n"))
        #expect(!text.contains("ada-2\n"))
        // Conflicting single values are kept in a note naming where they came from.
        #expect(ada.note.contains("Merged from Augusta Ada King (ada-2)"), "\(ada.note)")
        #expect(ada.note.contains("FN Augusta Ada King") && ada.note.contains("BDAY 1815-12-11"))
        #expect(ada.note.contains("N King;Augusta Ada;;;"))
    }

    @Test func undoRestoresTheFileByteForByte() throws {
        let original = Self.ada2 + Self.bea + Self.ada
        let url = try Self.file(original)
        let undoFile = Scratch.path("undo", suffix: ".json").path
        _ = try ContactEditor(source: .file(url.path)).merge(
            ids: ["bea", "ada", "ada-2"], into: "ada", undoFile: undoFile)
        let merged = try Data(contentsOf: url)
        #expect(merged != Data(original.utf8))
        #expect(AddressBook(data: merged, fileName: "x").contacts.map(\.id) == ["ada"])
        try MergeUndo(contentsOf: undoFile).restore()
        #expect(try Data(contentsOf: url) == Data(original.utf8))
    }

    @Test func undoRefusesAFileChangedSinceTheMerge() throws {
        let original = Self.ada + Self.bea + Self.ada2
        let url = try Self.file(original)
        let undo = try ContactEditor(source: .file(url.path)).merge(ids: ["ada", "ada-2"])
        let changed =
            try String(contentsOf: url, encoding: .utf8) + Self.bea.replacingOccurrences(of: "bea", with: "cy")
        try Scratch.write(changed, to: url)
        #expect(throws: ContactsCoreError.self) { try undo.restore() }
        #expect(try String(contentsOf: url, encoding: .utf8) == changed)
    }

    @Test func mergeInAVdirRemovesTheOtherFilesAndUndoCreatesThemAgain() throws {
        let folder = try Scratch.directory("merge-vdir")
        try Scratch.write(Self.ada, to: folder.appendingPathComponent("a.vcf"))
        try Scratch.write(Self.bea, to: folder.appendingPathComponent("b.vcf"))
        try Scratch.write(Self.ada2, to: folder.appendingPathComponent("c.vcf"))
        let undoFile = Scratch.path("undo", suffix: ".json").path
        _ = try ContactEditor(source: .vdir(folder.path)).merge(ids: ["ada-2", "ada"], undoFile: undoFile)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["b.vcf", "c.vcf"])
        let kept = try String(contentsOf: folder.appendingPathComponent("c.vcf"), encoding: .utf8)
        #expect(kept.hasPrefix(String(Self.ada2.dropLast("END:VCARD\n".count))))
        #expect(kept.contains("item2.EMAIL:a@home.example\nitem2.X-ABLabel:home\n") && !kept.contains("\r"), "\(kept)")
        // A second undo file of the same name is refused before anything is merged.
        try Scratch.write(Self.ada, to: folder.appendingPathComponent("a.vcf"))
        #expect(throws: ContactsCoreError.self) {
            try ContactEditor(source: .vdir(folder.path)).merge(ids: ["ada-2", "ada"], undoFile: undoFile)
        }
        #expect(try String(contentsOf: folder.appendingPathComponent("c.vcf"), encoding: .utf8) == kept)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("a.vcf"))
        try MergeUndo(contentsOf: undoFile).restore()
        for (name, text) in [("a.vcf", Self.ada), ("b.vcf", Self.bea), ("c.vcf", Self.ada2)] {
            #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == Data(text.utf8), "\(name)")
        }
    }

    @Test func mergeNeedsTwoKnownContactsAndWritesNothingOtherwise() throws {
        let url = try Self.file(Self.ada + Self.bea)
        let editor = try ContactEditor(source: .file(url.path))
        #expect(throws: ContactsCoreError.self) { _ = try editor.merge(ids: ["ada", "nobody"]) }
        #expect(throws: ContactsCoreError.self) { _ = try editor.merge(ids: ["ada", "ada"]) }
        #expect(try String(contentsOf: url, encoding: .utf8) == Self.ada + Self.bea)
    }

    @Test func undoFileIsCheckedAsHostileInput() throws {
        let path = Scratch.path("undo", suffix: ".json")
        let escape =
            #"{"format": "contacts-merge-undo/1", "source": {"kind": "vdir", "path": "x"}, "kept": "a", "merged": [], "#
            + #""files": [{"name": "../etc/passwd", "afterHash": null, "hunks": []}]}"#
        try Scratch.write(escape, to: path)
        #expect(throws: ContactsCoreError.self) { _ = try MergeUndo(contentsOf: path.path) }
        try Scratch.write("{\"format\": ", to: path)
        #expect(throws: ContactsCoreError.self) { _ = try MergeUndo(contentsOf: path.path) }
    }
}
