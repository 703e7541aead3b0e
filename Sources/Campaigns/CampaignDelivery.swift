import Composer
import ContactsSelection
import Foundation
import Templating

extension DeliveryBatch {
    /// The drafts of composed messages, in order: one item per recipient, labelled with the recipient's
    /// display name and keyed by the contact id (which `DeliveryEvent`s carry back).
    ///
    /// ```swift
    /// let (messages, _) = campaign.compose(selection, library: library)
    /// let batch = DeliveryBatch(messages)
    /// ```
    public init(_ messages: [PersonalizedMessage]) {
        self.init(
            mail: messages.compactMap { m in
                m.mail.map { DeliveryItem(label: m.displayName, key: m.contactID, draft: $0) }
            },
            messages: messages.compactMap { m in
                m.message.map { DeliveryItem(label: m.displayName, key: m.contactID, draft: $0) }
            })
    }
}

/// What `Campaign.deliver` and `Campaign.queue` did: the messages composed, every recipient that did not get
/// one (not rendered, or refused by the target) and the counts of the delivery.
public struct CampaignDelivery: Sendable {
    /// Every message composed (also those the target then refused).
    public var messages: [PersonalizedMessage]
    /// One entry per recipient left without a message: not rendered (a missing variable, an invalid
    /// address), or refused by the target (not written, not queued, a text message SMTP cannot carry).
    public var failures: [CampaignFailure]
    /// The delivery's counts; recipients not rendered are not in it (they are in `failures`).
    public var summary: DeliverySummary
    /// The outbox folder, when the target delivers through one.
    public var outbox: URL?
    /// The failures known before the delivery: contacts asked for that cannot be reached (no address for
    /// the mode) and recipients whose message could not be rendered. (The rest of ``failures`` are
    /// refusals the delivery reported as it went.)
    public var notComposed: [CampaignFailure] = []
    /// Messages left out because an outbox of the same batch holds them already (an earlier part of it,
    /// e.g. a `--limit` run): each was queued once, there.
    public var alreadyQueued = 0
    /// Messages held back by ``CampaignSending/limit`` (or a test send): a later run sends them.
    public var heldBack = 0

    /// `summary.outcome`, made `.incomplete` by recipients that were not rendered.
    public var outcome: DeliveryOutcome {
        summary.outcome == .complete && !failures.isEmpty ? .incomplete : summary.outcome
    }
}

extension Campaign {
    /// Composes the campaign for every selected contact and delivers the drafts with `delivery`: files,
    /// URIs, a dry run (`outbox` nil for SMTP and sendmail), or an outbox send that `stop` can end after the
    /// message in flight and a later call with `.resume(dir)` continues. A stop requested while rendering or
    /// queueing ends it before anything is sent, with nothing queued (`DeliveryEvent.stoppedBeforeQueueing`).
    ///
    /// A recipient whose message cannot be rendered or delivered is one entry of `failures`; the others are
    /// delivered. `events` reports the delivery as it goes (saved files, URIs, queueing, each message sent).
    ///
    /// ```swift
    /// var campaign = Campaign(template: "invite")
    /// campaign.from = try MailAddress(name: "Ada", address: "ada@example.org")
    /// campaign.data = ["project": "Atlas", "url": "https://example.com/join"]
    /// let smtp = Delivery(target: .smtp(try SMTPConfiguration(url: "smtp://127.0.0.1:2525")))
    /// let result = try campaign.deliver(selection, library: library, with: smtp,
    ///                                   outbox: .new(in: URL(fileURLWithPath: ".")))
    /// for failure in result.failures { print(failure) }           // "Ann Lee (c7): …"
    /// print(result.summary.sent, result.outbox?.path ?? "")
    /// ```
    /// - Throws: `ComposerError` only when the delivery as a whole cannot go on (the outbox cannot be made
    ///   or written, the transport is unusable); see `Delivery.deliver`.
    public func deliver(
        _ selection: SelectionController, library: TemplateLibrary, with delivery: Delivery,
        outbox location: OutboxLocation? = nil, stop: OutboxStop? = nil, events: (DeliveryEvent) -> Void = { _ in }
    ) throws(ComposerError) -> CampaignDelivery {
        var outbox: Outbox?
        if delivery.needsOutbox, let location {
            let made = try Outbox(location)
            events(.preparing(made))
            outbox = made
        }
        let (messages, notRendered) = compose(selection, library: library, stop: stop)
        return try deliver(
            messages, notComposed: notRendered, through: outbox, delivery: delivery, requireSender: false, stop: stop,
            events: events)
    }

    /// Composes the campaign and queues its mail into `outbox` without sending it (a later
    /// `Delivery.send(outbox)` or `contacts outbox send DIR` does). An outbox that already holds messages is
    /// left as it is (a resume). Recipients not rendered, refused by the outbox (e.g. no sender) or reached
    /// by text message (an outbox carries mail only) are in `failures`; `summary.failed` counts the refused.
    ///
    /// ```swift
    /// let outbox = try Outbox(.new(in: URL(fileURLWithPath: ".")))
    /// let queued = try campaign.queue(selection, library: library, into: outbox)
    /// print(queued.failures.count, "recipient(s) left out")
    /// ```
    public func queue(_ selection: SelectionController, library: TemplateLibrary, into outbox: Outbox)
        throws(ComposerError) -> CampaignDelivery
    {
        let (messages, notRendered) = compose(selection, library: library)
        let batch = DeliveryBatch(messages)
        var collector = FailureCollector(messages: messages)
        var summary = DeliverySummary()
        if !batch.messages.isEmpty {
            collector.note(
                .messagesNotCarried(
                    batch.messages, error: .messagingUnavailable(reason: "an outbox carries mail only")))
            summary.failed += batch.messages.count
        }
        let delivery = Delivery(target: .uris, sender: from)
        summary.failed += try delivery.queue(batch.mail, into: outbox) { collector.note($0) }
        return CampaignDelivery(
            messages: messages, failures: notRendered + collector.failures, summary: summary,
            outbox: outbox.directory, notComposed: notRendered)
    }
}

/// Turns the refusals of a delivery into per-recipient failures.
struct FailureCollector {
    let names: [String: String]
    var failures: [CampaignFailure] = []
    var outbox: URL?

    init(messages: [PersonalizedMessage]) {
        var names: [String: String] = [:]
        for m in messages { names[m.contactID] = m.displayName }
        self.names = names
    }

    mutating func note(_ event: DeliveryEvent) {
        switch event {
        case .refused(let label, let key, let error):
            failures.append(CampaignFailure(contactID: key, displayName: names[key] ?? label, error: error))
        case .messagesNotCarried(let items, let error):
            for item in items {
                failures.append(CampaignFailure(contactID: item.key, displayName: item.label, error: error))
            }
        case .queued(let outbox, _), .resuming(let outbox, _):
            self.outbox = outbox.directory
        default:
            break
        }
    }
}
