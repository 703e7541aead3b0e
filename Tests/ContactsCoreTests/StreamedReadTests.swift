import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ContactsCore

/// The streamed read sees every contact an address book holds, with the same ids (made unique by the same
/// rule) and the same diagnostics, in pieces or not, from bytes or from a memory-mapped file whose pages
/// are handed back as they are read.
@Suite struct StreamedReadTests {
    /// Per piece: (id as read, given name, phone count) of each contact.
    typealias Seen = [(id: String, given: String, phones: Int)]

    func streamed(_ data: Data, maxChunks: Int, threads: Int) -> VCardReader.Stream<Seen> {
        VCardReader.stream(
            data: data, fileName: "book.vcf", releasingPagesRead: false, makePiece: { Seen() },
            { seen, contact in seen.append((contact.id, contact.givenName, contact.phones.count)) },
            maxChunks: maxChunks, threads: threads, minChunkSize: 2_048)
    }

    func check(_ stream: VCardReader.Stream<Seen>, against book: AddressBook) {
        let seen = stream.pieces.flatMap { $0 }
        #expect(stream.contactCounts.reduce(0, +) == seen.count)
        #expect(seen.count == book.contacts.count)
        var renamed = 0
        for (n, (contact, s)) in zip(book.contacts, seen).enumerated() {
            let id = stream.renamedIDs[n] ?? s.id
            if stream.renamedIDs[n] != nil { renamed += 1 }
            #expect(id == contact.id, "contact \(n)")
            #expect(s.given == contact.givenName && s.phones == contact.phones.count, "contact \(n)")
        }
        #expect(renamed > 0, "the book has repeated UIDs and identical cards")
        #expect(stream.diagnostics == book.diagnostics)
        #expect(!stream.diagnostics.isEmpty)
    }

