import Composer
import ContactsSelection
import Foundation
import Templating

/// The message as the user writes it: the package's one compose-settings type (the `mailSubject`,
/// `mailBody`, `mailIsHTML` and `messageBody` of KBContactsSelection, the iOS picker this package
/// re-creates). The select action sends it as written, the same to everyone
/// (`SelectionController.makeDrafts(_:from:)`); a campaign makes it into a template that renders per
/// recipient: the subject and bodies are Mustache, so `{{recipient.givenName}}` is each recipient's own,
/// and every message is rendered in its recipient's language (dates, numbers, `Content-Language`). A
/// Markdown body becomes the HTML part (cmark) and the plain-text part, as a library template's
/// `body.md.mustache` does.
///
/// ```swift
/// var library = try TemplateLibrary.bundled()
/// let text = ComposerText(subject: "Dinner", body: "Hi {{recipient.givenName}}, *see you*", format: .markdown)
/// try library.add("dinner", parts: text.parts)
/// ```
public struct ComposerText: Sendable, Equatable {
    /// How the body is written.
    public enum BodyFormat: String, Sendable, Equatable {
        /// Plain text: the text part only.
        case plain
        /// HTML (`mailIsHTML`): the HTML part, and a plain-text part with the tags taken out.
        case html
        /// Markdown (CommonMark): the HTML part made by cmark, the Markdown itself as the plain-text part.
        case markdown
    }

    public var subject: String
    public var body: String
    public var format: BodyFormat
    /// The text message's body; the mail body's text part when nil.
    public var messageBody: String?

    public init(subject: String, body: String, format: BodyFormat = .plain, messageBody: String? = nil) {
        self.subject = subject
        self.body = body
        self.format = format
        self.messageBody = messageBody
    }

    /// The format a body file's name says: Markdown for `.md` and `.markdown`, else HTML when `html`, else
    /// plain text.
    ///
    /// ```swift
    /// ComposerText.format(fileName: "note.md", html: false)   // .markdown
    /// ```
    public static func format(fileName: String?, html: Bool) -> BodyFormat {
        let ext = fileName.map { URL(fileURLWithPath: $0).pathExtension.lowercased() } ?? ""
        if ext == "md" || ext == "markdown" { return .markdown }
        return html ? .html : .plain
    }

    /// The template parts (Mustache sources) of this message, for `TemplateLibrary.add(_:parts:)` (Templating).
    public var parts: [LibraryTemplate.Part: String] {
        var parts: [LibraryTemplate.Part: String] = [.subject: subject]
        switch format {
        case .plain: parts[.textBody] = body
        case .markdown: parts[.markdownBody] = body
        case .html:
            parts[.htmlBody] = body
            parts[.textBody] = SelectionController.plainText(fromHTML: body)
        }
        if let messageBody { parts[.messageBody] = messageBody }
        return parts
    }

    /// The text a person edits: a `Subject:` line, a blank line, then the body (as mutt and git show a
    /// message to edit).
    public var editable: String { "Subject: \(subject)\n\n\(body)" }

    /// This message with the subject and body of `text`, an edited ``editable``; the format and the text
    /// message's body are kept.
    /// - Throws: ``CampaignError/editedMessage(file:line:reason:)`` naming `file` and the line when the `Subject:` line or the blank line
    ///   after it is missing.
    public func edited(_ text: String, file: String) throws(CampaignError) -> ComposerText {
        // "\r\n" is one Character: split on either line end.
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        guard let first = lines.first, first.lowercased().hasPrefix("subject:") else {
            throw .editedMessage(file: file, line: 1, reason: "expected 'Subject: …' on the first line")
        }
        let subject = first.dropFirst("subject:".count).trimmingCharacters(in: .whitespaces)
        lines.removeFirst()
        if let blank = lines.first {
            guard blank.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw .editedMessage(
                    file: file, line: 2, reason: "expected a blank line between the subject and the body")
            }
            lines.removeFirst()
        }
        var copy = self
        copy.subject = subject
        copy.body = lines.map(String.init).joined(separator: "\n")
        return copy
    }
}

extension ComposeAlert {
    /// The documented alert when `delivery` cannot carry what is to be sent — text messages (checked first,
    /// as the select action does) or mail — else nil. No delivery at all (none configured) carries nothing.
    ///
    /// ```swift
    /// ComposeAlert.unavailable(mail: true, texts: false, through: nil, locale: "de")?.message
    /// // "Das Senden von E-Mails wird auf diesem Gerät nicht unterstützt."
    /// ```
    public static func unavailable(mail: Bool, texts: Bool, through delivery: Delivery?, locale: String)
        -> ComposeAlert?
    {
        if texts, delivery?.carriesTexts != true { return .cannotSend(mail: false, locale: locale) }
        if mail, delivery?.carriesMail != true { return .cannotSend(mail: true, locale: locale) }
        return nil
    }
}
