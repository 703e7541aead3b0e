import Collation
import ContactsCore
import Foundation
import Locales

/// What a list keeps of a contact: its names as the list shows and sorts them and the fields a search
/// looks at. Made once, where the contact is at hand (by ``ContactsDataSource`` from its contacts, or on
/// the reading thread of a streamed file by ``CompactContactList``, which then lets the contact go).
struct ListEntry: Sendable {
    var id: String
    /// ``ContactsDataSource/displayName(of:locale:)``.
    var displayName: String
    /// ``ContactsDataSource/sortName(of:displayName:order:)``.
    var sortName: String
    var hasName: Bool
    var nickname: String
    var organization: String
    /// Every email, in the card's order.
    var emails: [String]
    /// Its phones: `ListEntries.phoneKeys[phones]`.
    var phones: Range<Int32>
    /// `contactEnabledValidation`'s answer, where it was asked while the contact was at hand (else true).
    var enabled = true

    init(_ contact: Contact, locale: String, order: NameSortOrder, phones: Range<Int32>) {
        id = contact.id
        displayName = ContactsDataSource.displayName(of: contact, locale: locale)
        sortName = ContactsDataSource.sortName(of: contact, displayName: displayName, order: order)
        hasName = contact.hasName
        nickname = contact.nickname
        organization = contact.organization
        emails = contact.emails.map(\.value)
        self.phones = phones
    }
}

/// The entries of a list and their phones (one array for all: no array per contact).
struct ListEntries: Sendable {
    var entries: [ListEntry] = []
    /// Each entry's first phone is normalized (the list needs it for the row's value and duplicates);
    /// the others may be pending until a search index needs their digits.
    var phoneKeys: [PhoneKey] = []
    /// The region pending phones are normalized with.
    var region: String

    init(region: String) { self.region = region }

    /// The entries of `contacts` (same order); every phone normalized in one batch, each distinct text
    /// once and on all cores.
    init(contacts: [Contact], locale: String, order: NameSortOrder) {
        region = ContactsDataSource.region(for: locale)
        var raws: [String] = []
        raws.reserveCapacity(contacts.count * 2)
        for contact in contacts { for phone in contact.phones { raws.append(phone.value) } }
        phoneKeys = PhoneKey.make(raws, region: region)
        raws = []
        entries.reserveCapacity(contacts.count)
        var next: Int32 = 0
        for contact in contacts {
            let end = next + Int32(contact.phones.count)
            entries.append(ListEntry(contact, locale: locale, order: order, phones: next..<end))
            next = end
        }
    }

    /// Appends one contact (for a reading thread that lets the contact go right after): its first phone
    /// normalized, the others pending.
    mutating func append(_ contact: Contact, locale: String, order: NameSortOrder, enabled: Bool) {
        let start = Int32(phoneKeys.count)
        for (k, phone) in contact.phones.enumerated() {
            phoneKeys.append(k == 0 ? PhoneKey.make(phone.value, region: region) : .pending(phone.value))
        }
        var entry = ListEntry(contact, locale: locale, order: order, phones: start..<Int32(phoneKeys.count))
        entry.enabled = enabled
        entries.append(entry)
    }

    /// Appends the entries of the next piece of a file.
    mutating func append(contentsOf other: ListEntries) {
        let offset = Int32(phoneKeys.count)
        phoneKeys.append(contentsOf: other.phoneKeys)
        let start = entries.count
        entries.append(contentsOf: other.entries)
        guard offset != 0 else { return }
        for i in start..<entries.count {
            entries[i].phones = (entries[i].phones.lowerBound + offset)..<(entries[i].phones.upperBound + offset)
        }
    }

    /// The phones of `entry`, pending ones normalized now.
    func phones(of entry: ListEntry) -> [PhoneKey] {
        phoneKeys[Int(entry.phones.lowerBound)..<Int(entry.phones.upperBound)].map { $0.resolved(region: region) }
    }
}

