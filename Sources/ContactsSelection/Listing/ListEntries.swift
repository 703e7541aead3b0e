import Collation
import ContactsCore
import Foundation
import Locales

/// What a list keeps of a contact: its names as the list shows and sorts them and the fields a search
/// looks at. Made once, where the contact is at hand (by ``ContactsDataSource`` from its contacts, or on
/// the reading thread of a streamed file by ``CompactContactList``, which then lets the contact go).
struct ListEntry: Sendable {
    var id: String
    /// ``ContactsDataSource/names(of:order:preferNicknames:)``.
    var displayName: String
    /// ``ContactsDataSource/names(of:order:preferNicknames:)``.
    var sortName: String
    var hasName: Bool
    /// The other name a search finds the contact by: the nickname, or the contact's name and reading when
    /// the nickname is shown (empty when it is the name shown).
    var otherName: String
    /// A Japanese name (``NameOrder/isJapanese(_:language:)``): its Han characters are not read as Pinyin.
    var isJapanese: Bool
    /// For a Japanese or Korean name: its parts as separate words ("渡辺 大輔", "김 민준"), so that a keyword
    /// search finds the given name too (in kanji, or romanized as one word: "minjun"); empty otherwise.
    var nameWords: String
    var organization: String
    /// Every email, in the card's order.
    var emails: [String]
    /// Its textable phones (`Contact.textablePhones`: no fax or pager): positions in the phone keys of its
    /// segment of `ListEntries`.
    var phones: Range<Int32>
    /// `contactEnabledValidation`'s answer, where it was asked while the contact was at hand (else true).
    var enabled = true
    /// The one country of the contact's addresses (`Contact.addressRegion`), for its phones not valid in the
    /// list's region; nil when it has none or no phone.
    var addressRegion: String?

    init(_ contact: Contact, order: NameSortOrder, preferNicknames: Bool, phones: Range<Int32>) {
        id = contact.id
        (displayName, sortName) = ContactsDataSource.names(of: contact, order: order, preferNicknames: preferNicknames)
        hasName = contact.hasName
        let nickname = NameOrder.trimmed(contact.nickname)
        if preferNicknames && nickname == displayName {
            // The nickname is shown: the name, and its reading, are what else the contact is found by.
            let name = ContactsDataSource.names(of: contact, order: order, preferNicknames: false)
            otherName = name.sort == name.display ? name.display : name.display + " " + name.sort
        } else {
            otherName = nickname
        }
        if otherName == displayName { otherName = "" }
        // Only a name with a character from U+3000 up (Han, kana, Hangul: UTF-8 lead byte E3 or more) can be
        // Japanese or Korean: other names need no closer look.
        let mayBeCJK = displayName.utf8.contains { $0 >= 0xE3 } || otherName.utf8.contains { $0 >= 0xE3 }
        isJapanese =
            mayBeCJK
            && NameOrder.isJapanese(
                [
                    contact.familyName, contact.givenName, contact.middleName, contact.phoneticFamilyName,
                    contact.phoneticGivenName, contact.formattedName,
                ] + contact.sortAsComponents, language: contact.languages.first)
        nameWords =
            mayBeCJK && (isJapanese || SearchFolding.containsHangul(contact.familyName + contact.givenName))
            ? [contact.familyName, contact.middleName, contact.givenName].map(NameOrder.trimmed).filter { !$0.isEmpty }
                .joined(separator: " ") : ""
        organization = contact.organization
        emails = contact.emails.map(\.value)
        self.phones = phones
        addressRegion = phones.isEmpty || contact.addresses.isEmpty ? nil : contact.addressRegion
    }
}

/// The entries of a list and their phones, in segments: one per piece of a streamed file (joined without
/// copying a single entry), or one for a list made from contacts. Entry n of the list is in the segment
/// whose range of entry numbers holds n; its phones are `phoneKeys` of that segment.
struct ListEntries: Sendable {
    private struct Segment: Sendable {
        var entries: [ListEntry] = []
        /// Each entry's first phone is normalized (the list needs it for the row's value and duplicates);
        /// the others may be pending until a search index needs their digits.
        var phoneKeys: [PhoneKey] = []
    }
    private var segments: [Segment] = [Segment()]
    /// `segments.count + 1` entry numbers: segment k holds entries `starts[k]..<starts[k + 1]`.
    private var starts: [Int] = [0, 0]
    /// The region pending phones are normalized with.
    let region: String

    init(region: String) { self.region = region }

    /// The entries of `contacts` (same order); every phone normalized with `region` by the phone-region
    /// rule in one batch, each distinct text once and on all cores (`PhoneKey.make(phonesOf:region:)`).
    init(contacts: [Contact], order: NameSortOrder, region: String, preferNicknames: Bool = false) {
        self.region = region
        var segment = Segment(phoneKeys: PhoneKey.make(phonesOf: contacts, region: region))
        segment.entries.reserveCapacity(contacts.count)
        var next: Int32 = 0
        for contact in contacts {
            let end = next + Int32(contact.phones.lazy.filter(\.label.receivesTextMessages).count)
            segment.entries.append(
                ListEntry(contact, order: order, preferNicknames: preferNicknames, phones: next..<end))
            next = end
        }
        segments = [segment]
        starts = [0, contacts.count]
    }

    /// The pieces of a file, in order, as one list (their entries are not copied).
    init(joining pieces: [ListEntries], region: String) {
        self.region = region
        segments = pieces.flatMap(\.segments).filter { !$0.entries.isEmpty }
        if segments.isEmpty { segments = [Segment()] }
        starts = [0]
        for segment in segments { starts.append(starts[starts.count - 1] + segment.entries.count) }
    }

