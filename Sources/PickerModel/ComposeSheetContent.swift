/// What the compose sheet shows and edits, filled by the front end that renders the messages (Campaigns'
/// `CampaignPreview`): the view model pages, scrolls and draws them, and knows nothing of templates, drafts
/// or deliveries.
///
/// ```swift
/// final class Note: ComposeSheetContent {
///     var pages = [ComposePage(displayName: "Ann Lee", value: "ann@example.org", subject: "Hi", body: "Hello")]
///     var failures: [String] = []
///     var alert: PickerAlert? = nil
///     var editableText: String? = nil
///     func edit(_ text: String, file: String) throws {}
/// }
/// let sheet = ComposeSheet(content: Note(), locale: "en", columns: 80, lines: 24)
/// ```
public protocol ComposeSheetContent: AnyObject {
    /// One page per recipient whose message could be rendered, in list order.
    var pages: [ComposePage] { get }
    /// The recipients whose message could not be rendered, each with the reason, as one line.
    var failures: [String] { get }
    /// The alert shown instead of the sheet when the messages cannot be sent; nil when they can.
    var alert: PickerAlert? { get }
    /// The text `e` opens in the editor; nil when the message is not edited here (a library template).
    var editableText: String? { get }
    /// Takes `text`, an edited ``editableText`` read back from the editor's file `file`, and renders every
    /// page again.
    /// - Throws: why `text` cannot be used (named by `file` and line); the pages are then unchanged.
    func edit(_ text: String, file: String) throws
}

/// One page of the compose sheet: a recipient and the message as they will get it.
public struct ComposePage: Sendable, Equatable {
    /// The recipient's name, as the title bar and the To line show it.
    public var displayName: String
    /// The address or number the message goes to.
    public var value: String
    /// The mail's subject; nil for a text message (no Subject line).
    public var subject: String?
    /// What the body shows: the text part of a mail (what every reader can show), a text message's body.
    public var body: String

    public init(displayName: String, value: String, subject: String?, body: String) {
        self.displayName = displayName
        self.value = value
        self.subject = subject
        self.body = body
    }
}

/// An alert the picker shows alone (title, message, detail, the OK button), already localized.
public struct PickerAlert: Sendable, Equatable {
    public var title: String
    public var message: String
    /// A line under the message, shown as it is; nil for none.
    public var detail: String?
    /// The button's title.
    public var button: String

    public init(title: String, message: String, detail: String? = nil, button: String) {
        self.title = title
        self.message = message
        self.detail = detail
        self.button = button
    }
}
