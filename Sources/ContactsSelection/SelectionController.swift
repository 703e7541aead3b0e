import Collation
import ContactsCore
import Foundation

/// Errors of the selection layer.
public enum SelectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No listed row has this contact id (filtered out by the mode, a duplicate, or unknown).
    case unknownContact(id: String)
    /// `contactEnabledValidation` rejected this contact.
    case disabled(id: String)
    /// The value is not one of the contact's phones/emails for the row's channel.
    case invalidValue(id: String, value: String)
    /// No row has this number.
    case unknownRow(Int)
    /// The contact of a listed row was not found by its id (the book changed since it was listed).
    case contactNotFound(id: String)
    /// The selection was made without a way to look contacts up (``ContactLookup/unavailable``).
    case contactsUnavailable
    /// The list cannot be made for the locale (its collation or the list's options failed).
    case unusableLocale(locale: String, reason: String)
    /// The embedded sample address book could not be loaded.
    case sampleUnavailable(reason: String)

    public var description: String {
        switch self {
        case .unknownContact(let id): return "contact '\(id)' is not in the list"
        case .disabled(let id): return "contact '\(id)' is disabled and cannot be selected"
        case .invalidValue(let id, let value): return "contact '\(id)' has no phone or email '\(value)'"
        case .unknownRow(let number): return "row \(number) is not in the list"
        case .contactNotFound(let id): return "contact '\(id)' is no longer in the address book"
        case .contactsUnavailable: return "the contacts of this list cannot be looked up"
        case .unusableLocale(let locale, let reason): return "cannot use locale '\(locale)': \(reason)"
        case .sampleUnavailable(let reason): return "cannot load the sample address book: \(reason)"
        }
    }
}

/// A change of the selection, as observers and `events()` streams receive it.
public enum SelectionEvent: Sendable, Equatable {
    /// A row was selected (its id, name, value; the contact is ``SelectionController/contacts``' to look up).
    case didSelect(ListedRow)
    case didRemove(ListedRow)
}

/// The logic of KBContactsSelection (an iOS view controller that searches the address book and selects
/// contacts for Mail or Messages) without the UI: configuration, the sectioned list, search as the user types,
/// a selection kept across searches, events, and the value each contact is reached at. It works over any
/// ``ContactListing`` — a ``ContactsDataSource`` in memory, a ``CompactContactList`` or a ``SavedList`` of a
/// million rows — by row number and id; `Contact` values are looked up (``ContactLookup``) only for what
/// needs the whole card: the values to choose from, and composing. The select action (a custom handler, or
/// drafts for the composer) is in the `Campaigns` module.
///
/// ```swift
/// let selection = try SelectionController(contacts: book.contacts) { config in
///     config.mode = .email
///     config.searchByKeywords = true
/// }
/// selection.search("f b")
/// selection.selectAll()
/// selection.selectedRows.map(\.displayName)   // ["Bruno Finstein", "Felipe Baytelman"]
/// ```
public final class SelectionController {
    /// The rows the selection is over.
    public let listing: any ContactListing
    /// The configuration the listing was made with.
    public let configuration: Configuration
    /// Where the selected rows' contacts come from when they are needed.
    public let contacts: ContactLookup
    /// The listing, when it is a ``ContactsDataSource`` (contacts in memory).
    public var dataSource: ContactsDataSource? { listing as? ContactsDataSource }
    /// The current query and what it shows.
    public private(set) var query = ""
    public private(set) var result: SearchResult

    /// The rule that disables rows beyond the listing's own `enabled`.
    private let enabled: (@Sendable (ListedRow) -> Bool)?
    /// Selected row numbers (a row number is stable for the listing's life, so list order is number order),
    /// each with when it was selected (a count that only grows: selection order is its order).
    private var selected: [Int32: Int] = [:]
    private var selections = 0
    private var chosenValues: [Int32: (channel: Channel, value: String)] = [:]
    private var observers: [UUID: (SelectionEvent) -> Void] = [:]
    private var continuations: [UUID: AsyncStream<SelectionEvent>.Continuation] = [:]

    /// Builds the list in the KB style: a configuration closure, then the data source.
    public convenience init(contacts: [Contact], configure: (inout Configuration) -> Void = { _ in }) throws {
        var configuration = Configuration()
        configure(&configuration)
        self.init(dataSource: try ContactsDataSource(contacts: contacts, configuration: configuration))
    }

    /// A selection over contacts in memory.
    public convenience init(dataSource: ContactsDataSource) {
        self.init(listing: dataSource, configuration: dataSource.configuration, contacts: .dataSource(dataSource))
    }

    /// A selection over any listing made with `configuration`; `contacts` finds the contacts of selected
    /// rows when they are needed (``ContactLookup/unavailable`` when nothing will be composed). `enabled`
    /// disables more rows than the listing does: a saved list cannot keep `contactEnabledValidation` (a
    /// closure), so a rule over its rows (ids, names, values) is given here.
    ///
    /// ```swift
    /// let list = try CompactContactList(contentsOfFile: "big.vcf", configuration: Configuration())
    /// let selection = SelectionController(
    ///     listing: list, configuration: list.configuration, contacts: .file(path: "big.vcf"),
    ///     enabled: { !$0.value.hasSuffix("@example.com") })
    /// ```
    public init(
        listing: any ContactListing, configuration: Configuration, contacts: ContactLookup,
        enabled: (@Sendable (ListedRow) -> Bool)? = nil
    ) {
        self.listing = listing
        self.configuration = configuration
        self.contacts = contacts
        self.enabled = enabled
        result = listing.search("", keywords: configuration.searchByKeywords, refining: nil)
    }

