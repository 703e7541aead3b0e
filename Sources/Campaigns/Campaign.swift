import Composer
import ContactsCore
import ContactsSelection
import Foundation
import Support
import Templating

/// A contact as a template sees it: `{{recipient.givenName}}`, `{{recipient.name}}`, `{{recipient.email}}`,
/// `{{#fullName}}recipient{{/fullName}}`, … Names are the contact's own; `name` is its name as the list
/// shows it (`Contact.displayName`, the same in every language); `email`/`phone` are the values the
/// selection reaches the contact at.
public struct ContactContext: MustacheObject {
    public let contact: Contact
    public let displayName: String
    public let email: String?
    public let phone: String?

    public init(contact: Contact, displayName: String, email: String?, phone: String?) {
        self.contact = contact
        self.displayName = displayName
        self.email = email
        self.phone = phone
    }

    public func mustacheValue(forKey key: String) -> MustacheValue? {
        let c = contact
        switch key {
        case "id": return .string(c.id)
        case "name", "displayName": return .string(displayName)
        case "givenName", "firstName": return .string(c.givenName)
        case "familyName", "lastName": return .string(c.familyName)
        case "middleName": return .string(c.middleName)
        case "namePrefix": return .string(c.namePrefix)
        case "nameSuffix": return .string(c.nameSuffix)
        case "nickname": return .string(c.nickname)
        case "organization": return .string(c.organization)
        case "jobTitle": return .string(c.jobTitle)
        case "email": return email.map(MustacheValue.string) ?? c.emails.first.map { .string($0.value) } ?? .null
        case "phone":
            return phone.map(MustacheValue.string) ?? c.textablePhones.first.map { .string($0.value) } ?? .null
        case "emails": return .array(c.emails.map { .string($0.value) })
        case "phones": return .array(c.phones.map { .string($0.value) })
        case "language": return c.languages.first.map(MustacheValue.string) ?? .null
        default: return nil
        }
    }

    public var mustacheText: String? { displayName }
}

/// One recipient's rendered message and the draft made of it.
public struct PersonalizedMessage: Sendable {
    public let contactID: String
    public let displayName: String
    /// The locale the message was rendered in (the recipient's own language when known).
    public let locale: String
    public let channel: Channel
    /// The address or number it goes to.
    public let value: String
    public let rendered: RenderedMessage
    /// Set for the email channel.
    public let mail: MailDraft?
    /// Set for the message channel.
    public let message: MessageDraft?
}

/// A recipient whose message could not be made, and why (the rest of the batch is kept): a record of a
/// batch, not an error thrown (``CampaignError`` is).
public struct CampaignFailure: Sendable, CustomStringConvertible {
    public let contactID: String
    public let displayName: String
    public let error: any Error

    public var description: String { "\(displayName) (\(contactID)): \(error)" }
}

