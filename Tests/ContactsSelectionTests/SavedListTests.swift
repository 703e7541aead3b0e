import ContactsCore
import Foundation
import SelectionFixtures
import Synchronization
import TestSupport
import Testing

@testable import ContactsSelection

/// A saved list answers exactly as the data source it was saved from; a stale, corrupt or truncated
/// file is refused with an error, never read as a wrong answer.
@Suite struct SavedListTests {
    static let identity = BookIdentity(size: 1234, modified: 1_700_000_000_123_456_789, hash: 0xC0FFEE)

    func source(locale: String = "en", mode: SelectionMode = .both) throws -> ContactsDataSource {
        var config = Configuration()
        config.locale = locale
        config.mode = mode
        return try ContactsDataSource(contacts: book, configuration: config)
    }

    func saved(_ source: ContactsDataSource, diagnostics: [String] = []) throws -> (SavedList, URL) {
        let path = Scratch.path("saved", suffix: ".index")
        try SavedList.write(source, to: path.path, book: Self.identity, diagnostics: diagnostics)
        return (try SavedList(path: path.path, book: Self.identity, options: source.savedListOptions), path)
    }

    func rows(_ listing: any ContactListing, _ result: SearchResult) -> [[ListedRow]] {
        result.sections.map { section in result.rowNumbers[section.range].map { listing.listedRow(Int($0)) } }
    }

