import Composer
import Templating

extension CampaignPreview {
    /// The template name a written message is rendered under (a library folder cannot have it: folders
    /// starting with `_` are not templates).
    public static let writtenTemplate = "_pick"

    /// The campaign a compose sheet renders, checked before anyone is picked: `text`, a message written,
    /// rendered under ``writtenTemplate`` (a template error of it is thrown now, with its part, line and
    /// column), else the library's `template`; in `locale`, from `from`, with `data`.
    ///
    /// ```swift
    /// let text = ComposerText(subject: "Dinner", body: "Hi {{recipient.givenName}}")
    /// let campaign = try CampaignPreview.campaign(text: text, template: nil, library: library, locale: "en", from: nil)
    /// // campaign.template == "_pick"
    /// ```
    /// - Throws: the `TemplatingError` of a written text that does not parse.
    public static func campaign(
        text: ComposerText?, template: String?, library: TemplateLibrary, locale: String, from: MailAddress?,
        data: [String: MustacheValue] = [:]
    ) throws -> Campaign {
        if let text {
            var check = library
            try check.add(writtenTemplate, parts: text.parts)
        }
        var campaign = Campaign(template: text == nil ? template ?? writtenTemplate : writtenTemplate)
        campaign.locale = locale
        campaign.from = from
        campaign.data = data
        return campaign
    }
}

extension ComposerText {
    /// The message as a front end's options give it: the subject, the body (`bodyFile`: the file it was
    /// read from, whose name says Markdown; `html`: the body is HTML) and the text message's body; each
    /// part not given is empty (the text message's body: the mail body's text part).
    ///
    /// ```swift
    /// ComposerText(subject: "Hi", body: "*bold*", bodyFile: "note.md", html: false, messageBody: nil).format   // .markdown
    /// ```
    public init(subject: String?, body: String?, bodyFile: String?, html: Bool, messageBody: String?) {
        self.init(
            subject: subject ?? "", body: body ?? "", format: Self.format(fileName: bodyFile, html: html),
            messageBody: messageBody)
    }
}