/// Per-recipient composing: a built-in or user template rendered for every selected contact in that
/// contact's language (vCard `LANG`), else the campaign's, else the selection's locale, then turned into
/// mail drafts (one per recipient) or text-message drafts.
///
/// The template context holds the campaign `data`, `recipient` (a ``ContactContext``), `others` and the
/// recipient's own row of `recipientData`, whose columns become top-level variables. No recipient is
/// named to another by default: `others` is what `data` or the recipient's row gives, else the other
/// recipients only with ``shareRecipientNames``, else an empty list.
///
/// ```swift
/// var campaign = Campaign(template: "invite")
/// campaign.data = ["inviter": ["givenName": "Ada", "familyName": "Lovelace"], "project": "Atlas",
///                  "url": "https://example.com/join", "expires": "2025-07-01"]
/// let (messages, failures) = campaign.compose(selection, library: try TemplateLibrary.bundled(catalog: catalog))
/// ```
public struct Campaign: Sendable {
    public var template: String
    /// Campaign-wide variables.
    public var data: [String: MustacheValue] = [:]
    /// The campaign's locale (used for recipients without a language of their own).
    public var locale: String?
    public var from: MailAddress?
    /// Extra variables per recipient, keyed by contact id or lowercased email address.
    public var recipientData: [String: [String: MustacheValue]] = [:]
    /// Strict rendering (a missing variable fails that recipient) — the default for composing.
    public var strict = true
    /// Whether `others` lists the other recipients of the campaign (names and addresses) when neither
    /// `data` nor the recipient's row gives `others`. Off by default: in a 500-person campaign each
    /// message would otherwise name 499 people.
    ///
    /// ```swift
    /// var campaign = Campaign(template: "invite")
    /// campaign.shareRecipientNames = true   // "2 other people are invited too: Alan Turing and …"
    /// ```
    public var shareRecipientNames = false
    /// Copies of every mail to these addresses (`Cc`), besides those of the recipient's row (a `cc` column).
    public var cc: [MailAddress] = []
    /// Blind copies: envelope recipients only, never in a header; besides a row's `bcc` column.
    public var bcc: [MailAddress] = []
    /// Where replies go (`Reply-To`), unless the recipient's row has addresses in a `reply-to` column.
    public var replyTo: [MailAddress] = []
    /// Templates rendered per recipient (with the message's variables) into `List-Unsubscribe` URIs, e.g.
    /// `https://example.com/leave?id={{recipient.id}}` or `mailto:leave@example.com?subject={{recipient.id}}`.
    /// Each value is percent-encoded on its own (`Escaping.uriComponent`, Templating); the template's text is kept.
    ///
    /// A campaign with an unsubscribe address is a bulk mailing: its mail also carries `Precedence: bulk`
    /// and `Auto-Submitted: auto-generated` (RFC 3834), so vacation and other automatic replies are not
    /// sent back to it. Without one the messages are personal mail (invitations, notes) and carry neither:
    /// a reply, even an automatic "I am away", is what the sender wants then.
    ///
    /// ```swift
    /// var campaign = Campaign(template: "invite")
    /// campaign.unsubscribe = [try MustacheTemplate("https://example.com/leave?id={{recipient.id}}")]
    /// ```
    public var unsubscribe: [MustacheTemplate] = []

    /// Files attached to every mail (before those of a recipient's `attachments` column).
    public var attachments: [Attachment] = []
    /// The folder that relative paths of an `attachments` column are found in: that of the file the rows
    /// come from (nil: the current folder). A file of the column must lie inside it, symbolic links
    /// followed, or inside one of ``attachmentFolders`` (`ContainedPath`, Support).
    public var attachmentsDirectory: URL?
    /// More folders the files of an `attachments` column may lie in (`--attach-from DIR`), besides
    /// ``attachmentsDirectory``.
    ///
    /// ```swift
    /// campaign.attachmentFolders = [URL(fileURLWithPath: "/srv/handouts")]   // "/srv/handouts/a.pdf" may be named
    /// ```
    public var attachmentFolders: [URL] = []
    /// Where each row of ``recipientData`` is (`guests.csv:3`), by the same keys: named when a row cannot
    /// be used (an attachment that cannot be read).
    public var recipientOrigins: [String: String] = [:]
    /// The rows of a recipient sheet used on its own (``useSheet(_:from:)``), by contact id: a row's
    /// sender, copies, reply address and attachments are taken from it (its other columns are variables of
    /// ``recipientData``), and the messages are made in the sheet's order.
    public var sheetRows: [String: RecipientList.Row] = [:]
    /// Addresses not to mail (hard bounces, unsubscribes: the file `contacts bounces read` writes). A
    /// recipient on it gets no message and is one failure of ``CampaignError/suppressed(address:reason:)``.
    public var suppressions = SuppressionList()
    /// The return path of a VERP campaign (`bounces@sender.example`): each mail's envelope sender then
    /// encodes its recipient (`VERP.envelopeSender`, Composer), so a bounce names them.
    public var verpReturnPath: String?
    /// Header fields every mail carries, rendered per recipient (`--header`).
    public var headers: [CampaignHeader] = []
    /// The mailing's `List-Id` (RFC 2919), `Name <list.example.org>` (``CampaignHeader/checkListID(_:)``).
    public var listID: String?
    /// Opaque per-recipient tokens, `{{unsubscribe_token}}` in templates and `--unsubscribe` URIs.
    public var unsubscribeTokens: UnsubscribeTokens?

