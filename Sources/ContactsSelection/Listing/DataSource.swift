import Collation
import ContactsCore
import Foundation
import ICUKit
import Locales
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
    /// The contact's name (`Contact.displayName`, the same whoever reads it), never with stray spaces;
    /// the nickname with ``Configuration/preferNicknames``; for unnamed contacts the first email or phone.
    public let displayName: String
    /// What the list sorts and sections by: the name shown (its reading: sort-as/phonetic when present).
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
    /// The extended or fuzzy query that made it (lets the next keystroke refine this result too).
    var pattern: (pattern: SearchPattern, keywords: Bool, fuzzy: Bool)? = nil

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
    /// The region phones without a country code were read with (``Configuration/phoneRegion``, else the
    /// package's rule); nil when there was none (such numbers are then shown as written).
    public var phoneRegion: String? { region == "ZZ" ? nil : region }
    /// The region phones are read with, "ZZ" when none.
    let region: String
    /// Rows in list order.
    public let rows: [ContactRow]
    /// The non-empty sections of the full list (index order, `#` last).
    public let sections: [RowSection]
    /// The full index bar.
    public let indexTitles: [String]
    public let pinnedRows: [PinnedRow]
    /// Contacts left out at load, and why (no channel value, unnamed, duplicate).
    public let skipped: [(id: String, reason: SkipReason)]
    /// ``ContactListing/otherChannelCount``.
    public let otherChannelCount: Int

    public enum SkipReason: String, Sendable {
        /// No phone that takes text messages (a fax or pager number is none: `Contact.textablePhones`).
        case noPhone = "no phone number for text messages"
        case noEmail = "no email address"
        case noPhoneOrEmail = "no phone number for text messages or email address"
        case unnamed = "no name"
        case duplicate = "duplicate"
    }

    /// The search keys, built on the first search that needs them (a plain listing never does).
    private let lazyIndex: LazySearchIndex
    var index: SearchIndex { lazyIndex.index }
    let rowByID: [String: Int]

    public convenience init(contacts: [Contact], configuration: Configuration = Configuration()) throws {
        let collation = try LocalizedCollation(locales: configuration.locales)
        try self.init(contacts: contacts, configuration: configuration, collation: collation)
    }

    public init(contacts input: [Contact], configuration: Configuration, collation: LocalizedCollation) throws {
        self.configuration = configuration
        self.locale = collation.locale
        region = configuration.resolvedPhoneRegion
        let contacts = configuration.willLoadItems?(input) ?? input
        let list = ListEntries(
            contacts: contacts, order: configuration.nameSortOrder, region: region,
            preferNicknames: configuration.preferNicknames)
        let arrangement = ListArrangement(
            list, mode: configuration.mode, skipUnnamed: configuration.skipUnnamedContacts, collation: collation)
        let store = ContactStore(contacts)
        var rows: [ContactRow] = []
        rows.reserveCapacity(arrangement.order.count)
        for (r, n) in arrangement.order.enumerated() {
            let entry = list[Int(n)]
            rows.append(
                ContactRow(
                    store: store, position: Int(n), displayName: entry.displayName, sortName: entry.sortName,
                    section: arrangement.sections[Int(arrangement.sectionOfRow[r])].title,
                    enabled: configuration.contactEnabledValidation?(contacts[Int(n)]) ?? true,
                    channel: arrangement.channels[r], value: arrangement.values[r]))
        }
        self.rows = rows
        self.sections = arrangement.sections
        self.indexTitles = collation.indexTitles
        self.pinnedRows = configuration.pinnedRows
        self.skipped = arrangement.skipped
        otherChannelCount = arrangement.otherChannelCount
        var byID: [String: Int] = [:]
        byID.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() where byID[row.id] == nil { byID[row.id] = i }
        rowByID = byID
        lazyIndex = LazySearchIndex(list: list, arrangement: arrangement, folding: try SearchFolding())
    }

    /// The row of a contact id, if it is listed.
    public func row(id: String) -> ContactRow? { rowByID[id].map { rows[$0] } }

    /// Row number of a contact id in `rows`.
    public func rowNumber(id: String) -> Int? { rowByID[id] }

    /// Searches the list. Plain: the folded query is a substring of the name (or of the nickname,
    /// organization, Pinyin, initials, emails, phone digits). Keywords: every query token is a prefix of
    /// some token of the contact, in any order. A query of only spaces or punctuation lists everyone.
    /// `previous`, when its query is narrowed by this one, is filtered instead of the whole list. Words match
    /// in any order; fzf's extended syntax (``SearchPattern``) and, with `fuzzy`, fuzzy matching ranked
    /// best first (``FuzzyScore``) apply.
    public func search(
        _ query: String, keywords: Bool? = nil, fuzzy: Bool = false, refining previous: SearchResult? = nil
    ) -> SearchResult {
        lazyIndex.search(
            query, keywords: keywords ?? configuration.searchByKeywords, fuzzy: fuzzy, previous: previous,
            rowCount: rows.count, sections: sections)
    }

    /// The rows of a section of a search result (or of the full list when `result` is nil).
    public func rows(in section: RowSection, of result: SearchResult? = nil) -> [ContactRow] {
        if let result { return result.rowNumbers[section.range].map { rows[Int($0)] } }
        return Array(rows[section.range])
    }

    // MARK: - Names

    /// The list's one name rule, shared by ``ContactsDataSource``, ``CompactContactList`` and saved lists:
    /// the contact's ``Contact/displayName`` (the nickname with `preferNicknames`), and what the row sorts
    /// and sections by — the name shown: the nickname when it is shown, else sort-as / phonetic reading,
    /// else the name parts in the sort order. A nickname that is not shown never decides the row's place.
    static func names(of contact: Contact, order: NameSortOrder, preferNicknames: Bool) -> (
        display: String, sort: String
    ) {
        let display = contact.displayName(preferringNickname: preferNicknames)
        if preferNicknames && !NameOrder.trimmed(contact.nickname).isEmpty { return (display, display) }
        if let sortAs = contact.sortAs.map(NameOrder.trimmed), !sortAs.isEmpty {
            return (display, sortAs)
        }
        let phonetic = PersonName(given: contact.phoneticGivenName, family: contact.phoneticFamilyName)
        if !phonetic.isEmpty { return (display, NameOrder.sortString(phonetic, by: order)) }
        let parts = PersonName(given: contact.givenName, middle: contact.middleName, family: contact.familyName)
        if !parts.isEmpty && !NameOrder.isCJK(contact.familyName + contact.givenName) {
            return (display, NameOrder.sortString(parts, by: order))
        }
        return (display, display)
    }
}

