import ContactsCore
import Foundation
import SelectionFixtures
import Support
import TestSupport
import Testing

@testable import ContactsSelection

/// "Open sources as a listing" as the one library call every listing command makes
/// (`ListingCache.open(paths:…)`): which sources a saved list serves, which are read whole, what the
/// front end hears, and the errors it turns into messages.
@Suite struct ListingSourcesTests {
    /// Records what it hears; runs steps at once.
    final class Recorder: ListingObserver, @unchecked Sendable {
        var steps: [String] = []
        var notes: [String] = []
        var diagnostics: [String] = []
        func step<T>(_ label: String, after: Double?, progress: WorkProgress?, _ work: () throws -> T) rethrows -> T {
            steps.append(label)
            return try work()
        }
        func note(_ text: String) { notes.append(text) }
        func diagnostic(_ text: String) { diagnostics.append(text) }
    }

    static func setUp(_ name: String) throws -> (dir: URL, book: String, cache: ListingCache) {
        let (book, cache) = try ListingCacheTests.setUp(name)
        return (URL(fileURLWithPath: book).deletingLastPathComponent(), book, cache)
    }

    @Test func aFileIsServedThroughTheCacheAndSeveralNameTheirSources() throws {
        let (dir, book, cache) = try Self.setUp("sources-open")
        let config = ListingCacheTests.configuration()
        _ = try cache.save(book: book, configuration: config)
        let recorder = Recorder()
        let opened = try cache.open(paths: [book], configuration: config, observer: recorder)
        #expect(opened.origin == .saved && opened.listing is SavedList && opened.sources == nil)

        let other = dir.appendingPathComponent("other.vcf")
        var zed = Contact(id: "zed")
        zed.givenName = "Zed"
        zed.emails = [LabeledValue(value: "zed@example.org")]
        try Data(ListingCacheTests.vcf([zed]).utf8).write(to: other)
        let two = try cache.open(paths: [book, other.path], configuration: config, namesSources: true)
        #expect(two.listing is ContactsDataSource)
        #expect(two.sources?.source(of: "zed") == .file(other.path))
        // Without naming sources, several are one saved-list book.
        let merged = try cache.open(paths: [book, other.path], configuration: config)
        #expect(merged.listing is CompactContactList && merged.sources == nil)
    }

    @Test func theSampleAndAGroupAreReadWhole() throws {
        let (_, book, cache) = try Self.setUp("sources-whole")
        let config = ListingCacheTests.configuration()
        let sample = try cache.open(paths: [], configuration: config)
        #expect(sample.listing is ContactsDataSource && sample.listing.rowCount > 0)
        #expect(throws: GroupError.self) {
            try cache.open(paths: [book], configuration: config, group: "No Such Group")
        }
    }

    @Test func whatFailsIsTypedForTheFrontEnd() throws {
        let (dir, _, cache) = try Self.setUp("sources-errors")
        let config = ListingCacheTests.configuration()
        let missing = dir.appendingPathComponent("missing.vcf").path
        #expect(throws: ContactsCoreError.noSuchFile(path: missing)) {
            try cache.open(paths: [missing], configuration: config)
        }
        let junk = dir.appendingPathComponent("junk.vcf")
        try Data("garbage\nmore garbage\n".utf8).write(to: junk)
        let recorder = Recorder()
        #expect(throws: ContactsCoreError.nothingRead(source: junk.path)) {
            try cache.open(paths: [junk.path], configuration: config, observer: recorder)
        }
        #expect(!recorder.diagnostics.isEmpty && recorder.diagnostics[0].contains("junk.vcf:1:1: expected BEGIN:VCARD"))
        #expect(ContactsCoreError.nothingRead(source: "-").description == "no vCard could be read from <stdin>")
        #expect(throws: ContactsCoreError.nothingRead(source: junk.path)) {
            try ListingCache.readBook([junk.path])
        }
    }

    /// A pipe is read as a compact list of rows; a caller that needs the cards (query, vcard, pick) gets
    /// the book read whole, whose contacts it can look up.
    @Test func aPipeIsReadWholeWhenItsContactsAreNeeded() throws {
        let (dir, book, cache) = try Self.setUp("sources-pipe")
        let config = ListingCacheTests.configuration()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: book))
        func throughFIFO(needsContacts: Bool) throws -> ListingCache.Opened {
            let fifo = dir.appendingPathComponent("fifo-\(needsContacts)").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let writer = Thread {
                if let handle = FileHandle(forWritingAtPath: fifo) {
                    handle.write(bytes)
                    try? handle.close()
                }
            }
            writer.start()
            #expect(ContactSource.isStream(fifo))
            return try cache.open(paths: [fifo], configuration: config, needsContacts: needsContacts)
        }
        let rows = try throughFIFO(needsContacts: false)
        #expect(rows.listing is CompactContactList)
        #expect(throws: SelectionError.contactsUnavailable) { try rows.contacts.contacts(ids: ["felipe"]) }
        let whole = try throughFIFO(needsContacts: true)
        #expect(whole.listing is ContactsDataSource)
        #expect(try whole.contacts.contacts(ids: ["felipe"])["felipe"]?.givenName == "Felipe")
    }
}