    /// The columns of a recipient's row that add to (`cc`, `bcc`) or replace (`reply-to`) the campaign's
    /// addresses: each a list of addresses separated by `,` or `;`. An `attachments` column lists files
    /// (separated by `;`, relative to ``attachmentsDirectory``) attached to that recipient's mail.
    public static let addressColumns = ["cc", "bcc", "reply-to"]

    public init(template: String) { self.template = template }

    /// The keys a contact's row of ``recipientData`` is looked up by, best first: the contact id, the
    /// email address the selection reaches it at, then each of its email addresses (lowercased).
    ///
    /// ```swift
    /// Campaign.recipientDataKeys(of: contact, reachedAt: "Ada@Example.org")   // [id, "ada@example.org", …]
    /// ```
    public static func recipientDataKeys(of contact: Contact, reachedAt email: String?) -> [String] {
        var keys = [contact.id]
        if let email { keys.append(email.lowercased()) }
        for e in contact.emails where !keys.contains(e.value.lowercased()) { keys.append(e.value.lowercased()) }
        return keys
    }

    /// Renders and drafts a message for every selected contact, in list order.
    ///
    /// With `stop` (e.g. requested on Ctrl-C), rendering ends at the next recipient once a stop is requested
    /// and returns nothing, no messages and no failures: a campaign stopped half-way is never delivered in
    /// part. (`deliver` with the same `stop` then queues nothing.)
    public func compose(_ selection: SelectionController, library: TemplateLibrary, stop: OutboxStop? = nil) -> (
        messages: [PersonalizedMessage], failures: [CampaignFailure]
    ) {
        let rows = selection.selectedRows
        // The selected contacts, looked up by id (a listing keeps only what it shows); when they cannot be,
        // no recipient can be rendered and each says why.
        let contacts: [Contact]
        do { contacts = try selection.selectedContacts() } catch {
            return ([], rows.map { CampaignFailure(contactID: $0.id, displayName: $0.displayName, error: error) })
        }
        var recipients: [(row: ListedRow, contact: Contact, channel: Channel, value: String)] = []
        var unreachable: [CampaignFailure] = []
        for (row, contact) in zip(rows, contacts) {
            guard let reach = selection.value(for: row.id) else { continue }
            // A number that could not be normalized is never texted (its country would be a guess).
            if reach.channel == .message, !reach.value.hasPrefix("+") {
                let error: CampaignError = .phoneNotNormalized(number: reach.value, region: selection.phoneRegion)
                unreachable.append(CampaignFailure(contactID: row.id, displayName: row.displayName, error: error))
                continue
            }
            if reach.channel == .email, let entry = suppressions.entry(for: reach.value) {
                let reason = entry.reason + (entry.line.map { ", line \($0)" } ?? "")
                let error: CampaignError = .suppressed(address: reach.value, reason: reason)
                unreachable.append(CampaignFailure(contactID: row.id, displayName: row.displayName, error: error))
                continue
            }
            recipients.append((row, contact, reach.channel, reach.value))
        }
        if !sheetRows.isEmpty {
            // A sheet's rows go out in its order (a `--limit` prefix is its first rows), not the list's.
            recipients.sort { (sheetRows[$0.row.id]?.line ?? .max) < (sheetRows[$1.row.id]?.line ?? .max) }
        }
        // A message shows every name as the list does (`recipient.name`, `others`, the To: header, the
        // draft's file name): the contact's own name, whatever language the message is in.
        let all = recipients.map { item in
            ContactContext(
                contact: item.contact, displayName: item.row.displayName,
                email: item.channel == .email ? item.value : nil,
                phone: item.channel == .message ? item.value : nil)
        }
        var messages: [PersonalizedMessage] = []
        var failures = unreachable
        for (i, item) in recipients.enumerated() {
            if stop?.isRequested == true { return ([], []) }
            let row = item.row
            do {
                // The language the words are in (a `vi` recipient of a template without Vietnamese gets
                // English throughout: plurals, lists, dates and the draft's Content-Language); a template
                // with words of its own is in its declared language, else the campaign's.
                let locale = library.resolvedLocale(
                    template,
                    locale: TemplateLibrary.renderLocale(
                        recipient: item.contact.languages.first, campaign: locale,
                        environment: selection.configuration.locale),
                    defaultLanguage: locale ?? selection.configuration.locale)
                let context = all[i]
                var variables = data
                variables["recipient"] = .object(context)
                if let unsubscribeTokens {
                    variables["unsubscribe_token"] = .string(unsubscribeTokens.token(for: item.value))
                }
                if variables["others"] == nil {
                    variables["others"] =
                        shareRecipientNames
                        ? .array(all.enumerated().filter { $0.offset != i }.map { .object($0.element) }) : .array([])
                }
                let rowKey = Self.recipientDataKeys(of: item.contact, reachedAt: context.email).first {
                    recipientData[$0] != nil
                }
                let extra = rowKey.flatMap { recipientData[$0] }
                for (key, value) in extra ?? [:] { variables[key] = value }
                let rendered = try library.render(
                    template, context: .dictionary(MustacheDictionary(variables)), locale: locale,
                    recipient: "\(row.displayName) <\(item.value)>", strict: strict)
                var mail: MailDraft?
                var message: MessageDraft?
                switch item.channel {
                case .email:
                    let name = context.displayName
                    let to = try MailAddress(name: name.isEmpty ? nil : name, address: item.value)
                    let columns = extra ?? [:]
                    let origin = rowKey.flatMap { recipientOrigins[$0] }
                    // A sheet's row has its addresses parsed already; joined rows name them in columns.
                    let sheetRow = sheetRows[row.id]
                    func addresses(_ column: String, _ parsed: [MailAddress]?) throws -> [MailAddress] {
                        try parsed ?? Self.addresses(columns, column, origin: origin)
                    }
                    var draft = MailDraft(
                        from: sheetRow?.from ?? from, to: [to], cc: try cc + addresses("cc", sheetRow?.cc),
                        bcc: try bcc + addresses("bcc", sheetRow?.bcc), subject: rendered.subject,
                        textBody: rendered.textBody, htmlBody: rendered.htmlBody, locale: rendered.locale)
                    if let verpReturnPath {
                        draft.envelopeSender = try VERP.envelopeSender(for: to.asciiAddress, returnPath: verpReturnPath)
                    }
                    if let html = draft.htmlBody {
                        let folder = library.directory.appendingPathComponent(template)
                        (draft.htmlBody, draft.inlineImages) = try Self.inlineImages(in: html, folder: folder)
                    }
                    let rowReplyTo = try addresses("reply-to", sheetRow?.replyTo)
                    draft.replyTo = rowReplyTo.isEmpty ? replyTo : rowReplyTo
                    draft.attachments =
                        try attachments
                        + Self.attachments(
                            paths: sheetRow?.attachments ?? Self.attachmentPaths(columns, origin: origin),
                            in: attachmentsDirectory, allowing: attachmentFolders, origin: origin)
                    // Each value is percent-encoded on its own: a name with spaces, `&` or `é` stays one
                    // query value of a valid URI; the template's own text is kept as written.
                    let options = RenderOptions(
                        escaping: .uriComponent, strict: strict, locale: locale,
                        recipient: "\(row.displayName) <\(item.value)>")
                    draft.listUnsubscribe = try unsubscribe.map {
                        try $0.render(.dictionary(MustacheDictionary(variables)), options: options)
                            .trimmingCharacters(in: .whitespaces)
                    }
                    let headerOptions = RenderOptions(
                        escaping: .header(.fold), strict: strict, locale: locale,
                        recipient: "\(row.displayName) <\(item.value)>")
                    draft.extraHeaders += try headers.map { try $0.rendered(variables, options: headerOptions) }
                    if let listID { draft.extraHeaders.append(MailHeader(name: "List-Id", value: listID)) }
                    if !draft.listUnsubscribe.isEmpty {
                        draft.extraHeaders += [
                            MailHeader(name: "Precedence", value: "bulk"),
                            MailHeader(name: "Auto-Submitted", value: "auto-generated"),
                        ]
                    }
                    mail = draft
                case .message:
                    message = MessageDraft(recipients: [item.value], body: rendered.messageBody ?? rendered.textBody)
                }
                messages.append(
                    PersonalizedMessage(
                        contactID: row.id, displayName: row.displayName, locale: rendered.locale,
                        channel: item.channel, value: item.value, rendered: rendered, mail: mail, message: message))
            } catch {
                failures.append(CampaignFailure(contactID: row.id, displayName: row.displayName, error: error))
            }
        }
        if stop?.isRequested == true { return ([], []) }
        return (messages, failures)
    }

