import Foundation

/// Delivers a batch of drafts to a `DeliveryTarget`: saves files, makes URIs, describes a dry run, or queues
/// the mail into an `Outbox` and sends it with the policy's rate limit and retries. A draft that cannot be
/// delivered is reported (`DeliveryEvent.refused`) and the others go on; nothing is sent twice.
///
/// ```swift
/// let policy = OutboxPolicy(maxAttempts: 3, backoff: 5, messagesPerMinute: 30)
/// let delivery = Delivery(target: .smtp(try SMTPConfiguration(url: "smtp://mail.example.com")), policy: policy)
/// let stop = OutboxStop()                      // stop.request() on Ctrl-C finishes the message in flight
/// let summary = try delivery.deliver(batch, outbox: .new(in: URL(fileURLWithPath: ".")), stop: stop) { event in
///     if case .refused(let label, _, let error) = event { print("\(label): \(error)") }
/// }
/// if summary.outcome == .interrupted { /* later: delivery.deliver(batch, outbox: .resume(dir)) */ }
/// ```
public struct Delivery: Sendable {
    public var target: DeliveryTarget
    public var policy: OutboxPolicy
    /// The sender of mail drafts that have none.
    public var sender: MailAddress?
    /// The most bytes one message may have once written (attachments base64-encoded): a larger one is
    /// refused before anything is sent. Default ``defaultMaxMessageSize``. An SMTP server's own limit, the
    /// `SIZE` of its EHLO reply (RFC 1870), is asked for before a new batch is queued: a message above it
    /// is refused then, naming its recipient (``ComposerError/exceedsServerSize(size:limit:server:)``),
    /// and the others are sent. Messages queued earlier are held to it again when they are sent.
    public var maxMessageSize: Int? = Delivery.defaultMaxMessageSize

    /// Text messages through an SMS program, queued in the same outbox as the mail and sent exactly once
    /// like it (nil: text messages go where the target puts them, or are refused by SMTP and sendmail).
    public var textTransport: SMSProgramTransport?
    /// Where a copy of each sent mail is saved (an IMAP `Sent` mailbox, a Maildir): once per message of the
    /// outbox, across kills and reruns (`Outbox.saveSentCopies(to:)`); nil: no copies.
    public var sentFolder: (any SentFolder)?

    /// Whether a send goes through an outbox: mail to SMTP or sendmail, or text messages to an SMS program.
    public var needsOutbox: Bool { target.needsOutbox || textTransport != nil }

    /// Whether mail can go this way: files, URIs, a Maildir and an mbox always can; SMTP when libcurl speaks
    /// its scheme; sendmail when the program can be run (the rule of ``check()`` without connecting).
    public var carriesMail: Bool { target.transport.carriesMail }

    /// Whether text messages can go this way: through the SMS program when it can be run, or as files and
    /// `sms:` URIs; SMTP, sendmail, a Maildir and an mbox carry mail only.
    public var carriesTexts: Bool {
        if let textTransport { return textTransport.canSendText }
        return target.transport.carriesTexts
    }

    /// 25 MB (26 214 400 bytes), the limit of the large mail providers.
    public static let defaultMaxMessageSize = 25 << 20

    public init(
        target: DeliveryTarget, policy: OutboxPolicy = OutboxPolicy(), sender: MailAddress? = nil,
        maxMessageSize: Int? = Delivery.defaultMaxMessageSize, textTransport: SMSProgramTransport? = nil
    ) {
        self.textTransport = textTransport
        self.target = target
        self.policy = policy
        self.sender = sender
        self.maxMessageSize = maxMessageSize
    }

