import Collation
import ContactsCore
import Foundation
import ICUKit
import Synchronization

/// The channel a row's value is for.
public enum Channel: String, Sendable, Hashable, Codable {
    case message
    case email
}

/// The contacts a list was loaded from, shared by its rows (a row refers to its contact instead of
/// holding a copy: copying a row then costs a few retains, not one per field of the contact).
final class ContactStore: Sendable {
    let contacts: [Contact]
    init(_ contacts: [Contact]) { self.contacts = contacts }
}

/// One contact as the list shows it: computed once at load.
public struct ContactRow: Sendable, Identifiable {
    private let store: ContactStore
    private let position: Int
    /// The contact (borrowed from the list's contacts, not copied, when only a field is read).
    public var contact: Contact {
        _read { yield store.contacts[position] }
    }
    public var id: String { contact.id }
    /// The name per the locale's name order, never with stray spaces; for unnamed contacts the first
    /// email or phone.
    public let displayName: String
    /// What the list sorts and sections by: nickname (remark name), else sort-as/phonetic, else the name.
    public let sortName: String
    /// The section title.
    public let section: String
    /// False when `contactEnabledValidation` rejected the contact.
    public let enabled: Bool
    /// The channel and value the row uses by default: the `pref` phone (E.164 when parseable) in
    /// messages mode, the `pref` email in email mode; in `.both` the phone when there is one.
    public let channel: Channel
    public let value: String

    init(
        store: ContactStore, position: Int, displayName: String, sortName: String, section: String, enabled: Bool,
        channel: Channel, value: String
    ) {
        self.store = store
        self.position = position
        self.displayName = displayName
        self.sortName = sortName
        self.section = section
        self.enabled = enabled
        self.channel = channel
        self.value = value
    }
}

/// The phones of every row in one array: row r's are `keys[ends[r-1]..<ends[r]]`.
struct PhoneTable: Sendable {
    var keys: [PhoneKey] = []
    var ends: [Int32] = []
    subscript(row: Int) -> ArraySlice<PhoneKey> {
        keys[(row == 0 ? 0 : Int(ends[row - 1]))..<Int(ends[row])]
    }
}

/// A run of rows under one title: positions into the list it belongs to.
public struct RowSection: Sendable, Hashable {
    public let title: String
    public let range: Range<Int>
}

/// Rows found by a search, sectioned like the full list.
public struct SearchResult: Sendable {
    public let query: String
    /// Row numbers (into `ContactsDataSource.rows`) in list order.
    public let rowNumbers: [Int32]
    /// Sections over `rowNumbers`.
    public let sections: [RowSection]
    public var count: Int { rowNumbers.count }
    /// The query as the index compared it (lets the next keystroke refine this result).
    let parsed: SearchIndex.Query?

    init(query: String, rowNumbers: [Int32], sections: [RowSection], parsed: SearchIndex.Query?) {
        self.query = query
        self.rowNumbers = rowNumbers
        self.sections = sections
        self.parsed = parsed
    }

    /// Every row in list order — the answer to an empty query — as the index would give it, without the
    /// index.
    static func everyone(query: String, rowCount: Int, sections: [RowSection], keywords: Bool) -> SearchResult {
        SearchResult(
            query: query, rowNumbers: Array(0..<Int32(rowCount)), sections: sections.filter { !$0.range.isEmpty },
            parsed: SearchIndex.Query(keywords: keywords, needles: [], digits: nil))
    }
}

/// The immutable list behind a selection: filtered by mode, de-duplicated, sorted and sectioned by the
/// locale's collation, with each row's search keys packed into one byte buffer so that every keystroke
/// is plain byte comparison (and incremental: a query that extends the previous one filters its result).
///
/// ```swift
/// let source = try ContactsDataSource(contacts: book.contacts, configuration: Configuration())
/// source.sections.map(\.title)            // ["A", "B", …, "#"]
/// let hits = source.search("f b", keywords: true)
/// hits.rowNumbers.map { source.rows[Int($0)].displayName }   // ["Bruno Finstein", "Felipe Baytelman"]
/// ```
public final class ContactsDataSource: Sendable {
    public let configuration: Configuration
    public let locale: String
    /// Rows in list order.
    public let rows: [ContactRow]
    /// The non-empty sections of the full list (index order, `#` last).
    public let sections: [RowSection]
    /// The full index bar.
    public let indexTitles: [String]
    public let pinnedRows: [PinnedRow]
    /// Contacts left out at load, and why (no channel value, unnamed, duplicate).
    public let skipped: [(id: String, reason: SkipReason)]

    public enum SkipReason: String, Sendable {
        case noPhone = "no phone number"
        case noEmail = "no email address"
        case noPhoneOrEmail = "no phone number or email address"
        case unnamed = "no name"
        case duplicate = "duplicate"
    }

    /// The search keys, built on the first search that needs them (a plain listing never does).
    private let lazyIndex: LazySearchIndex
    var index: SearchIndex { lazyIndex.index }
    let rowByID: [String: Int]

