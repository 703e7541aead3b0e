import Foundation
import TestSupport
import Testing

@testable import ContactsCore

@Suite struct ContactSourceTests {
    static func card(uid: String, name: String, extra: [String] = []) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "FN:\(name)", "N:\(name);;;;"] + extra + ["END:VCARD", ""])
            .joined(separator: "\r\n")
    }

    /// A vdir as vdirsyncer leaves it: one card per .vcf (names other than the UID), metadata files, a
    /// temporary file, a hidden file, a file without extension and a state folder, none of them contacts.
    static func makeVDir() throws -> URL {
        let dir = try Scratch.directory("vdir")
        try Scratch.write(
            card(uid: "a-1", name: "Ada", extra: ["CATEGORIES:Friends"]), to: dir.appendingPathComponent("ada.vcf"))
        try Scratch.write(
            card(uid: "b-2", name: "Bea", extra: ["CATEGORIES:Friends"]), to: dir.appendingPathComponent("x.VCF"))
        try Scratch.write(card(uid: "t-3", name: "Temp"), to: dir.appendingPathComponent(".ada.vcf-123.tmp"))
        try Scratch.write(card(uid: "h-4", name: "Hidden"), to: dir.appendingPathComponent(".hidden.vcf"))
        try Scratch.write(card(uid: "n-5", name: "NoExt"), to: dir.appendingPathComponent("noext"))
        try Scratch.write(card(uid: "s-6", name: "State"), to: dir.appendingPathComponent(".contacts-sync/s.vcf"))
        try Scratch.write("Family\n", to: dir.appendingPathComponent("displayname"))
        try Scratch.write("#ff0000", to: dir.appendingPathComponent("color"))
        return dir
    }

    @Test func aVDirReadsOneContactPerVCFFileAndItsMetadata() throws {
        let dir = try Self.makeVDir()
        let source = ContactSource(path: dir.path)
        #expect(source == .vdir(dir.path))
        let folder = VDir(path: dir.path)
        let contents = try folder.contents()
        #expect(contents.book.contacts.map(\.id) == ["a-1", "b-2"])
        #expect(contents.fileNames == ["ada.vcf", "x.VCF"])
        #expect(contents.fileName(of: "b-2") == "x.VCF")
        #expect(contents.fileName(of: "t-3") == nil)
        #expect(contents.book.groups.map(\.name) == ["Friends"])
        #expect(contents.book.groups[0].memberIDs == ["a-1", "b-2"])
        #expect(folder.displayName == "Family")
        #expect(folder.color == "#ff0000")
        #expect(VDir(path: try Scratch.directory("empty").path).displayName == nil)
        #expect(try source.read() == contents.book)
    }

    @Test func problemsInAVDirFileNameTheFile() throws {
        let dir = try Self.makeVDir()
        try Scratch.write("BEGIN:VCARD\r\nUID:c\r\nFN\r\nEND:VCARD\r\n", to: dir.appendingPathComponent("bad.vcf"))
        let book = try VDir(path: dir.path).read()
        #expect(book.diagnostics.count == 1)
        #expect(book.diagnostics.first?.file == dir.path + "/bad.vcf")
        #expect(book.diagnostics.first?.line == 3)
    }

    @Test func aMissingFolderOrFileIsAnError() throws {
        let missing = Scratch.path("missing")
        #expect(ContactSource(path: missing.path) == .file(missing.path))
        #expect(ContactSource(path: "-") == .standardInput)
        #expect(throws: ContactsCoreError.self) { try ContactSource(path: missing.path).read() }
        #expect(throws: ContactsCoreError.self) { try VDir(path: missing.path).read() }
    }

    /// Several sources: ids stay unique by the rule of one book (a later duplicate UID gets -2 and a
    /// diagnostic naming both places), categories of the same name are one group, and every contact knows
    /// its source.
    @Test func severalSourcesAreMergedAndEachContactKnowsItsSource() throws {
        let dir = try Self.makeVDir()
        let file = Scratch.path("book", suffix: ".vcf")
        try Scratch.write(
            Self.card(uid: "z-9", name: "Zoe", extra: ["CATEGORIES:Friends"]) + Self.card(uid: "a-1", name: "Ada Two"),
            to: file)
        let merged = try SourcedAddressBook(reading: [ContactSource(path: dir.path), ContactSource(path: file.path)])
        #expect(merged.book.contacts.map(\.id) == ["a-1", "b-2", "z-9", "a-1-2"])
        #expect(merged.source(of: "b-2") == .vdir(dir.path))
        #expect(merged.source(of: "a-1-2") == .file(file.path))
        #expect(merged.source(of: "a-1") == .vdir(dir.path))
        #expect(merged.source(of: "nobody") == nil)
        #expect(merged.book.groups.map(\.name) == ["Friends"])
        #expect(merged.book.groups[0].memberIDs == ["a-1", "b-2", "z-9"])
        let renamed = try #require(merged.book.diagnostics.last)
        #expect(renamed.file == file.path)
        #expect(renamed.line == 8)
        #expect(renamed.message.contains("duplicate UID 'a-1' (first used by the card at \(dir.path)/ada.vcf:1)"))
    }

    @Test func anEmptySourceBetweenOthersKeepsPositionsRight() throws {
        let a = book(lines: ["BEGIN:VCARD", "UID:1", "FN:A", "END:VCARD"])
        let b = AddressBook(contacts: [])
        let c = book(lines: ["BEGIN:VCARD", "UID:2", "FN:C", "END:VCARD"])
        let merged = SourcedAddressBook([(.file("a"), a), (.file("b"), b), (.file("c"), c)])
        #expect(merged.source(ofContactAt: 0) == .file("a"))
        #expect(merged.source(ofContactAt: 1) == .file("c"))
    }
}