    /// Delivers `batch`: to files or URIs, or for SMTP and sendmail into `outbox` and then sent (a dry run
    /// when `outbox` is nil: nothing is written or sent, `wouldSend` events say what would be).
    ///
    /// Text messages cannot go through SMTP or sendmail: they are refused (`messagesNotCarried`) and counted
    /// as failed. With `stop`, a stop requested while the batch is being queued ends the delivery before
    /// anything is sent, with nothing queued (`stoppedBeforeQueueing`; an outbox folder made for it is
    /// removed); once it is queued, a requested stop ends the send after the message in flight. Either way
    /// the summary's `outcome` is `.interrupted`.
    /// - Throws: `ComposerError` when the outbox cannot be made or opened (`.outboxMissing` for a resume
    ///   of a folder that is not there), its journal fails, or the transport is unusable (credentials, TLS,
    ///   no sendmail); per-draft problems are events, not errors.
    @discardableResult
    public func deliver(
        _ batch: DeliveryBatch, outbox location: OutboxLocation? = nil, stop: OutboxStop? = nil,
        events: (DeliveryEvent) -> Void = { _ in }
    ) throws(ComposerError) -> DeliverySummary {
        guard needsOutbox, let location else { return try deliver(batch, through: nil, stop: stop, events: events) }
        let outbox = try Outbox(location)
        events(.preparing(outbox))
        return try deliver(batch, through: outbox, stop: stop, events: events)
    }

    /// ``deliver(_:outbox:stop:events:)`` through an outbox made or opened already (`Outbox(_:date:)`), e.g.
    /// before the batch was rendered; nil is a dry run for SMTP, sendmail and the SMS program. A new outbox
    /// (``Outbox/isNew``) into which nothing is queued — stopped before queueing, or every draft refused —
    /// is removed again: no empty outbox is left.
    @discardableResult
    public func deliver(
        _ batch: DeliveryBatch, through outbox: Outbox?, stop: OutboxStop? = nil,
        events: (DeliveryEvent) -> Void = { _ in }
    ) throws(ComposerError) -> DeliverySummary {
        let batch = withSender(batch)
        if textTransport != nil { return try deliverWithTexts(batch, through: outbox, stop: stop, events: events) }
        guard target.needsOutbox else {
            return target.transport.deliverNow(batch, maxMessageSize: maxMessageSize, events: events)
        }
        var summary = DeliverySummary()
        summary.failed += Self.refuse(batch.messages, "SMTP and sendmail carry mail only", events: events)
        guard let outbox else {
            let dry = dryRun(batch.mail, events: events)
            summary.failed += dry.failed
            summary.skipped += dry.skipped
            return summary
        }
        summary.add(try queueAndSend(batch.mail, texts: [], into: outbox, stop: stop, events: events))
        return summary
    }

    /// Queues `mail` and `texts` into `outbox` and sends it: a stop before queueing queues nothing, and a
    /// new outbox that holds nothing is removed.
    private func queueAndSend(
        _ mail: [DeliveryItem<MailDraft>], texts: [DeliveryItem<MessageDraft>], into outbox: Outbox,
        stop: OutboxStop?, events: (DeliveryEvent) -> Void
    ) throws(ComposerError) -> DeliverySummary {
        var summary = DeliverySummary()
        let serverSize = outbox.isNew && !mail.isEmpty ? serverSizeLimit() : nil
        guard
            let (refused, queued) = try queueOnce(
                mail, texts: texts, into: outbox, serverSize: serverSize, stop: stop, events: events)
        else {
            if outbox.isNew { _ = outbox.removeIfUnused() }
            events(.stoppedBeforeQueueing(count: mail.count + texts.count))
            summary.interrupted = true
            summary.remaining += mail.count + texts.count
            return summary
        }
        summary.failed += refused
        if outbox.isNew && queued == 0 && outbox.removeIfUnused() { return summary }
        summary.add(try send(outbox, stop: stop, events: events))
        return summary
    }

