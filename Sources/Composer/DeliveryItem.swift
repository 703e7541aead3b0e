/// One draft of a batch with a label for messages about it (e.g. the recipient's name) and a key of the
/// caller's (e.g. a contact id) that events about the draft carry back.
public struct DeliveryItem<Draft: Sendable & Hashable>: Sendable, Hashable {
    public var label: String
    public var key: String
    public var draft: Draft

    /// An item; `key` defaults to `label`.
    public init(label: String, key: String? = nil, draft: Draft) {
        self.label = label
        self.key = key ?? label
        self.draft = draft
    }
}