    @Test func sameContactsIdsAndDiagnosticsAsTheAddressBook() {
        let data = Data(VCardBookGenerator.book(cards: 600, seed: 7).utf8)
        let book = AddressBook(data: data, fileName: "book.vcf")
        for (chunks, threads) in [(1, 1), (5, 1), (16, 2), (16, 4)] {
            let stream = streamed(data, maxChunks: chunks, threads: threads)
            if chunks > 1 { #expect(stream.pieces.count > 1) }
            check(stream, against: book)
        }
    }

    @Test func aMappedFileReadsAsItsBytes() throws {
        // Over 2 MiB, so that the file is read in several pieces and their pages are released.
        let text = VCardBookGenerator.book(cards: 16_000, seed: 11)
        #expect(text.utf8.count > 2 << 20)
        let url = Scratch.path("streamed", suffix: ".vcf")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let stream = try VCardReader.stream(
            contentsOfFile: url.path, fileName: "book.vcf", makePiece: { Seen() },
            { seen, contact in seen.append((contact.id, contact.givenName, contact.phones.count)) })
        #expect(stream.pieces.count > 1 || VCardReader.defaultThreadCount == 1)
        check(stream, against: AddressBook(data: Data(text.utf8), fileName: "book.vcf"))
    }

    /// A file that is missing or not a regular file (a folder, a FIFO: refused without waiting for a
    /// writer) cannot be read, by name and the reason; an empty file holds no contacts.
    @Test func aFileThatCannotBeMappedIsNamed() throws {
        let missing = Scratch.path("streamed-missing", suffix: ".vcf").path
        let folder = try Scratch.directory("streamed-folder").path
        let fifo = Scratch.path("streamed-fifo", suffix: ".vcf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let refused = [
            (missing, "No such file or directory"), (folder, "not a regular file"), (fifo, "not a regular file"),
        ]
        for (path, reason) in refused {
            #expect(throws: ContactsCoreError.cannotRead(path: path, reason: reason)) {
                try VCardReader.stream(contentsOfFile: path, makePiece: { 0 }, { count, _ in count += 1 })
            }
            #expect(throws: ContactsCoreError.cannotRead(path: path, reason: reason)) {
                try VCardReader.contact(inFile: path, atOffset: 0)
            }
        }
        let empty = Scratch.path("streamed-empty", suffix: ".vcf")
        try Data().write(to: empty)
        let stream = try VCardReader.stream(contentsOfFile: empty.path, makePiece: { 0 }, { count, _ in count += 1 })
        #expect(stream.pieces.reduce(0, +) == 0)
        #expect(stream.diagnostics == AddressBook(data: Data(), fileName: empty.path).diagnostics)
        #expect(try VCardReader.contact(inFile: empty.path, atOffset: 0) == nil)
    }

    @Test func aMappedUTF16FileIsConvertedNotReleased() throws {
        // UTF-16 with a byte order mark (as Outlook writes it): read from a converted copy, in pieces.
        let text = VCardBookGenerator.book(cards: 9_000, seed: 13)
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(bytes.count > 2 << 20)
        let url = Scratch.path("streamed-utf16", suffix: ".vcf")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let stream = try VCardReader.stream(
            contentsOfFile: url.path, fileName: "book.vcf", makePiece: { Seen() },
            { seen, contact in seen.append((contact.id, contact.givenName, contact.phones.count)) })
        check(stream, against: AddressBook(data: Data(bytes), fileName: "book.vcf"))
    }

    @Test func unreadableFilesAreErrors() throws {
        let missing = Scratch.path("missing", suffix: ".vcf").path
        #expect(throws: ContactsCoreError.self) {
            try VCardReader.stream(contentsOfFile: missing, makePiece: { 0 }, { _, _ in })
        }
        let folder = try Scratch.directory("folder")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: ContactsCoreError.self) {
            try VCardReader.stream(contentsOfFile: folder.path, makePiece: { 0 }, { _, _ in })
        }
        let empty = Scratch.path("empty", suffix: ".vcf")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        let stream = try VCardReader.stream(contentsOfFile: empty.path, makePiece: { 0 }, { n, _ in n += 1 })
        #expect(stream.pieces.reduce(0, +) == 0)
    }

    /// Each contact's card offset, in pieces or not, reads that contact back alone from the file (renamed
    /// duplicates keep the id their card has); an offset inside a card or past the end reads nothing.
    @Test func cardOffsetsReadEachContactAlone() throws {
        let text = VCardBookGenerator.book(cards: 400, seed: 11)
        let file = try Scratch.directory("card-offsets").appendingPathComponent("book.vcf")
        try Data(text.utf8).write(to: file)
        let book = AddressBook(data: Data(text.utf8), fileName: "book.vcf")
        for chunks in [1, 7] {
            let stream = streamed(Data(text.utf8), maxChunks: chunks, threads: 2)
            let offsets = try #require(stream.cardOffsets)
            #expect(offsets.count == book.contacts.count)
            for (n, contact) in book.contacts.enumerated() {
                let alone = try VCardReader.contact(inFile: file.path, atOffset: offsets[n])
                var expected = contact
                if stream.renamedIDs[n] != nil, let alone { expected.id = alone.id }
                #expect(alone == expected, "contact \(n)")
            }
            #expect(try VCardReader.contact(inFile: file.path, atOffset: offsets[1] + 3) == nil)
            #expect(try VCardReader.contact(inFile: file.path, atOffset: text.utf8.count) == nil)
        }
    }

    /// Many cards read at once (the file mapped once) are the cards of the book, in the order asked (here
    /// backwards); nil where no card begins (inside a card, past the end, before the start).
    @Test func cardsReadAtOnceAreTheBooksContacts() throws {
        let text = VCardBookGenerator.book(cards: 300, seed: 17)
        let file = try Scratch.directory("cards-at-once").appendingPathComponent("book.vcf")
        try Data(text.utf8).write(to: file)
        let book = AddressBook(data: Data(text.utf8), fileName: "book.vcf")
        let stream = streamed(Data(text.utf8), maxChunks: 3, threads: 2)
        let offsets = try #require(stream.cardOffsets)
        let asked = Array(offsets.reversed()) + [offsets[2] + 5, text.utf8.count, -1]
        let read = try VCardReader.contacts(inFile: file.path, atOffsets: asked)
        #expect(read.count == asked.count)
        for (k, n) in offsets.indices.reversed().enumerated() {
            var expected = book.contacts[n]
            if stream.renamedIDs[n] != nil, let alone = read[k] { expected.id = alone.id }
            #expect(read[k] == expected, "contact \(n)")
        }
        #expect(read.suffix(3).allSatisfy { $0 == nil })
    }
}