    /// `deliver` with an SMS program: mail goes to the target (into the outbox for SMTP and sendmail), text
    /// messages into the same outbox; then the outbox is sent (a dry run without an outbox).
    private func deliverWithTexts(
        _ batch: DeliveryBatch, through outbox: Outbox?, stop: OutboxStop?, events: (DeliveryEvent) -> Void
    ) throws(ComposerError) -> DeliverySummary {
        var summary = DeliverySummary()
        var mail = batch.mail
        if !target.needsOutbox && !mail.isEmpty {
            var direct = self
            direct.textTransport = nil
            summary.add(try direct.deliver(DeliveryBatch(mail: mail), through: nil, stop: stop, events: events))
            mail = []
        }
        guard let outbox else {
            summary.add(dryRun(mail, events: events))
            for item in batch.messages {
                do {
                    for number in item.draft.recipients { try E164.check(number) }
                    events(.wouldText(item, segments: item.draft.segments.segments))
                    summary.skipped += 1
                } catch {
                    events(.refused(label: item.label, key: item.key, error: ComposerError(error)))
                    summary.failed += 1
                }
            }
            return summary
        }
        summary.add(try queueAndSend(mail, texts: batch.messages, into: outbox, stop: stop, events: events))
        return summary
    }

    /// Queues `mail` into `outbox` unless it already holds messages (then it is a resume and nothing is
    /// queued again). Reports each refused draft and then `queued` or `resuming`; returns how many were
    /// refused. With `stop`, a stop requested before the batch is queued queues nothing (the message files
    /// written are removed again) and reports `stoppedBeforeQueueing`.
    public func queue(
        _ mail: [DeliveryItem<MailDraft>], into outbox: Outbox, stop: OutboxStop? = nil,
        events: (DeliveryEvent) -> Void = { _ in }
    ) throws(ComposerError) -> Int {
        guard let (refused, _) = try queueOnce(mail, into: outbox, stop: stop, events: events) else {
            events(.stoppedBeforeQueueing(count: mail.count))
            return 0
        }
        return refused
    }

    /// The receiver's own size limit (``DeliveryTransport/sizeLimit()``: an SMTP server's `SIZE`); nil for
    /// other targets, when the server announces none, or when it cannot be reached now (the messages are
    /// queued all the same, and held to its limit when they are sent).
    private func serverSizeLimit() -> Int? { target.transport.sizeLimit() }

    /// `queue` without the event of a stop: the number of drafts refused and of messages queued (or held
    /// already, on a resume), or nil when stopped. A message above `serverSize` (the SMTP server's `SIZE`) is
    /// refused as ``ComposerError/exceedsServerSize(size:limit:server:)``. Nothing queued into a new outbox
    /// is reported as refusals only (no `queued` event).
    private func queueOnce(
        _ mail: [DeliveryItem<MailDraft>], texts: [DeliveryItem<MessageDraft>] = [], into outbox: Outbox,
        serverSize: Int? = nil, stop: OutboxStop?, events: (DeliveryEvent) -> Void
    ) throws(ComposerError) -> (refused: Int, queued: Int)? {
        let mail = mail.map { withSender($0) }
        let limit = [maxMessageSize, serverSize].compactMap { $0 }.min()
        let writer = MIMEWriter(maxMessageSize: limit)
        switch try outbox.enqueueOnce(
            mail.map(\.draft), labels: mail.map(\.label), texts: texts.map(\.draft), textLabels: texts.map(\.label),
            writer: writer, stop: stop)
        {
        case .queued(let result):
            for r in result.rejected {
                let (label, key) =
                    r.index < mail.count
                    ? (mail[r.index].label, mail[r.index].key)
                    : (texts[r.index - mail.count].label, texts[r.index - mail.count].key)
                var error = r.error
                if case .messageTooLarge(let size, let limit) = error, let serverSize, limit == serverSize,
                    serverSize < maxMessageSize ?? Int.max
                {
                    error = .exceedsServerSize(size: size, limit: limit, server: target.via)
                }
                events(.refused(label: label, key: key, error: error))
            }
            if !(outbox.isNew && result.ids.isEmpty) { events(.queued(outbox, count: result.ids.count)) }
            return (result.rejected.count, result.ids.count)
        case .resumed(let count):
            events(.resuming(outbox, count: count))
            return (0, count)
        case .interrupted:
            return nil
        }
    }