/// The one rule that turns entries into a list: which contacts the mode lists (and why the others are
/// left out), duplicates, the value each row is reached at, and the order and sections of the locale's
/// collation. ``ContactsDataSource`` and ``CompactContactList`` are both built on it.
struct ListArrangement: Sendable {
    /// Entry numbers in list order.
    var order: [Int32] = []
    /// Per row: the channel and value it is reached at.
    var channels: [Channel] = []
    var values: [String] = []
    /// The non-empty sections (index order, `#` last) and each row's section number.
    var sections: [RowSection] = []
    var sectionOfRow: [UInt16] = []
    var skipped: [(id: String, reason: ContactsDataSource.SkipReason)] = []

    init(_ list: ListEntries, mode: SelectionMode, skipUnnamed: Bool, collation: LocalizedCollation) {
        let entries = list.entries
        struct Candidate {
            var entry: Int32
            var channel: Channel
            var value: String
        }
        // Duplicates: same display name and same first phone (E.164) or same first email; found by hash,
        // so that a million entries allocate no small object each.
        func channelKey(_ e: ListEntry) -> String {
            if mode != .email && !e.phones.isEmpty {
                let phone = list.phoneKeys[Int(e.phones.lowerBound)].dedupKey
                if !phone.isEmpty { return phone }
            }
            return e.emails.first?.lowercased() ?? ""
        }
        var seen: [Int: Int] = [:]  // hash → candidate number
        var seenCollisions = Set<String>()
        var candidates: [Candidate] = []
        candidates.reserveCapacity(entries.count)
        for (n, e) in entries.enumerated() {
            let hasPhone = !e.phones.isEmpty
            let hasEmail = !e.emails.isEmpty
            if mode == .messages && !hasPhone {
                skipped.append((e.id, .noPhone))
                continue
            }
            if mode == .email && !hasEmail {
                skipped.append((e.id, .noEmail))
                continue
            }
            if !hasPhone && !hasEmail {
                skipped.append((e.id, .noPhoneOrEmail))
                continue
            }
            if skipUnnamed && !e.hasName {
                skipped.append((e.id, .unnamed))
                continue
            }
            let key = channelKey(e)
            var hasher = Hasher()
            hasher.combine(e.displayName)
            hasher.combine(key)
            let hash = hasher.finalize()
            if let other = seen[hash] {
                let o = entries[Int(candidates[other].entry)]
                if o.displayName == e.displayName && channelKey(o) == key
                    || !seenCollisions.insert(e.displayName + "\u{1}" + key).inserted
                {
                    skipped.append((e.id, .duplicate))
                    continue
                }
            } else {
                seen[hash] = candidates.count
            }
            if mode.contains(.messages), hasPhone {
                let phone = list.phoneKeys[Int(e.phones.lowerBound)]
                candidates.append(Candidate(entry: Int32(n), channel: .message, value: phone.e164 ?? phone.raw))
            } else {
                candidates.append(Candidate(entry: Int32(n), channel: .email, value: e.emails.first ?? ""))
            }
        }
        seen = [:]
        // Section candidate numbers (no copies of entries while sorting).
        let sectioned = collation.sections(Array(candidates.indices)) { entries[Int(candidates[$0].entry)].sortName }
        order.reserveCapacity(candidates.count)
        channels.reserveCapacity(candidates.count)
        values.reserveCapacity(candidates.count)
        sectionOfRow.reserveCapacity(candidates.count)
        for (s, section) in sectioned.enumerated() {
            let start = order.count
            for c in section.items {
                order.append(candidates[c].entry)
                channels.append(candidates[c].channel)
                values.append(candidates[c].value)
                sectionOfRow.append(UInt16(truncatingIfNeeded: s))
            }
            sections.append(RowSection(title: section.title, range: start..<order.count))
        }
    }
}

extension PhoneKey {
    /// What duplicate detection compares: E.164, else the digits as written.
    var dedupKey: String { e164 ?? PhoneKey.digitsOnly(raw) }
}
