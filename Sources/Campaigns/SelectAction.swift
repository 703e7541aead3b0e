import Composer
import ContactsCore
import ContactsSelection
import Foundation
import StringsCatalog

/// What the default composer of KBContactsSelection (the iOS contact picker this package re-creates) sends: the mail subject and body (HTML or plain), the text
/// message body, and the sender of the mail.
///
/// ```swift
/// var compose = ComposeSettings()
/// compose.mailSubject = "Team dinner"
/// compose.mailFrom = try MailAddress(name: "Ada Lovelace", address: "ada@example.org")
/// ```
public struct ComposeSettings: Sendable {
    /// The sender of the default composer's mail (the device's account on iOS); needed by transports
    /// that write or deliver messages.
    public var mailFrom: MailAddress?
    public var mailSubject: String?
    public var mailBody: String?
    public var mailIsHTML = false
    public var messageBody: String?

    public init(
        mailFrom: MailAddress? = nil, mailSubject: String? = nil, mailBody: String? = nil, mailIsHTML: Bool = false,
        messageBody: String? = nil
    ) {
        self.mailFrom = mailFrom
        self.mailSubject = mailSubject
        self.mailBody = mailBody
        self.mailIsHTML = mailIsHTML
        self.messageBody = messageBody
    }
}

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
    /// The drafts the default select action composes: email mode → one mail draft to the chosen
    /// addresses with the subject and body of `settings` (HTML when `mailIsHTML`); messages mode → one
    /// message draft to the chosen numbers; `.both` → a message draft for contacts reached by phone and
    /// a mail draft for those reached only by email.
    ///
    /// ```swift
    /// let (mail, message) = try selection.makeDrafts(ComposeSettings(mailSubject: "Team dinner"))
    /// ```
    public func makeDrafts(_ settings: ComposeSettings) throws -> (mail: MailDraft?, message: MessageDraft?) {
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
            let body = settings.mailBody ?? ""
            mail = MailDraft(
                from: settings.mailFrom, to: addresses, subject: settings.mailSubject ?? "",
                textBody: settings.mailIsHTML ? Self.plainText(fromHTML: body) : body,
                htmlBody: settings.mailIsHTML ? body : nil, locale: configuration.locale)
        }
        let message = numbers.isEmpty ? nil : MessageDraft(recipients: numbers, body: settings.messageBody ?? "")
        return (mail, message)
    }

    /// Runs the select action: the configuration's custom handler when set, else the drafts of
    /// `settings` go to the transports. When a transport cannot send, the outcome is the documented
    /// alert, localized for the configuration's locale.
    ///
    /// ```swift
    /// let outcome = try selection.performSelectAction(
    ///     ComposeSettings(mailSubject: "Team dinner"), mail: FileTransport(directory: drafts), messages: nil)
    /// ```
    public func performSelectAction(
        _ settings: ComposeSettings, mail mailTransport: (any MailTransport)?,
        messages messageTransport: (any MessageTransport)?
    ) throws -> SelectOutcome {
        let contacts = try selectedContacts()
        if let handler = configuration.customSelectButtonHandler {
            handler(contacts)
            return .handled(contacts)
        }
        guard !contacts.isEmpty else { return .nothingSelected }
        let drafts = try makeDrafts(settings)
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