    public convenience init(contacts: [Contact], configuration: Configuration = Configuration()) throws {
        let collation = try LocalizedCollation(locale: configuration.locale)
        try self.init(contacts: contacts, configuration: configuration, collation: collation)
    }

    public init(contacts input: [Contact], configuration: Configuration, collation: LocalizedCollation) throws {
        self.configuration = configuration
        self.locale = collation.locale
        let region = Self.region(for: collation.locale)
        let contacts = configuration.willLoadItems?(input) ?? input
        let mode = configuration.mode

        struct Candidate {
            var index: Int  // into `contacts`
            var displayName: String
            var sortName: String
            var channel: Channel
            var value: String
            var phones: Range<Int>  // into `allPhones`
        }
        // Every contact's phones in one array, and duplicate detection by hash: loading a million contacts
        // then allocates (and later frees) no small object per contact.
        // Every contact's phones normalized in one batch (each distinct text once, on all cores): contact
        // i's keys are `allPhones[phoneStarts[i]..<phoneStarts[i + 1]]`.
        var phoneStarts: [Int] = []
        phoneStarts.reserveCapacity(contacts.count + 1)
        var raws: [String] = []
        raws.reserveCapacity(contacts.count * 2)
        for contact in contacts {
            phoneStarts.append(raws.count)
            for phone in contact.phones { raws.append(phone.value) }
        }
        phoneStarts.append(raws.count)
        let allPhones = PhoneKey.make(raws, region: region)
        raws = []
        var seen: [Int: Int] = [:]  // dedup hash → candidate number
        var seenCollisions = Set<String>()
        var candidates: [Candidate] = []
        candidates.reserveCapacity(contacts.count)
        var skipped: [(id: String, reason: SkipReason)] = []
        for (contactIndex, contact) in contacts.enumerated() {
            let hasPhone = !contact.phones.isEmpty
            let hasEmail = !contact.emails.isEmpty
            if mode == .messages && !hasPhone {
                skipped.append((contact.id, .noPhone))
                continue
            }
            if mode == .email && !hasEmail {
                skipped.append((contact.id, .noEmail))
                continue
            }
            if !hasPhone && !hasEmail {
                skipped.append((contact.id, .noPhoneOrEmail))
                continue
            }
            if configuration.skipUnnamedContacts && !contact.hasName {
                skipped.append((contact.id, .unnamed))
                continue
            }
            let phoneStart = phoneStarts[contactIndex]
            let phones = phoneStart..<phoneStarts[contactIndex + 1]
            let displayName = Self.displayName(of: contact, locale: collation.locale)
            // Duplicates: same display name and same first phone (E.164) or same first email.
            func channelKey(_ c: Contact, _ firstPhone: PhoneKey?) -> String {
                let phone = firstPhone.map { $0.e164 ?? PhoneKey.digitsOnly($0.raw) } ?? ""
                let email = c.emails.first?.value.lowercased() ?? ""
                return mode == .email ? email : (phone.isEmpty ? email : phone)
            }
            let key = channelKey(contact, phones.isEmpty ? nil : allPhones[phoneStart])
            var hasher = Hasher()
            hasher.combine(displayName)
            hasher.combine(key)
            let hash = hasher.finalize()
            if let other = seen[hash] {
                let o = candidates[other]
                let otherKey = channelKey(contacts[o.index], o.phones.isEmpty ? nil : allPhones[o.phones.lowerBound])
                if o.displayName == displayName && otherKey == key
                    || !seenCollisions.insert(displayName + "\u{1}" + key).inserted
                {
                    skipped.append((contact.id, .duplicate))
                    continue
                }
            } else {
                seen[hash] = candidates.count
            }
            let channel: Channel
            let value: String
            if mode.contains(.messages), let phone = phones.first.map({ allPhones[$0] }) {
                channel = .message
                value = phone.e164 ?? phone.raw
            } else {
                channel = .email
                value = contact.emails.first?.value ?? ""
            }
            candidates.append(
                Candidate(
                    index: contactIndex, displayName: displayName,
                    sortName: Self.sortName(of: contact, displayName: displayName, order: configuration.nameSortOrder),
                    channel: channel, value: value, phones: phones))
        }

        // Section candidate numbers (not the candidates themselves: no copies of contacts while sorting).
        let sectioned = collation.sections(Array(candidates.indices)) { candidates[$0].sortName }
        var rows: [ContactRow] = []
        rows.reserveCapacity(candidates.count)
        var sections: [RowSection] = []
        var phoneTable = PhoneTable()
        phoneTable.keys.reserveCapacity(allPhones.count)
        var sectionOfRow: [UInt16] = []
        sectionOfRow.reserveCapacity(candidates.count)
        let store = ContactStore(contacts)
        for (s, section) in sectioned.enumerated() {
            let start = rows.count
            for n in section.items {
                let c = candidates[n]
                let enabled = configuration.contactEnabledValidation?(contacts[c.index]) ?? true
                rows.append(
                    ContactRow(
                        store: store, position: c.index, displayName: c.displayName, sortName: c.sortName,
                        section: section.title, enabled: enabled, channel: c.channel, value: c.value))
                phoneTable.keys.append(contentsOf: allPhones[c.phones])
                phoneTable.ends.append(Int32(phoneTable.keys.count))
                sectionOfRow.append(UInt16(truncatingIfNeeded: s))
            }
            sections.append(RowSection(title: section.title, range: start..<rows.count))
        }
        self.rows = rows
        self.sections = sections
        self.indexTitles = collation.indexTitles
        self.pinnedRows = configuration.pinnedRows
        self.skipped = skipped
        var byID: [String: Int] = [:]
        byID.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() where byID[row.id] == nil { byID[row.id] = i }
        rowByID = byID
        lazyIndex = LazySearchIndex(
            rows: rows, phones: phoneTable, sectionOfRow: sectionOfRow, sectionTitles: sections.map(\.title),
            folding: try SearchFolding())
    }

