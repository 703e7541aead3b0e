import Foundation

/// What happens, in order, while `Delivery` handles a batch (for printing progress or collecting results).
public enum DeliveryEvent {
    /// A mail draft was saved as `file` (`.files`).
    case saved(DeliveryItem<MailDraft>, file: URL)
    /// Text messages were appended to `file` (`.files`); reported once per file, after every message.
    case savedMessages(file: URL)
    /// The URI of a draft (`.uris`).
    case uri(label: String, key: String, uri: String)
    /// A dry run's account of a mail draft: what would be sent, and the size of the message.
    case wouldSend(DeliveryItem<MailDraft>, size: Int)
    /// A dry run's account of a text message for the SMS program: its SMS segments per number.
    case wouldText(DeliveryItem<MessageDraft>, segments: Int)
    /// A draft that could not be saved, written or queued; the rest of the batch goes on.
    case refused(label: String, key: String, error: ComposerError)
    /// Text messages the target cannot carry (SMTP and sendmail carry mail only), refused together.
    case messagesNotCarried([DeliveryItem<MessageDraft>], error: ComposerError)
    /// The outbox of a send is there — a new folder made for the batch, or the one to resume — before the
    /// batch is rendered (when the caller renders after it) and queued: a run stopped at once from here on
    /// is resumed with this outbox.
    case preparing(Outbox)
    /// The batch was queued into a new outbox: `count` messages (refused drafts were reported before).
    case queued(Outbox, count: Int)
    /// The outbox already held `count` messages (a resume): they are sent; the batch is not queued again.
    case resuming(Outbox, count: Int)
    /// A stop was requested (`OutboxStop`) before the batch was queued: nothing was queued or sent, and a
    /// new outbox folder made for it was removed. `count` mail drafts were not queued.
    case stoppedBeforeQueueing(count: Int)
    /// A message of the outbox reached a state for this run (sent, failed, deferred after its last try,
    /// uncertain).
    case progress(OutboxProgress)
}