    /// The paths of a recipient's `attachments` column (`;`-separated text, or an array of paths).
    static func attachmentPaths(_ row: [String: MustacheValue], origin: String?) throws -> [String] {
        guard let value = row["attachments"] else { return [] }
        var paths: [String] = []
        switch value {
        case .string(let text): paths = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        case .array(let items): for case .string(let text) in items { paths.append(text) }
        case .null: return []
        default: throw CampaignError.column(column: "attachments", reason: "expected file paths", origin: origin)
        }
        return paths
    }

    /// The files `paths` names (relative ones in `directory`), each inside `directory` or one of `folders`
    /// once `..` and symbolic links are resolved.
    static func attachments(paths: [String], in directory: URL?, allowing folders: [URL], origin: String?)
        throws -> [Attachment]
    {
        let base = directory?.path ?? FileManager.default.currentDirectoryPath
        return try paths.filter { !$0.isEmpty }.map { path in
            do {
                let real = try ContainedPath.resolve(path, relativeTo: base, inside: [base] + folders.map(\.path))
                var attachment = try Attachment(contentsOfFile: real)
                attachment.filename = URL(fileURLWithPath: path).lastPathComponent
                return attachment
            } catch let error as ContainedPathError {
                var reason = "\(error)"
                if case .outside = error { reason += "; allow a folder with --attach-from DIR" }
                throw CampaignError.column(column: "attachments", reason: reason, origin: origin)
            } catch {
                throw CampaignError.column(column: "attachments", reason: "\(error)", origin: origin)
            }
        }
    }

