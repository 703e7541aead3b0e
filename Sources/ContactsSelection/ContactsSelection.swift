import Collation
import Composer
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
    /// The composer could not take the drafts (an invalid address in the address book, say).
    case composer(ComposerError)
    /// A phone number written without a country code that could not be normalized: there is no phone
    /// region (`region` nil), or it is no number there nor in the country of the contact's addresses. It is
    /// not texted: its country would be a guess.
    case phoneNotNormalized(number: String, region: String?)

    public var description: String {
        switch self {
        case .unknownContact(let id): return "contact '\(id)' is not in the list"
        case .disabled(let id): return "contact '\(id)' is disabled and cannot be selected"
        case .invalidValue(let id, let value): return "contact '\(id)' has no phone or email '\(value)'"
        case .composer(let error): return "composer: \(error)"
        case .phoneNotNormalized(let number, nil): return "no region for '\(number)': give --region"
        case .phoneNotNormalized(let number, let region?):
            return "'\(number)' is not a phone number in \(region): give --region, or write it with its country code"
        }
    }
}

/// A change of the selection, as observers and `events()` streams receive it.
public enum SelectionEvent: Sendable, Equatable {
    case didSelect(Contact)
    case didRemove(Contact)
}

/// The documented alert a front end shows when the device cannot send, already localized.
public struct ComposeAlert: Sendable, Equatable {
    public var title: String
    public var message: String
    public var button: String
}

/// What the select action did.
public enum SelectOutcome: Sendable {
    /// The custom select handler received these contacts (list order).
    case handled([Contact])
    /// Drafts went to the composer; each result as the transport reported it.
    case composed(mail: ComposeResult?, message: ComposeResult?)
    /// The transport cannot send: show this alert (the literals come from the strings catalog).
    case alert(ComposeAlert)
    /// Nothing was selected.
    case nothingSelected
}

/// KBContactsSelection without the UI: configuration, the sectioned list, search as the user types,
/// a selection kept by contact id across searches, events, and the select action (a custom handler or
/// drafts for the composer).
///
/// ```swift
/// let selection = try ContactsSelection(contacts: book.contacts) { config in
///     config.mode = .email
///     config.searchByKeywords = true
/// }
/// selection.search("f b")
/// selection.selectAll()
/// let outcome = try selection.performSelectAction(mail: FileTransport(directory: drafts), messages: nil)
/// ```
public final class ContactsSelection {
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

    // MARK: - Select action

    /// The drafts the default select action composes: email mode → one mail draft to the chosen
    /// addresses with the configured subject and body (HTML when `mailIsHTML`); messages mode → one
    /// message draft to the chosen numbers; `.both` → a message draft for contacts reached by phone and
    /// a mail draft for those reached only by email.
    public func makeDrafts() throws -> (mail: MailDraft?, message: MessageDraft?) {
        var numbers: [String] = []
        var addresses: [MailAddress] = []
        for row in selectedRows {
            guard let reach = value(for: row.id) else { continue }
            let value = reach.value
            switch reach.channel {
            case .message:
                if !numbers.contains(value) { numbers.append(value) }
            case .email:
                do {
                    let address = try MailAddress(name: row.displayName.isEmpty ? nil : row.displayName, address: value)
                    if !addresses.contains(address) { addresses.append(address) }
                } catch let error as ComposerError {
                    throw SelectionError.composer(error)
                }
            }
        }
        let config = configuration
        var mail: MailDraft?
        if !addresses.isEmpty {
            let body = config.mailBody ?? ""
            mail = MailDraft(
                from: config.mailFrom, to: addresses, subject: config.mailSubject ?? "",
                textBody: config.mailIsHTML ? Self.plainText(fromHTML: body) : body,
                htmlBody: config.mailIsHTML ? body : nil, locale: config.locale)
        }
        let message = numbers.isEmpty ? nil : MessageDraft(recipients: numbers, body: config.messageBody ?? "")
        return (mail, message)
    }

    /// Runs the select action: the custom handler when configured, else the drafts go to the transports.
    /// When a transport cannot send, the outcome is the documented alert, localized for the locale.
    public func performSelectAction(
        mail mailTransport: (any MailTransport)?, messages messageTransport: (any MessageTransport)?
    )
        throws -> SelectOutcome
    {
        let contacts = selectedContacts
        if let handler = configuration.customSelectButtonHandler {
            handler(contacts)
            return .handled(contacts)
        }
        guard !contacts.isEmpty else { return .nothingSelected }
        let drafts = try makeDrafts()
        let locale = configuration.locale
        if drafts.message != nil && !(messageTransport?.canSendText ?? false) {
            return .alert(.messagingUnavailable(locale: locale))
        }
        if drafts.mail != nil && !(mailTransport?.canSendMail ?? false) {
            return .alert(.mailUnavailable(locale: locale))
        }
        do {
            let mailResult = try drafts.mail.map { try mailTransport!.send($0) }
            let messageResult = try drafts.message.map { try messageTransport!.send($0) }
            return .composed(mail: mailResult, message: messageResult)
        } catch let error as ComposerError {
            throw SelectionError.composer(error)
        }
    }

    /// A plain-text alternative of an HTML body: tags dropped, `<br>`/`</p>` as line breaks, entities decoded.
    static func plainText(fromHTML html: String) -> String {
        var text = html.replacingOccurrences(of: "<br>", with: "\n", options: .caseInsensitive)
            .replacingOccurrences(of: "<br/>", with: "\n", options: .caseInsensitive)
            .replacingOccurrences(of: "<br />", with: "\n", options: .caseInsensitive)
            .replacingOccurrences(of: "</p>", with: "\n\n", options: .caseInsensitive)
        text = text.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        for (entity, char) in [
            ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", "\u{a0}"), ("&amp;", "&"),
        ] {
            text = text.replacingOccurrences(of: entity, with: char)
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
