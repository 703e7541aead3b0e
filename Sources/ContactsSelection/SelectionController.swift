import Collation
import ContactsCore
import Foundation
import StringsCatalog

/// Errors of the selection layer.
public enum SelectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No listed row has this contact id (filtered out by the mode, a duplicate, or unknown).
    case unknownContact(id: String)
    /// `contactEnabledValidation` rejected this contact.
    case disabled(id: String)
    /// The value is not one of the contact's phones/emails for the row's channel.
    case invalidValue(id: String, value: String)

    public var description: String {
        switch self {
        case .unknownContact(let id): return "contact '\(id)' is not in the list"
        case .disabled(let id): return "contact '\(id)' is disabled and cannot be selected"
        case .invalidValue(let id, let value): return "contact '\(id)' has no phone or email '\(value)'"
        }
    }
}

/// A change of the selection, as observers and `events()` streams receive it.
public enum SelectionEvent: Sendable, Equatable {
    case didSelect(Contact)
    case didRemove(Contact)
}

/// KBContactsSelection without the UI: configuration, the sectioned list, search as the user types,
/// a selection kept by contact id across searches, events, and the value each contact is reached at.
/// The select action (a custom handler, or drafts for the composer) is in the `Campaigns` module.
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
    public let dataSource: ContactsDataSource
    public var configuration: Configuration { dataSource.configuration }
    /// The current query and what it shows.
    public private(set) var query = ""
    public private(set) var result: SearchResult

    private var selected = Set<String>()
    private var chosenValues: [String: String] = [:]
    private var observers: [UUID: (SelectionEvent) -> Void] = [:]
    private var continuations: [UUID: AsyncStream<SelectionEvent>.Continuation] = [:]

    /// Builds the list in the KB style: a configuration closure, then the data source.
    public convenience init(contacts: [Contact], configure: (inout Configuration) -> Void = { _ in }) throws {
        var configuration = Configuration()
        configure(&configuration)
        try self.init(dataSource: ContactsDataSource(contacts: contacts, configuration: configuration))
    }

    public init(dataSource: ContactsDataSource) {
        self.dataSource = dataSource
        result = dataSource.search("")
    }

    deinit {
        for continuation in continuations.values { continuation.finish() }
    }

    // MARK: - Titles

    /// The configured title, else the localized "Search contacts".
    public var title: String { configuration.title ?? Strings.searchContacts(locale: configuration.locale) }
    /// The configured button title, else the localized "Select".
    public var selectButtonTitle: String {
        configuration.selectButtonTitle ?? Strings.select(locale: configuration.locale)
    }

    // MARK: - Search

    /// Shows the rows that match `text` (incremental when it narrows the current query).
    @discardableResult
    public func search(_ text: String) -> SearchResult {
        result = dataSource.search(text, refining: result)
        query = text
        return result
    }

    /// The visible sections (pinned rows are listed separately, and only when not searching).
    public var visibleSections: [Section<ContactRow>] {
        result.sections.map { Section(title: $0.title, items: dataSource.rows(in: $0, of: result)) }
    }

    /// Pinned rows shown above the sections while no query is active.
    public var visiblePinnedRows: [PinnedRow] {
        query.allSatisfy({ $0.isWhitespace || $0.isPunctuation }) ? dataSource.pinnedRows : []
    }

    // MARK: - Selection

    /// The selected contacts in list order.
    public var selectedContacts: [Contact] { selectedRows.map(\.contact) }

    /// The selected rows in list order.
    public var selectedRows: [ContactRow] {
        selected.compactMap { dataSource.rowNumber(id: $0) }.sorted().map { dataSource.rows[$0] }
    }

    public func isSelected(id: String) -> Bool { selected.contains(id) }

    /// Selects a contact. Throws for unknown ids and disabled rows; selecting twice is a no-op.
    public func select(id: String) throws {
        guard let row = dataSource.row(id: id) else { throw SelectionError.unknownContact(id: id) }
        guard row.enabled else { throw SelectionError.disabled(id: id) }
        if selected.insert(id).inserted { emit(.didSelect(row.contact)) }
    }

    /// Deselects a contact (no-op when it was not selected).
    public func deselect(id: String) {
        guard selected.remove(id) != nil, let row = dataSource.row(id: id) else { return }
        emit(.didRemove(row.contact))
    }

    /// Selects or deselects; returns whether the contact is now selected.
    @discardableResult
    public func toggle(id: String) throws -> Bool {
        if selected.contains(id) {
            deselect(id: id)
            return false
        }
        try select(id: id)
        return true
    }

    /// Selects every visible, enabled row.
    public func selectAll() {
        for number in result.rowNumbers {
            let row = dataSource.rows[Int(number)]
            if row.enabled && selected.insert(row.id).inserted { emit(.didSelect(row.contact)) }
        }
    }

    /// Clears the selection; observers get a did-remove event per contact (list order).
    public func removeAll() {
        let rows = selectedRows
        selected.removeAll()
        for row in rows { emit(.didRemove(row.contact)) }
    }

    // MARK: - Per-contact value

    /// The values the user can choose from for a row, in `pref` order: its phones in messages mode, its
    /// emails in email mode, both (phones first) in `.both`.
    public func availableValues(id: String) throws -> [LabeledValue] {
        guard let row = dataSource.row(id: id) else { throw SelectionError.unknownContact(id: id) }
        let mode = configuration.mode
        return (mode.contains(.messages) ? row.contact.phones : []) + (mode.contains(.email) ? row.contact.emails : [])
    }

    /// Chooses which phone or email a contact is reached at (KB issue #12).
    public func choose(value: String, for id: String) throws {
        let values = try availableValues(id: id)
        guard values.contains(where: { $0.value == value }) else {
            throw SelectionError.invalidValue(id: id, value: value)
        }
        chosenValues[id] = value
    }

    /// The value a contact will be reached at: the chosen one, else the row's default (`pref`, else first).
    /// In `.both` mode choosing an email address switches the contact to the email channel.
    public func value(for id: String) -> (channel: Channel, value: String)? {
        guard let row = dataSource.row(id: id) else { return nil }
        if let chosen = chosenValues[id] {
            if configuration.mode.contains(.email) && row.contact.emails.contains(where: { $0.value == chosen }) {
                return (.email, chosen)
            }
            let phone = PhoneKey.make(chosen, region: dataSource.region, addressRegion: row.contact.addressRegion)
            return (.message, phone.e164 ?? chosen)
        }
        return (row.channel, row.value)
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