    var count: Int { starts[starts.count - 1] }

    /// The segment of entry `n` and its position there.
    @inline(__always)
    private func locate(_ n: Int) -> (segment: Int, position: Int) {
        if segments.count == 1 { return (0, n) }
        var low = 0
        var high = segments.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= n { low = mid } else { high = mid - 1 }
        }
        return (low, n - starts[low])
    }

    subscript(n: Int) -> ListEntry {
        _read {
            let (k, i) = locate(n)
            yield segments[k].entries[i]
        }
    }

    /// Calls `body` with every entry and its number, in order.
    func forEachEntry(_ body: (Int, borrowing ListEntry) -> Void) {
        for k in segments.indices {
            for i in segments[k].entries.indices { body(starts[k] + i, segments[k].entries[i]) }
        }
    }

    /// Appends an entry whose phones are already in the last segment (tests; `append(_:order:preferNicknames:enabled:)`).
    mutating func append(_ entry: ListEntry) {
        segments[segments.count - 1].entries.append(entry)
        starts[starts.count - 1] += 1
    }

    /// Appends one contact (for a reading thread that lets the contact go right after): its first phone
    /// normalized, the others pending.
    mutating func append(_ contact: Contact, order: NameSortOrder, preferNicknames: Bool, enabled: Bool) {
        let last = segments.count - 1
        let start = Int32(segments[last].phoneKeys.count)
        let textable = contact.textablePhones
        let end = start + Int32(textable.count)
        var entry = ListEntry(contact, order: order, preferNicknames: preferNicknames, phones: start..<end)
        for (k, phone) in textable.enumerated() {
            segments[last].phoneKeys.append(
                k == 0
                    ? PhoneKey.make(phone.value, region: region, addressRegion: entry.addressRegion)
                    : .pending(phone.value))
        }
        entry.enabled = enabled
        append(entry)
    }

    mutating func setID(_ id: String, of n: Int) {
        let (k, i) = locate(n)
        segments[k].entries[i].id = id
    }

    /// The first phone of entry `n` (always normalized).
    func firstPhone(of n: Int) -> PhoneKey? {
        let (k, i) = locate(n)
        let range = segments[k].entries[i].phones
        return range.isEmpty ? nil : segments[k].phoneKeys[Int(range.lowerBound)]
    }

    /// The phones of entry `n`, pending ones normalized now.
    func phones(of n: Int) -> [PhoneKey] {
        let (k, i) = locate(n)
        let range = segments[k].entries[i].phones
        let country = segments[k].entries[i].addressRegion
        return segments[k].phoneKeys[Int(range.lowerBound)..<Int(range.upperBound)].map {
            $0.resolved(region: region, addressRegion: country)
        }
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
    /// The contacts left out only for want of the mode's channel that the other one reaches (in messages
    /// mode: no textable phone but an email; in email mode: no email but a textable phone).
    var otherChannelCount = 0

    init(_ list: ListEntries, mode: SelectionMode, skipUnnamed: Bool, collation: LocalizedCollation) {
        struct Candidate {
            var entry: Int32
            var channel: Channel
            var value: String
        }
        // Duplicates: same display name and same first phone (E.164) or same first email; found by hash,
        // so that a million entries allocate no small object each.
        func channelKey(_ n: Int, _ e: ListEntry) -> String {
            if mode != .email, let phone = list.firstPhone(of: n)?.dedupKey, !phone.isEmpty { return phone }
            return e.emails.first?.lowercased() ?? ""
        }
        var seen: [Int: Int] = [:]  // hash → candidate number
        var seenCollisions = Set<String>()
        var candidates: [Candidate] = []
        candidates.reserveCapacity(list.count)
        list.forEachEntry { n, e in
            let hasPhone = !e.phones.isEmpty
            let hasEmail = !e.emails.isEmpty
            if mode == .messages && !hasPhone {
                skipped.append((e.id, .noPhone))
                if hasEmail { otherChannelCount += 1 }
                return
            }
            if mode == .email && !hasEmail {
                skipped.append((e.id, .noEmail))
                if hasPhone { otherChannelCount += 1 }
                return
            }
            if !hasPhone && !hasEmail {
                skipped.append((e.id, .noPhoneOrEmail))
                return
            }
            if skipUnnamed && !e.hasName {
                skipped.append((e.id, .unnamed))
                return
            }
            let key = channelKey(n, e)
            var hasher = Hasher()
            hasher.combine(e.displayName)
            hasher.combine(key)
            let hash = hasher.finalize()
            if let other = seen[hash] {
                let on = Int(candidates[other].entry)
                let o = list[on]
                if o.displayName == e.displayName && channelKey(on, o) == key
                    || !seenCollisions.insert(e.displayName + "\u{1}" + key).inserted
                {
                    skipped.append((e.id, .duplicate))
                    return
                }
            } else {
                seen[hash] = candidates.count
            }
            if mode.contains(.messages), let phone = list.firstPhone(of: n) {
                candidates.append(Candidate(entry: Int32(n), channel: .message, value: phone.e164 ?? phone.raw))
            } else {
                candidates.append(Candidate(entry: Int32(n), channel: .email, value: e.emails.first ?? ""))
            }
        }
        seen = [:]
        // Section candidate numbers (no copies of entries while sorting).
        let sectioned = collation.sections(Array(candidates.indices)) { list[Int(candidates[$0].entry)].sortName }
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
