import Composer
import ContactsCore
import ContactsSelection
import Foundation
import StringsCatalog
import Templating

/// The documented alert a front end shows when the device cannot send, already localized.
public struct ComposeAlert: Sendable, Equatable {
    public var title: String
    public var message: String
    public var button: String
    /// A line under the message, shown as it is (e.g. the command-line options that would add a way to
    /// send: `--out DIR  --smtp URL …`); nil for none.
    public var detail: String?

    /// The alert for a device that cannot send text messages (`mail` false) or mail (`mail` true), in
    /// `locale`: "Messaging not supported" / "Sending emails from this device is not supported.", OK.
    ///
    /// ```swift
    /// ComposeAlert.cannotSend(mail: true, locale: "en").message   // "Sending emails from this device is not supported."
    /// ```
    public static func cannotSend(mail: Bool, locale: String) -> ComposeAlert {
        ComposeAlert(
            title: Strings.messagingNotSupported(locale: locale),
            message: mail
                ? Strings.mailNotSupportedMessage(locale: locale)
                : Strings.messagingNotSupportedMessage(locale: locale),
            button: Strings.ok(locale: locale))
    }

    /// Title and message on one line, as a terminal shows the alert: "Messaging not supported: Messaging on
    /// this device is not supported."
    public var line: String { "\(title): \(message)" }
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

extension SelectionController {
    /// The drafts the default select action composes, as written (no template: the same text for
    /// everyone): email mode → one mail draft from `from` to the chosen addresses with the subject and body
    /// of `text` (an HTML body with a plain-text part made of it, a Markdown body as HTML and itself as
    /// the plain text); messages mode → one message draft to the chosen numbers with `text`'s
    /// `messageBody` (empty when nil, as KBContactsSelection's); `.both` → a message draft for contacts
    /// reached by phone and a mail draft for those reached only by email.
    ///
    /// ```swift
    /// let (mail, message) = try selection.makeDrafts(ComposerText(subject: "Team dinner", body: ""))
    /// ```
    public func makeDrafts(_ text: ComposerText, from: MailAddress? = nil) throws -> (
        mail: MailDraft?, message: MessageDraft?
    ) {
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
                    throw CampaignError.composer(error)
                }
            }
        }
        var mail: MailDraft?
        if !addresses.isEmpty {
            let body = text.body
            let (textBody, htmlBody): (String, String?) =
                switch text.format {
                case .plain: (body, nil)
                case .html: (Self.plainText(fromHTML: body), body)
                case .markdown: (body, Markdown.html(body))
                }
            mail = MailDraft(
                from: from, to: addresses, subject: text.subject, textBody: textBody, htmlBody: htmlBody,
                locale: configuration.locale)
        }
        let message = numbers.isEmpty ? nil : MessageDraft(recipients: numbers, body: text.messageBody ?? "")
        return (mail, message)
    }

    /// Runs the select action: the configuration's custom handler when set, else the drafts of `text`
    /// (``makeDrafts(_:from:)``, mail from `from`) go to the transports. When a transport cannot send, the
    /// outcome is the documented alert, localized for the configuration's locale.
    ///
    /// ```swift
    /// let outcome = try selection.performSelectAction(
    ///     ComposerText(subject: "Team dinner", body: ""), mail: FileTransport(directory: drafts), messages: nil)
    /// ```
    public func performSelectAction(
        _ text: ComposerText, from: MailAddress? = nil, mail mailTransport: (any MailTransport)?,
        messages messageTransport: (any MessageTransport)?
    ) throws -> SelectOutcome {
        let contacts = try selectedContacts()
        if let handler = configuration.customSelectButtonHandler {
            handler(contacts)
            return .handled(contacts)
        }
        guard !contacts.isEmpty else { return .nothingSelected }
        let drafts = try makeDrafts(text, from: from)
        let locale = configuration.locale
        if drafts.message != nil, messageTransport?.canSendText != true {
            return .alert(.cannotSend(mail: false, locale: locale))
        }
        if drafts.mail != nil, mailTransport?.canSendMail != true {
            return .alert(.cannotSend(mail: true, locale: locale))
        }
        do {
            var mailResult: ComposeResult?
            var messageResult: ComposeResult?
            if let draft = drafts.mail, let mailTransport { mailResult = try mailTransport.send(draft) }
            if let draft = drafts.message, let messageTransport { messageResult = try messageTransport.send(draft) }
            return .composed(mail: mailResult, message: messageResult)
        } catch let error as ComposerError {
            throw CampaignError.composer(error)
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