    deinit {
        for continuation in continuations.values { continuation.finish() }
    }

    /// The region phones without a country code are read with (``Configuration/phoneRegion``, else the
    /// package's rule); nil when there is none.
    public var phoneRegion: String? {
        let region = configuration.resolvedPhoneRegion
        return region == "ZZ" ? nil : region
    }

    // MARK: - Search

    /// Shows the rows that match `text` (incremental when it narrows the current query).
    @discardableResult
    public func search(_ text: String) -> SearchResult {
        result = listing.search(text, keywords: configuration.searchByKeywords, refining: result)
        query = text
        return result
    }

    /// The visible sections (pinned rows are listed separately, and only when not searching). Each row is
    /// read from the listing: a front end that shows a screenful reads ``result`` and ``ContactListing/listedRow(_:)``.
    public var visibleSections: [Section<ListedRow>] {
        result.sections.map { section in
            Section(title: section.title, items: result.rowNumbers[section.range].map { listing.listedRow(Int($0)) })
        }
    }

    /// Pinned rows shown above the sections while no query is active.
    public var visiblePinnedRows: [PinnedRow] {
        query.allSatisfy({ $0.isWhitespace || $0.isPunctuation }) ? configuration.pinnedRows : []
    }

    // MARK: - Selection

    /// The number of selected rows.
    public var selectedCount: Int { selected.count }

    /// The selected row numbers in list order.
    public var selectedRowNumbers: [Int] { selected.keys.map(Int.init).sorted() }

    /// The selected row numbers in the order they were selected, as fzf prints its selection (a row
    /// deselected and selected again counts from the second time).
    public var selectedRowNumbersInSelectionOrder: [Int] {
        selected.sorted { $0.value < $1.value }.map { Int($0.key) }
    }

    /// The selected rows in list order.
    public var selectedRows: [ListedRow] { selectedRowNumbers.map { listing.listedRow($0) } }

    /// The selected contacts in list order, looked up by id (``contacts``).
    public func selectedContacts() throws -> [Contact] {
        let rows = selectedRows
        let found = try contacts.contacts(ids: rows.map(\.id))
        return try rows.map { row in
            guard let contact = found[row.id] else { throw SelectionError.contactNotFound(id: row.id) }
            return contact
        }
    }

    public func isSelected(id: String) -> Bool { listing.rowNumber(id: id).map { isSelected(row: $0) } ?? false }

    public func isSelected(row: Int) -> Bool { selected[Int32(row)] != nil }

    /// Selects a contact. Throws for unknown ids and disabled rows; selecting twice is a no-op.
    public func select(id: String) throws {
        guard let row = listing.rowNumber(id: id) else { throw SelectionError.unknownContact(id: id) }
        try select(row: row)
    }

    /// Whether a row can be selected: enabled by the listing and by the selection's own rule.
    public func isEnabled(_ row: ListedRow) -> Bool { row.enabled && (enabled?(row) ?? true) }

    /// Selects row `row` of the listing. Throws for rows out of range and disabled rows.
    public func select(row number: Int) throws {
        let row = try listedRow(number)
        guard isEnabled(row) else { throw SelectionError.disabled(id: row.id) }
        guard selected[Int32(number)] == nil else { return }
        selected[Int32(number)] = selections
        selections += 1
        emit(.didSelect(row))
    }

    /// Deselects a contact (no-op when it was not selected).
    public func deselect(id: String) {
        if let row = listing.rowNumber(id: id) { deselect(row: row) }
    }

    /// Deselects row `row` (no-op when it was not selected).
    public func deselect(row number: Int) {
        guard selected.removeValue(forKey: Int32(number)) != nil else { return }
        emit(.didRemove(listing.listedRow(number)))
    }

    /// Selects or deselects; returns whether the contact is now selected.
    @discardableResult
    public func toggle(id: String) throws -> Bool {
        guard let row = listing.rowNumber(id: id) else { throw SelectionError.unknownContact(id: id) }
        return try toggle(row: row)
    }

    /// Selects or deselects row `row`; returns whether it is now selected.
    @discardableResult
    public func toggle(row number: Int) throws -> Bool {
        if isSelected(row: number) {
            deselect(row: number)
            return false
        }
        try select(row: number)
        return true
    }

    /// Selects every visible, enabled row.
    public func selectAll() {
        for number in result.rowNumbers where selected[number] == nil {
            let row = listing.listedRow(Int(number))
            if isEnabled(row) {
                selected[number] = selections
                selections += 1
                emit(.didSelect(row))
            }
        }
    }