    /// The addresses in column `column` of a recipient's row (none when the row has no such column).
    static func addresses(_ row: [String: MustacheValue], _ column: String, origin: String?) throws -> [MailAddress] {
        guard let value = row[column] else { return [] }
        var texts: [String] = []
        switch value {
        case .string(let text): texts = [text]
        case .array(let items):
            for case .string(let text) in items { texts.append(text) }
            guard texts.count == items.count else {
                throw CampaignError.column(column: column, reason: "expected addresses as text", origin: origin)
            }
        case .null: return []
        default: throw CampaignError.column(column: column, reason: "expected addresses as text", origin: origin)
        }
        do {
            return try texts.flatMap { try MailAddress.list(parsing: $0) }
        } catch {
            throw CampaignError.column(column: column, reason: "\(error)", origin: origin)
        }
    }
}

extension Campaign {
    /// The campaign variables (``data``) of a JSON object read from `file`.
    ///
    /// ```swift
    /// var campaign = Campaign(template: "invite")
    /// campaign.data = try Campaign.variables(json: Array(#"{"project": "Atlas"}"#.utf8), file: "invite.json")
    /// ```
    /// - Throws: ``CampaignError/invalidVariables(_:)`` naming the file, line and column when the text is
    ///   not JSON or not an object.
    public static func variables(json: [UInt8], file: String) throws(CampaignError) -> [String: MustacheValue] {
        let value: MustacheValue
        do { value = try MustacheValue(json: json, file: file) } catch {
            throw .invalidVariables("\(error)")
        }
        guard case .dictionary(let object) = value else {
            throw .invalidVariables("\(file):1:1: expected a JSON object of variables")
        }
        var variables: [String: MustacheValue] = [:]
        for (key, value) in object.entries { variables[key] = value }
        return variables
    }
}
