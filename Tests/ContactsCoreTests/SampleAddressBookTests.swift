import Foundation
import PackageResources
import Testing

@testable import ContactsCore

@Suite struct SampleAddressBookTests {
    @Test func loadsCleanly() throws {
        let b = try AddressBook.sample()
        #expect(b.diagnostics.isEmpty)
        #expect((280...320).contains(b.contacts.count))
        #expect(Set(b.contacts.map(\.id)).count == b.contacts.count)
        for c in b.contacts {
            #expect(b.contact(id: c.id) == c)
            for e in c.emails { #expect(e.value.hasSuffix(".example.com") || e.value.contains("@example.")) }
        }
    }

    @Test func coversScriptsAndShapes() throws {
        let b = try AddressBook.sample()
        let names = b.contacts.map(\.displayName).joined()
        let ranges: [(String, ClosedRange<UInt32>)] = [
            ("Latin with diacritics", 0x00C0...0x024F), ("Cyrillic", 0x0400...0x04FF), ("Greek", 0x0370...0x03FF),
            ("Arabic", 0x0600...0x06FF), ("Hebrew", 0x0590...0x05FF), ("Han", 0x4E00...0x9FFF),
            ("Hiragana", 0x3040...0x309F), ("Hangul", 0xAC00...0xD7AF), ("Thai", 0x0E00...0x0E7F),
            ("Devanagari", 0x0900...0x097F),
        ]
        for (script, range) in ranges {
            #expect(names.unicodeScalars.contains { range.contains($0.value) }, "no \(script) name in the sample")
        }
        // Simplified and Traditional Han both present.
        #expect(names.contains("张") && names.contains("陳"))
        #expect(b.contacts.contains { !$0.phoneticGivenName.isEmpty && $0.sortAs != nil })
        #expect(b.contacts.filter { !$0.hasName && $0.phones.isEmpty }.count >= 5, "email-only contacts")
        #expect(b.contacts.filter { !$0.hasName && $0.emails.isEmpty }.count >= 5, "phone-only contacts")
        #expect(b.contacts.contains { $0.phones.count >= 2 && Set($0.phones.map(\.label)).count >= 2 })
        #expect(b.contacts.contains { $0.emails.contains { if case .custom = $0.label { true } else { false } } })
        #expect(b.contacts.filter { !$0.nickname.isEmpty }.count >= 10)
        #expect(b.contacts.filter { !$0.organization.isEmpty }.count >= 20)
        #expect(b.contacts.filter { $0.photo != nil }.count >= 3)
        #expect(b.groups.filter { $0.kind == .card }.count >= 3)
        #expect(b.groups.filter { $0.kind == .category }.count >= 3)
        // Duplicates: the same formatted name on two cards.
        let names2 = b.contacts.map(\.formattedName).filter { !$0.isEmpty }
        #expect(names2.count - Set(names2).count >= 5)
        // Every member of a group card is a contact of the book.
        for g in b.groups where g.kind == .card { for m in g.memberIDs { #expect(b.contact(id: m) != nil) } }
    }

    @Test func everyPhoneHasAnE164Form() throws {
        for c in try AddressBook.sample().contacts {
            for p in c.phones { #expect(PhoneNumber.parse(p.value, region: "US").e164 != nil, "\(p.value)") }
        }
    }

    @Test func unreadableFileThrows() {
        let missing = URL(fileURLWithPath: "/nonexistent/dir/contacts.vcf")
        #expect(throws: ContactsCoreError.self) { try AddressBook(contentsOf: missing) }
        do {
            _ = try AddressBook(contentsOf: missing)
        } catch {
            #expect("\(error)".hasPrefix("cannot read /nonexistent/dir/contacts.vcf: "))
        }
    }

    @Test func roundTrips() throws {
        let b = try AddressBook.sample()
        #expect(AddressBook(data: VCardWriter.data(for: b), fileName: "s.vcf") == b)
    }
}

@Suite("Resource lookup without Bundle.module")
struct ResourceLookupTests {
    @Test("the sample address book is found in the bundle SwiftPM built")
    func sampleIsInTheBuiltBundle() throws {
        let url = try #require(
            ResourceFolder.find(
                bundle: "ContactsSelection_ContactsCore", folder: "sample.vcf",
                source: URL(fileURLWithPath: "/nonexistent/sample.vcf")))
        #expect(url.path.contains("ContactsSelection_ContactsCore.resources"))
        #expect(try AddressBook.sample().contacts.count > 250)
    }

    @Test("a resource that is nowhere is nil (AddressBook.sample() then throws missingResource), not a trap")
    func missingIsNil() {
        #expect(
            ResourceFolder.find(
                bundle: "ContactsSelection_NoSuchTarget", folder: "sample.vcf",
                source: URL(fileURLWithPath: "/nonexistent/sample.vcf")) == nil)
    }
}
