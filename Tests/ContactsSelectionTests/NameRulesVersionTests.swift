import ContactsCore
import Foundation
import SelectionFixtures
import TestSupport
import Testing

@testable import ContactsSelection

/// Issue 30 item 5: the name rules' version is part of a saved list's key, so a saved index made under
/// another name rule is rebuilt, never reused with its old names.
@Suite struct NameRulesVersionTests {
    @Test func theVersionIsInTheOptionsKey() {
        func key(_ version: Int) -> String {
            ContactsDataSource.savedListOptions(
                locales: ["en"], mode: .messages, skipUnnamed: false, sortOrder: .givenName, nameRules: version,
                region: "US")
        }
        #expect(key(ContactsDataSource.nameRulesVersion) != key(ContactsDataSource.nameRulesVersion + 1))
        #expect(key(ContactsDataSource.nameRulesVersion).contains("names=\(ContactsDataSource.nameRulesVersion)"))
        #expect(ContactsDataSource.region(inSavedListOptions: key(7)) == "US")
        var config = ListingCacheTests.configuration()
        config.locales = ["en"]
        #expect(
            ContactsDataSource.savedListOptions(config).contains(" names=\(ContactsDataSource.nameRulesVersion) "))
    }

    @Test func anIndexSavedUnderAnotherNameRuleIsNotReused() throws {
        let (path, cache) = try ListingCacheTests.setUp("name-rules-version")
        let config = ListingCacheTests.configuration()
        let (_, indexPath) = try cache.save(book: path, configuration: config)
        #expect(try cache.open(book: path, configuration: config).origin == .saved)

        // The same index as a tool with the previous name rule saved it: only its rules version differs.
        let current = "names=\(ContactsDataSource.nameRulesVersion) "
        let other = "names=\(ContactsDataSource.nameRulesVersion + 1) "
        #expect(current.utf8.count == other.utf8.count)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: indexPath)))
        let at = try #require(bytes.firstRange(of: Array(current.utf8)))
        bytes.replaceSubrange(at, with: Array(other.utf8))
        try Data(bytes).write(to: URL(fileURLWithPath: indexPath))

        let opened = try cache.open(book: path, configuration: config)
        #expect(opened.origin == .read)
        #expect(opened.notes.count == 1 && opened.notes[0].contains(other) && opened.notes[0].contains("rebuilding it"))
        // Rebuilt under the current rule, the index is used again.
        #expect(try cache.open(book: path, configuration: config).origin == .saved)
    }
}