    /// Clears the selection; observers get a did-remove event per contact (list order).
    public func removeAll() {
        let rows = selectedRows
        selected.removeAll()
        for row in rows { emit(.didRemove(row)) }
    }

    private func listedRow(_ number: Int) throws -> ListedRow {
        guard number >= 0 && number < listing.rowCount else { throw SelectionError.unknownRow(number) }
        return listing.listedRow(number)
    }

    // MARK: - Per-contact value

    /// The values the user can choose from for a row, in `pref` order: its textable phones
    /// (`Contact.textablePhones`: no fax or pager) in messages mode, its
    /// emails in email mode, both (phones first) in `.both`. The contact is looked up (``contacts``).
    public func availableValues(id: String) throws -> [LabeledValue] {
        guard listing.rowNumber(id: id) != nil else { throw SelectionError.unknownContact(id: id) }
        let contact = try self.contact(id: id)
        let mode = configuration.mode
        return (mode.contains(.messages) ? contact.textablePhones : []) + (mode.contains(.email) ? contact.emails : [])
    }

    /// The position in ``availableValues(id:)`` of the one value the contact is reached at now (the chosen
    /// one, else the row's default): a phone by its E.164 form as ``choose(value:for:)`` makes it, an email
    /// as written; nil when none of them is (the book changed).
    ///
    /// ```swift
    /// let values = try selection.availableValues(id: contact.id)
    /// let marked = try selection.currentValueIndex(id: contact.id)   // 0: the default, `pref` first
    /// ```
    public func currentValueIndex(id: String) throws -> Int? {
        guard let number = listing.rowNumber(id: id) else { throw SelectionError.unknownContact(id: id) }
        let contact = try self.contact(id: id)
        let mode = configuration.mode
        let phones = mode.contains(.messages) ? contact.textablePhones : []
        let reach = value(forRow: number)
        switch reach.channel {
        case .email:
            guard mode.contains(.email) else { return nil }
            return contact.emails.firstIndex { $0.value == reach.value }.map { phones.count + $0 }
        case .message:
            let region = configuration.resolvedPhoneRegion
            return phones.firstIndex { phone in
                phone.value == reach.value
                    || PhoneKey.make(phone.value, region: region, addressRegion: contact.addressRegion).e164
                        == reach.value
            }
        }
    }

    /// Chooses which phone or email a contact is reached at (KB issue #12). In `.both` mode choosing an
    /// email address switches the contact to the email channel; a phone is kept in E.164 when it reads.
    public func choose(value: String, for id: String) throws {
        guard let number = listing.rowNumber(id: id) else { throw SelectionError.unknownContact(id: id) }
        let contact = try self.contact(id: id)
        let mode = configuration.mode
        if mode.contains(.email), contact.emails.contains(where: { $0.value == value }) {
            chosenValues[Int32(number)] = (.email, value)
        } else if mode.contains(.messages), contact.textablePhones.contains(where: { $0.value == value }) {
            let phone = PhoneKey.make(
                value, region: configuration.resolvedPhoneRegion, addressRegion: contact.addressRegion)
            chosenValues[Int32(number)] = (.message, phone.e164 ?? value)
        } else {
            throw SelectionError.invalidValue(id: id, value: value)
        }
    }

    /// The value a contact will be reached at: the chosen one, else the row's default (`pref`, else first).
    public func value(for id: String) -> (channel: Channel, value: String)? {
        guard let number = listing.rowNumber(id: id) else { return nil }
        return value(forRow: number)
    }

    /// The value row `number` will be reached at (``value(for:)`` by row number: no lookup by id, which
    /// in a listing of a million rows first indexes every id).
    public func value(forRow number: Int) -> (channel: Channel, value: String) {
        if let chosen = chosenValues[Int32(number)] { return chosen }
        let row = listing.listedRow(number)
        return (channel(of: row), row.value)
    }

    /// The channel of a row's own value: the mode's, and in `.both` the phone when the contact has one
    /// (as the list chose it), so an address is an email.
    private func channel(of row: ListedRow) -> Channel {
        switch configuration.mode {
        case .email: return .email
        case .messages: return .message
        default: return row.value.contains("@") ? .email : .message
        }
    }

    private func contact(id: String) throws -> Contact {
        guard let contact = try contacts.contacts(ids: [id])[id] else { throw SelectionError.contactNotFound(id: id) }
        return contact
    }

    // MARK: - Events

    /// Registers an observer; keep the token and pass it to `removeObserver` to stop.
    @discardableResult
    public func observe(_ handler: @escaping (SelectionEvent) -> Void) -> UUID {
        let token = UUID()
        observers[token] = handler
        return token
    }

    public func removeObserver(_ token: UUID) { observers[token] = nil }

    /// An asynchronous stream of events, finished when the selection goes away.
    public func events() -> AsyncStream<SelectionEvent> {
        let (stream, continuation) = AsyncStream<SelectionEvent>.makeStream(bufferingPolicy: .unbounded)
        let token = UUID()
        continuations[token] = continuation
        return stream
    }

    private func emit(_ event: SelectionEvent) {
        for handler in observers.values { handler(event) }
        for continuation in continuations.values { continuation.yield(event) }
    }
}