/// A search index built once, on first use, from what a list computed at load. A query that cannot match
/// phone digits is first answered by an index of the rows' text parts, which is quicker to build (no phone
/// normalized for it); the full index replaces it when a query needs the phones.
final class LazySearchIndex: Sendable {
    private struct Inputs: Sendable {  // dropped once the full index is built
        var list: ListEntries
        var order: [Int32]
        var sectionOfRow: [UInt16]
        var sectionTitles: [String]
        var folding: SearchFolding

        func build(phones: Bool) -> SearchIndex {
            SearchIndex(
                list: list, order: order, sectionOfRow: sectionOfRow, sectionTitles: sectionTitles, folding: folding,
                phones: phones)
        }
    }
    private struct State: Sendable {
        var inputs: Inputs?
        var index: SearchIndex?
        var textIndex: SearchIndex?
    }
    private let state: Mutex<State>

    init(list: ListEntries, arrangement: ListArrangement, folding: SearchFolding) {
        state = Mutex(
            State(
                inputs: Inputs(
                    list: list, order: arrangement.order, sectionOfRow: arrangement.sectionOfRow,
                    sectionTitles: arrangement.sections.map(\.title), folding: folding)))
    }

    /// The full index (built now if needed).
    var index: SearchIndex {
        state.withLock { s in
            if let index = s.index { return index }
            let index = s.inputs!.build(phones: true)
            s = State(index: index)
            return index
        }
    }

    /// An index that answers `query` exactly as the full one would.
    func index(for query: String) -> SearchIndex {
        guard SearchIndex.canAnswerWithoutPhones(query) else { return index }
        return state.withLock { s in
            if let index = s.index ?? s.textIndex { return index }
            let index = s.inputs!.build(phones: false)
            s.textIndex = index
            return index
        }
    }

    /// A list's answer to `query` (an empty query lists everyone, in `sections` of `rowCount` rows).
    func search(
        _ query: String, keywords: Bool, fuzzy: Bool = false, previous: SearchResult?, rowCount: Int,
        sections: [RowSection]
    ) -> SearchResult {
        if query.isEmpty {
            return .everyone(query: query, rowCount: rowCount, sections: sections, keywords: keywords)
        }
        return index(for: query).search(query, keywords: keywords, fuzzy: fuzzy, previous: previous)
    }
}