    /// The row of a contact id, if it is listed.
    public func row(id: String) -> ContactRow? { rowByID[id].map { rows[$0] } }

    /// Row number of a contact id in `rows`.
    public func rowNumber(id: String) -> Int? { rowByID[id] }

    /// Searches the list. Plain: the folded query is a substring of the name (or of the nickname,
    /// organization, Pinyin, initials, emails, phone digits). Keywords: every query token is a prefix of
    /// some token of the contact, in any order. A query of only spaces or punctuation lists everyone.
    /// `previous`, when its query is narrowed by this one, is filtered instead of the whole list.
    public func search(_ query: String, keywords: Bool? = nil, refining previous: SearchResult? = nil) -> SearchResult {
        let keywords = keywords ?? configuration.searchByKeywords
        if query.isEmpty {
            return .everyone(query: query, rowCount: rows.count, sections: sections, keywords: keywords)
        }
        return index.search(query, keywords: keywords, previous: previous)
    }

    /// The rows of a section of a search result (or of the full list when `result` is nil).
    public func rows(in section: RowSection, of result: SearchResult? = nil) -> [ContactRow] {
        if let result { return result.rowNumbers[section.range].map { rows[Int($0)] } }
        return Array(rows[section.range])
    }

    // MARK: - Names

    /// The display name per the locale's name order; unnamed contacts show their first email or phone.
    static func displayName(of contact: Contact, locale: String) -> String {
        let parts = PersonName(
            prefix: contact.namePrefix, given: contact.givenName, middle: contact.middleName,
            family: contact.familyName, suffix: contact.nameSuffix)
        if !parts.isEmpty { return NameOrder.format(parts, locale: locale) }
        for candidate in [contact.formattedName, contact.nickname, contact.organization] {
            let trimmed = candidate.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { return trimmed }
        }
        return contact.emails.first?.value ?? contact.phones.first?.value ?? ""
    }

    /// Nickname (remark name) when present, else sort-as / phonetic, else the name in the sort order.
    static func sortName(of contact: Contact, displayName: String, order: NameSortOrder) -> String {
        let nickname = contact.nickname.trimmingCharacters(in: .whitespacesAndNewlines)
        if !nickname.isEmpty { return nickname }
        if let sortAs = contact.sortAs?.trimmingCharacters(in: .whitespacesAndNewlines), !sortAs.isEmpty {
            return sortAs
        }
        let phonetic = PersonName(given: contact.phoneticGivenName, family: contact.phoneticFamilyName)
        if !phonetic.isEmpty { return NameOrder.sortString(phonetic, by: order) }
        let parts = PersonName(given: contact.givenName, middle: contact.middleName, family: contact.familyName)
        if !parts.isEmpty && !NameOrder.isCJK(contact.familyName + contact.givenName) {
            return NameOrder.sortString(parts, by: order)
        }
        return displayName
    }

    /// The phone region of a locale: ``LocalePolicy/defaultRegion(for:)`` ("de" → "DE", "en" → "US").
    static func region(for locale: String) -> String { LocalePolicy.defaultRegion(for: locale) }
}

/// A search index built once, on first use, from what the data source computed at load.
final class LazySearchIndex: Sendable {
    private struct Inputs: Sendable {  // dropped once the index is built
        var rows: [ContactRow]
        var phones: PhoneTable
        var sectionOfRow: [UInt16]
        var sectionTitles: [String]
        var folding: SearchFolding
    }
    private let state: Mutex<(inputs: Inputs?, index: SearchIndex?)>

    init(
        rows: [ContactRow], phones: PhoneTable, sectionOfRow: [UInt16], sectionTitles: [String], folding: SearchFolding
    ) {
        state = Mutex(
            (
                Inputs(
                    rows: rows, phones: phones, sectionOfRow: sectionOfRow, sectionTitles: sectionTitles,
                    folding: folding), nil
            ))
    }

    var index: SearchIndex {
        state.withLock { s in
            if let index = s.index { return index }
            let i = s.inputs!
            let index = SearchIndex(
                rows: i.rows, phones: i.phones, sectionOfRow: i.sectionOfRow, sectionTitles: i.sectionTitles,
                folding: i.folding)
            s = (nil, index)
            return index
        }
    }
}
