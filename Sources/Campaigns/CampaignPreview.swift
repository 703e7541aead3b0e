import Composer
import ContactsSelection
import PickerModel
import Templating

/// A campaign's messages rendered for the selected contacts, as a compose sheet shows them before they are
/// sent (`ComposeSheet`, PickerModel): one page per recipient, the recipients that could not be rendered,
/// the alert when the delivery cannot carry the messages, and the written message (``text``) that an edit
/// replaces, rendering every message again. ``deliver(sending:stop:events:)`` sends what is shown.
///
/// ```swift
/// let preview = try CampaignPreview(
///     selection: selection, campaign: Campaign(template: "_pick"), library: library,
///     text: ComposerText(subject: "Dinner", body: "Hi {{recipient.givenName}}"), delivery: nil, locale: "en")
/// print(preview.pages.first?.subject ?? "", preview.alert?.message ?? "")
/// ```
public final class CampaignPreview: ComposeSheetContent {
    public let selection: SelectionController
    public let campaign: Campaign
    /// The templates, with the written message under the campaign's template name.
    public private(set) var library: TemplateLibrary
    /// The message as written (nil for a library template, which is not edited here).
    public private(set) var text: ComposerText?
    /// One message per recipient that could be rendered, in list order.
    public private(set) var messages: [PersonalizedMessage] = []
    /// The recipients that could not be rendered, and why.
    public private(set) var notRendered: [CampaignFailure] = []
    /// The pages the sheet shows: one per message of ``messages``.
    public private(set) var pages: [ComposePage] = []
    /// The documented alert when the delivery cannot carry the messages (``ComposeAlert/unavailable(mail:texts:through:locale:)``).
    public let alert: PickerAlert?

    /// Renders the messages of `campaign` for the selected contacts of `selection`; with `text`, the
    /// campaign's template is that text (added to `library` under the campaign's template name). `delivery`
    /// (nil: none configured) and `locale` make ``alert``.
    /// - Throws: a template error of `text` (part, line, column).
    public init(
        selection: SelectionController, campaign: Campaign, library: TemplateLibrary, text: ComposerText?,
        delivery: Delivery?, locale: String
    ) throws {
        self.selection = selection
        self.campaign = campaign
        self.library = library
        self.text = text
        if let text { try self.library.add(campaign.template, parts: text.parts) }
        (messages, notRendered) = campaign.compose(selection, library: self.library)
        alert =
            ComposeAlert.unavailable(
                mail: messages.contains { $0.mail != nil }, texts: messages.contains { $0.message != nil },
                through: delivery, locale: locale)?.pickerAlert
        pages = Self.pages(messages)
    }

    private static func pages(_ messages: [PersonalizedMessage]) -> [ComposePage] {
        messages.map {
            ComposePage(
                displayName: $0.displayName, value: $0.value, subject: $0.mail?.subject,
                body: $0.message?.body ?? $0.rendered.textBody)
        }
    }

    /// Each recipient not rendered as a line: name (id): reason.
    public var failures: [String] { notRendered.map(\.description) }

    /// ``text``'s ``ComposerText/editable``; nil for a library template.
    public var editableText: String? { text?.editable }

    /// The file name extension of the text to edit (`md`, `html`, `txt`), so an editor highlights it.
    public var editableFileExtension: String {
        switch text?.format ?? .plain {
        case .markdown: "md"
        case .html: "html"
        case .plain: "txt"
        }
    }

    /// Takes an edited ``editableText`` (read from the file `file`, named in errors) and renders every
    /// message again.
    /// - Throws: ``CampaignError/editedMessage(file:line:reason:)`` or a template error; nothing changes then.
    public func edit(_ edited: String, file: String) throws {
        guard let text else { return }
        let newText = try text.edited(edited, file: file)
        var newLibrary = library
        try newLibrary.add(campaign.template, parts: newText.parts)
        self.text = newText
        library = newLibrary
        (messages, notRendered) = campaign.compose(selection, library: library)
        pages = Self.pages(messages)
    }

    /// The mail and text messages of ``messages``.
    public var batch: DeliveryBatch { DeliveryBatch(messages) }

    /// Delivers the messages shown (the recipients not rendered reported as failures) as
    /// ``Campaign/deliver(_:library:sending:leftOut:stop:events:)`` does.
    public func deliver(
        sending: CampaignSending, stop: OutboxStop? = nil, events: (DeliveryEvent) -> Void = { _ in }
    ) throws(ComposerError) -> CampaignDelivery {
        try campaign.deliver(
            messages, notRendered: notRendered, selection: selection, text: text, sending: sending, stop: stop,
            events: events)
    }
}

extension ComposeAlert {
    /// This alert as the picker shows it (`ComposeSheet.alertScreen`, PickerModel).
    public var pickerAlert: PickerAlert {
        PickerAlert(title: title, message: message, detail: detail, button: button)
    }
}
