/// The mail and text-message drafts of one delivery, in order.
///
/// ```swift
/// let batch = DeliveryBatch(mail: [DeliveryItem(label: "Ann", draft: draft)])
/// ```
public struct DeliveryBatch: Sendable, Hashable {
    public var mail: [DeliveryItem<MailDraft>]
    public var messages: [DeliveryItem<MessageDraft>]

    public init(mail: [DeliveryItem<MailDraft>] = [], messages: [DeliveryItem<MessageDraft>] = []) {
        self.mail = mail
        self.messages = messages
    }

    public var isEmpty: Bool { mail.isEmpty && messages.isEmpty }
}