    /// Sends what `outbox` holds (queued and deferred messages; uncertain ones when the policy says so) with
    /// this target's transport, reporting each message's outcome as `progress`.
    public func send(_ outbox: Outbox, stop: OutboxStop? = nil, events: (DeliveryEvent) -> Void = { _ in })
        throws(ComposerError) -> DeliverySummary
    {
        let transport = textTransport == nil || target.needsOutbox ? try target.envelopeTransport() : nil
        if let textTransport, !textTransport.canSendText {
            throw .messagingUnavailable(reason: "\(textTransport.path) is not an executable program")
        }
        var summary: DeliverySummary
        var copies = 0
        do {
            summary = try withoutActuallyEscaping(events) { events in
                try outbox.send(using: transport, texts: textTransport, policy: policy, stop: stop) { progress in
                    // The copy right after the send (a failure here is retried by the sweep below).
                    if let sentFolder, Outbox.wasSent(progress.item),
                        case .saved? = try? outbox.saveSentCopy(of: progress.item, to: sentFolder)
                    {
                        copies += 1
                    }
                    events(.progress(progress))
                }
            }
        } catch {
            throw ComposerError(error, path: outbox.directory.path)
        }
        if let sentFolder {
            let swept = try outbox.saveSentCopies(to: sentFolder)
            summary.copiesSaved += copies + swept.saved
            summary.copyProblems += swept.problems
        }
        return summary
    }

    /// Writes every mail draft as MIME without sending it: a `wouldSend` event for each, `refused` for
    /// those that cannot be written. Counts them skipped or failed.
    public func dryRun(_ mail: [DeliveryItem<MailDraft>], events: (DeliveryEvent) -> Void = { _ in })
        -> DeliverySummary
    {
        var summary = DeliverySummary()
        for item in mail.map({ withSender($0) }) {
            do {
                let bytes = try MIMEWriter(maxMessageSize: maxMessageSize).write(item.draft)
                events(.wouldSend(item, size: bytes.count))
                summary.skipped += 1
            } catch {
                events(.refused(label: item.label, key: item.key, error: ComposerError(error)))
                summary.failed += 1
            }
        }
        return summary
    }

    /// Refuses `messages` together (`messagesNotCarried`: `why`, and where text messages can go); returns
    /// how many.
    static func refuse(_ messages: [DeliveryItem<MessageDraft>], _ why: String, events: (DeliveryEvent) -> Void)
        -> Int
    {
        guard !messages.isEmpty else { return 0 }
        events(
            .messagesNotCarried(
                messages, error: .messagingUnavailable(reason: "\(why); save text messages as files or URIs")))
        return messages.count
    }

    /// Writes every mail draft into a mail store at once with `save` (a `saved` event with the file it
    /// returns: the Maildir's file, or the mbox file); text messages are refused together, as a mail store
    /// holds mail only.
    static func store(_ batch: DeliveryBatch, events: (DeliveryEvent) -> Void, save: (MailDraft) throws -> URL)
        -> DeliverySummary
    {
        var summary = DeliverySummary()
        summary.failed += refuse(batch.messages, "a Maildir or mbox holds mail only", events: events)
        for item in batch.mail {
            do {
                let file = try save(item.draft)
                events(.saved(item, file: file))
                summary.saved += 1
            } catch {
                events(.refused(label: item.label, key: item.key, error: ComposerError(error)))
                summary.failed += 1
            }
        }
        return summary
    }

    private func withSender(_ item: DeliveryItem<MailDraft>) -> DeliveryItem<MailDraft> {
        guard item.draft.from == nil, let sender else { return item }
        var item = item
        item.draft.from = sender
        return item
    }

    private func withSender(_ batch: DeliveryBatch) -> DeliveryBatch {
        var batch = batch
        batch.mail = batch.mail.map { withSender($0) }
        return batch
    }
}