    @Test func sameAnswersAsTheDataSource() throws {
        for locale in ["en", "ja", "zh-Hans"] {
            for mode in [SelectionMode.messages, .email, .both] {
                let source = try source(locale: locale, mode: mode)
                let (saved, path) = try saved(source, diagnostics: ["line 3: a note"])
                defer { try? FileManager.default.removeItem(at: path) }
                #expect(saved.indexTitles == source.indexTitles)
                #expect(saved.rowCount == source.rows.count)
                #expect(saved.diagnostics == ["line 3: a note"])
                for query in [
                    "", "an", "ANNA", "hele", "Hélène", "zw", "zhang", "ㅇㅅ", "boris", "Борис", "555 01",
                    "example.org", "felipe@example.com", "bobby", "acme", "f b", "zz",
                ] {
                    for keywords in [false, true] {
                        let expected = source.search(query, keywords: keywords)
                        let got = saved.search(query, keywords: keywords, refining: nil)
                        #expect(got.rowNumbers == expected.rowNumbers, "\(locale) \(mode) \(query) \(keywords)")
                        #expect(got.sections == expected.sections, "\(locale) \(query)")
                        #expect(rows(saved, got) == rows(source, expected), "\(locale) \(query)")
                    }
                }
                // Refining a saved list's result as the next keystroke does.
                let first = saved.search("a", keywords: false, refining: nil)
                #expect(
                    saved.search("an", keywords: false, refining: first).rowNumbers
                        == source.search("an", keywords: false).rowNumbers)
            }
        }
    }

    @Test func staleWhenTheBookOrTheOptionsDiffer() throws {
        let source = try source()
        let (_, path) = try saved(source)
        defer { try? FileManager.default.removeItem(at: path) }
        let options = source.savedListOptions
        var changed = Self.identity
        changed.size += 1
        #expect(throws: SavedListError.stale(path: path.path, reason: "the address book's size changed")) {
            try SavedList(path: path.path, book: changed, options: options)
        }
        changed = Self.identity
        changed.modified += 1
        #expect(throws: SavedListError.stale(path: path.path, reason: "the address book was modified")) {
            try SavedList(path: path.path, book: changed, options: options)
        }
        changed = Self.identity
        changed.hash ^= 1
        #expect(throws: SavedListError.stale(path: path.path, reason: "the address book's content changed")) {
            try SavedList(path: path.path, book: changed, options: options)
        }
        let other = try self.source(locale: "de").savedListOptions
        #expect(throws: SavedListError.self) { try SavedList(path: path.path, book: Self.identity, options: other) }
    }

    @Test func identityOfAFileChangesWithAnEdit() throws {
        let file = Scratch.path("book", suffix: ".vcf")
        defer { try? FileManager.default.removeItem(at: file) }
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Anna Berg\r\nN:Berg;Anna;;;\r\nTEL:+46 8 555 010 00\r\nEND:VCARD\r\n"
        try Data(text.utf8).write(to: file)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file.path)
        let before = try BookIdentity(path: file.path)
        #expect(try BookIdentity(path: file.path) == before)
        // Same size and modification time, one letter changed: the hash tells.
        try Data(text.replacingOccurrences(of: "Anna Berg", with: "Anna Borg").utf8).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file.path)
        let edited = try BookIdentity(path: file.path)
        #expect(edited.size == before.size && edited.modified == before.modified)
        #expect(edited.hash != before.hash)
        // A large file: a change of any byte changes the hash (every byte is hashed; the middle offsets lie
        // between the 16 KiB blocks an older identity sampled).
        var big = [UInt8](repeating: 0x41, count: 5 << 20)
        try Data(big).write(to: file)
        let large = try BookIdentity(path: file.path)
        let gap = (1 << 20) + (3 << 20) / 63 + (16 << 10) + 20_000
        for offset in [0, 100, gap, (5 << 19) + 40_000, big.count - 1] {
            big[offset] = 0x42
            try Data(big).write(to: file)
            #expect(try BookIdentity(path: file.path).hash != large.hash, "byte \(offset)")
            big[offset] = 0x41
        }
    }

    /// A book edited in place and given back its size and modification time (`touch -d`, `cp -p`): its
    /// status-change time tells; another file put in its place: its inode tells.
    @Test func identityTellsARestoredTimeAndAReplacedFile() throws {
        let file = Scratch.path("restored", suffix: ".vcf")
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Anna Berg\r\nN:Berg;Anna;;;\r\nEND:VCARD\r\n"
        try Data(text.utf8).write(to: file)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file.path)
        let before = try BookIdentity(path: file.path)
        let source = try source()
        let index = Scratch.path("restored", suffix: ".index").path
        try SavedList.write(source, to: index, book: before)
        #expect(
            try SavedList(path: index, book: try BookIdentity(path: file.path), options: source.savedListOptions)
                .rowCount > 0)
        // Written again in place with the same bytes and the old time: only the status-change time differs.
        usleep(20_000)
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file.path)
        let restored = try BookIdentity(path: file.path)
        #expect(restored.size == before.size && restored.modified == before.modified && restored.hash == before.hash)
        #expect(restored.inode == before.inode && restored.changed != before.changed)
        #expect(
            throws: SavedListError.stale(path: index, reason: "the address book was changed (its status-change time)")
        ) {
            try SavedList(path: index, book: restored, options: source.savedListOptions)
        }
        // Another file with the same bytes and time renamed into its place.
        let other = Scratch.path("other", suffix: ".vcf")
        try Data(text.utf8).write(to: other)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: other.path)
        #expect(rename(other.path, file.path) == 0)
        let replaced = try BookIdentity(path: file.path)
        #expect(replaced.inode != before.inode)
        #expect(throws: SavedListError.stale(path: index, reason: "the address book is another file now (a new inode)"))
        {
            try SavedList(path: index, book: replaced, options: source.savedListOptions)
        }
    }

    @Test func corruptBytesAreRefused() throws {
        let (_, path) = try saved(try source())
        defer { try? FileManager.default.removeItem(at: path) }
        let good = try Data(contentsOf: path)
        let options = try source().savedListOptions
        var rng = SplitMix64(seed: 0x1DE7)
        // Any one byte changed anywhere: refused (header, fields, checksum).
        for _ in 0..<200 {
            var bytes = good
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[at] ^= UInt8.random(in: 1...255, using: &rng)
            try bytes.write(to: path)
            do {
                _ = try SavedList(path: path.path, book: Self.identity, options: options)
                Issue.record("byte \(at) changed, still read")
            } catch let error as SavedListError {
                switch error {
                case .corrupt, .stale: break
                default: Issue.record("byte \(at): \(error)")
                }
            }
        }
        try good.write(to: path)
        #expect(try SavedList(path: path.path, book: Self.identity, options: options).rowCount > 0)
    }

    @Test func truncatedFilesAreRefused() throws {
        let (_, path) = try saved(try source())
        defer { try? FileManager.default.removeItem(at: path) }
        let good = try Data(contentsOf: path)
        let options = try source().savedListOptions
        var lengths = [0, 1, 7, 8, 16, 63, 64, good.count / 2, good.count - 8, good.count - 1]
        lengths += stride(from: 8, to: good.count, by: max(8, good.count / 60)).map { $0 }
        for length in lengths {
            try good.prefix(length).write(to: path)
            #expect(throws: SavedListError.self, "\(length) bytes") {
                try SavedList(path: path.path, book: Self.identity, options: options)
            }
        }
        // Extra bytes after a whole file are not a whole file either.
        try (good + Data(count: 8)).write(to: path)
        #expect(throws: SavedListError.self) { try SavedList(path: path.path, book: Self.identity, options: options) }
    }

    /// An index that is missing, not a regular file or empty is refused with its path and the reason.
    @Test func anIndexThatCannotBeMappedIsNamed() throws {
        let options = try source().savedListOptions
        let missing = Scratch.path("saved-missing", suffix: ".index").path
        #expect(throws: SavedListError.io(path: missing, message: "No such file or directory")) {
            try SavedList(path: missing, book: Self.identity, options: options)
        }
        let folder = try Scratch.directory("saved-folder").path
        #expect(throws: SavedListError.io(path: folder, message: "cannot map: not a regular file")) {
            try SavedList(path: folder, book: Self.identity, options: options)
        }
        let fifo = Scratch.path("saved-fifo", suffix: ".index").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: SavedListError.io(path: fifo, message: "cannot map: not a regular file")) {
            try SavedList(path: fifo, book: Self.identity, options: options)
        }
        let empty = Scratch.path("saved-empty", suffix: ".index")
        try Data().write(to: empty)
        #expect(throws: SavedListError.corrupt(path: empty.path, reason: "0 bytes is not a whole index")) {
            try SavedList(path: empty.path, book: Self.identity, options: options)
        }
    }

    @Test func concurrentWritersLeaveOneWholeFile() throws {
        let directory = try Scratch.directory("saved-concurrent")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("book.index").path
        let sources = [try source(locale: "en"), try source(locale: "en", mode: .email)]
        let options = sources[0].savedListOptions
        let readers = Mutex<(reads: Int, failures: [String])>((0, []))
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            for round in 0..<8 {
                if worker < 4 {
                    // Writers: two different lists (same options key for the reader's purpose: each whole).
                    try? SavedList.write(sources[(worker + round) % 2], to: path, book: Self.identity)
                } else if FileManager.default.fileExists(atPath: path) {
                    do {
                        let saved = try SavedList(path: path, book: Self.identity, options: options)
                        _ = saved.search("an", keywords: false, refining: nil)
                        readers.withLock { $0.reads += 1 }
                    } catch let error as SavedListError {
                        // The email list has another options key: stale, never corrupt.
                        if case .stale = error {} else { readers.withLock { $0.failures.append("\(error)") } }
                    } catch {
                        readers.withLock { $0.failures.append("\(error)") }
                    }
                }
            }
        }
        #expect(readers.withLock { $0.failures } == [])
        // Only the index itself is left: every temporary file was renamed or removed.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["book.index"])
    }
}
