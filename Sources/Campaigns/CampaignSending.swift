import Composer
import ContactsSelection
import Foundation
import Support
import Templating

/// How a campaign's messages leave, and what "send" means: one rule for every front end (`contacts
/// compose`, the compose sheet of `contacts pick`).
///
/// Files, URIs, a Maildir and an mbox are written at once. Mail for a server (SMTP, sendmail) and text
/// messages for the SMS program are sent only when ``send`` is true (`--send`); without it the delivery is
/// a dry run that describes each message (`DeliveryEvent.wouldSend`, `.wouldText`) and sends nothing. A
/// send goes through an outbox, exactly once and resumable: a new folder in ``outboxFolder``, or
/// ``resume``. A new outbox is not made while an unfinished outbox of the same batch is in
/// ``outboxFolder`` (`ComposerError.unfinishedBatch`: resume that one), unless ``newBatch``.
///
/// ```swift
/// let smtp = Delivery(target: .smtp(try SMTPConfiguration(url: "smtp://127.0.0.1:2525")))
/// let dryRun = CampaignSending(delivery: smtp)                  // describes what would be sent
/// let send = CampaignSending(delivery: smtp, send: true)        // queues into ./outbox-…, then sends
/// ```
public struct CampaignSending: Sendable {
    /// Where the messages go: target, policy, sender, SMS program.
    public var delivery: Delivery
    /// Really deliver what goes through an outbox (`--send`); false: a dry run for it.
    public var send: Bool
    /// The folder new outboxes are made in.
    public var outboxFolder: URL
    /// An outbox to continue (`--resume DIR`) instead of a new one.
    public var resume: URL?
    /// Make a new outbox even when an unfinished outbox of the same batch is in ``outboxFolder``
    /// (`--new-batch`): its recipients may then get the message twice.
    public var newBatch: Bool
    /// Only the first `limit` messages (`--limit N`): a prefix of the batch. A later run of the same batch
    /// from the same folder sends only the messages no outbox of it holds yet, each once.
    public var limit: Int?
    /// A test send (`--test-to ADDRESS`): the first message (or the first ``limit``) goes to this address
    /// alone, `[TEST]` before its subject, as a batch of its own: it counts for none of the real recipients.
    public var testTo: MailAddress?
    /// The most recipients (To, Cc, Bcc) one message may have (a provider's limit, `ProviderLimits`): a
    /// message with more is refused, its recipient named (``CampaignError/tooManyRecipients(count:limit:)``).
    public var maxRecipients: Int?

    public init(
        delivery: Delivery, send: Bool = false,
        outboxFolder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath), resume: URL? = nil,
        newBatch: Bool = false
    ) {
        self.delivery = delivery
        self.send = send
        self.outboxFolder = outboxFolder
        self.resume = resume
        self.newBatch = newBatch
    }

    /// Whether the messages are queued into an outbox and sent (else written at once, or a dry run).
    public var sendsThroughOutbox: Bool { send && delivery.needsOutbox }

    /// Whether the messages would go through an outbox but are only described (no ``send``).
    public var isDryRun: Bool { !send && delivery.needsOutbox }

    /// Refuses a send to a built-in sample book (`isSample`: the contacts were not read from a source the
    /// user named): its addresses belong to nobody who asked for mail. Files, URIs and dry runs are fine.
    ///
    /// ```swift
    /// try CampaignSending(delivery: Delivery(target: .uris), send: true).checkBook(isSample: false)
    /// ```
    /// - Throws: ``CampaignError/sampleBook`` for a send to the sample.
    public func checkBook(isSample: Bool) throws(CampaignError) {
        if isSample && sendsThroughOutbox { throw .sampleBook }
    }
}

extension Campaign {
    /// Composes the campaign for every selected contact and delivers it as `sending` says — the one way
    /// every front end runs a campaign from selection to delivery. `leftOut` are contacts that were asked
    /// for and cannot be reached (`SelectionController.selectRecipients(ids:from:)`): they are failures
    /// of the result, as recipients that could not be rendered are.
    ///
    /// For a send, the outbox is made (or opened, to resume) before anything is rendered, and reported
    /// (`DeliveryEvent.preparing`): a run stopped at once while rendering or queueing is resumed with it.
    /// A stop requested while rendering or queueing ends it with nothing queued and the new outbox removed.
    ///
    /// ```swift
    /// var campaign = Campaign(template: "invite")
    /// campaign.from = try MailAddress(name: "Ada", address: "ada@example.org")
    /// let smtp = Delivery(target: .smtp(try SMTPConfiguration(url: "smtp://127.0.0.1:2525")))
    /// let result = try campaign.deliver(
    ///     selection, library: library, sending: CampaignSending(delivery: smtp, send: true))
    /// for failure in result.failures { print(failure) }
    /// ```
    /// - Throws: `ComposerError.unfinishedBatch` when an unfinished outbox of this batch is there (nothing
    ///   is rendered or sent), `.missingField("from")` when mail has no sender, and what
    ///   `Delivery.deliver(_:through:stop:events:)` throws.
    public func deliver(
        _ selection: SelectionController, library: TemplateLibrary, sending: CampaignSending,
        leftOut: [CampaignFailure] = [], stop: OutboxStop? = nil, events: (DeliveryEvent) -> Void = { _ in }
    ) throws(ComposerError) -> CampaignDelivery {
        let identity = sending.identity(batchIdentity(selection, text: nil, delivery: sending.delivery))
        let outbox = try prepareOutbox(identity, sending: sending, events: events)
        let (messages, notRendered) = compose(selection, library: library, stop: stop)
        try saveTokens()
        return try deliver(
            messages, notComposed: leftOut + notRendered, through: outbox, sending: sending, identity: identity,
            stop: stop, events: events)
    }

    /// Delivers messages composed already (``compose(_:library:stop:)``, e.g. those a compose sheet shows,
    /// rendered from `text` when it was written rather than a library template) for the selected contacts
    /// of `selection`, exactly as ``deliver(_:library:sending:leftOut:stop:events:)`` does.
    public func deliver(
        _ messages: [PersonalizedMessage], notRendered: [CampaignFailure], selection: SelectionController,
        text: ComposerText?, sending: CampaignSending, stop: OutboxStop? = nil,
        events: (DeliveryEvent) -> Void = { _ in }
    ) throws(ComposerError) -> CampaignDelivery {
        let identity = sending.identity(batchIdentity(selection, text: text, delivery: sending.delivery))
        let outbox = try prepareOutbox(identity, sending: sending, events: events)
        return try deliver(
            messages, notComposed: notRendered, through: outbox, sending: sending, identity: identity, stop: stop,
            events: events)
    }

    /// Writes the unsubscribe tokens made while composing, before anything is sent.
    func saveTokens() throws(ComposerError) {
        guard let unsubscribeTokens else { return }
        do { try unsubscribeTokens.save() } catch {
            throw .io(path: unsubscribeTokens.file, message: "\(error)")
        }
    }

    /// Delivers `messages` as `sending` says: those an outbox of the batch `identity` holds already left
    /// out, then the ``CampaignSending/limit`` and ``CampaignSending/testTo`` applied.
    private func deliver(
        _ messages: [PersonalizedMessage], notComposed: [CampaignFailure], through outbox: Outbox?,
        sending: CampaignSending, identity: String, stop: OutboxStop?, events: (DeliveryEvent) -> Void
    ) throws(ComposerError) -> CampaignDelivery {
        let chosen = sending.choose(messages, identity: outbox == nil ? nil : identity)
        if let outbox, chosen.heldBack > 0 || chosen.alreadyQueued > 0 {
            // A part of the batch: the next run of it sends only what no part holds.
            do throws(ComposerError) { try outbox.recordPart() } catch {
                if outbox.isNew { _ = outbox.removeIfUnused() }
                throw error
            }
        }
        var messages = chosen.messages
        var refused: [CampaignFailure] = []
        if let limit = sending.maxRecipients {
            messages.removeAll { message in
                guard let count = message.mail?.envelopeRecipients.count, count > limit else { return false }
                let error = CampaignError.tooManyRecipients(count: count, limit: limit)
                refused.append(
                    CampaignFailure(contactID: message.contactID, displayName: message.displayName, error: error))
                return true
            }
        }
        var result = try deliver(
            messages, notComposed: notComposed + refused, through: outbox, delivery: sending.delivery, stop: stop,
            events: events)
        result.alreadyQueued = chosen.alreadyQueued
        result.heldBack = chosen.heldBack
        return result
    }

    /// The identity of the batch this campaign makes for the selected contacts of `selection` through
    /// `delivery`: its template (and the `text` written for it), its data and recipients' rows, each
    /// recipient (contact, channel, address) and the transport. Runs with the same identity are one batch
    /// (`Outbox.unfinished(batch:in:)`, Composer).
    ///
    /// ```swift
    /// let sendmail = Delivery(target: .sendmail(SendmailTransport()))
    /// let identity = campaign.batchIdentity(selection, text: nil, delivery: sendmail)   // "v1-3f0c…"
    /// ```
    public func batchIdentity(_ selection: SelectionController, text: ComposerText?, delivery: Delivery) -> String {
        var canonical = "template \(template.utf8.count):\(template)\n"
        for (part, source) in (text?.parts ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            canonical += "part \(part.rawValue) \(source.utf8.count):\(source)\n"
        }
        canonical += "data "
        Self.canonical(.dictionary(MustacheDictionary(data)), into: &canonical)
        for key in recipientData.keys.sorted() {
            canonical += "\nrow \(key.utf8.count):\(key) "
            Self.canonical(.dictionary(MustacheDictionary(recipientData[key] ?? [:])), into: &canonical)
        }
        for row in selection.selectedRows {
            let reach = selection.value(for: row.id)
            canonical += "\nto \(row.id.utf8.count):\(row.id) \(reach?.channel.rawValue ?? "-") \(reach?.value ?? "")"
        }
        canonical += "\nvia \(delivery.target.transport.identity)"
        if let sms = delivery.textTransport { canonical += "\nsms \(sms.path)" }
        return "v1-" + String(canonical.fnv1a64, radix: 16)
    }

    /// `value` written the same way whatever the order of its keys.
    static func canonical(_ value: MustacheValue, into out: inout String) {
        switch value {
        case .null: out += "n"
        case .bool(let b): out += b ? "t" : "f"
        case .int(let i): out += "i\(i);"
        case .double(let d): out += "d\(d);"
        case .date(let d): out += "D\(d);"
        case .string(let s): out += "s\(s.utf8.count):\(s)"
        case .array(let items):
            out += "[\(items.count)"
            for item in items { canonical(item, into: &out) }
            out += "]"
        case .dictionary(let dictionary):
            let entries = dictionary.entries.sorted { $0.key < $1.key }
            out += "{\(entries.count)"
            for (key, item) in entries {
                out += "\(key.utf8.count):\(key)"
                canonical(item, into: &out)
            }
            out += "}"
        case .object(let object): out += "o\(object.mustacheText ?? "")"
        case .lambda: out += "l"
        }
    }

    /// The outbox of a send, before anything is rendered: the one to resume, or a new one for this batch
    /// (refused while an unfinished outbox of the same batch is there); nil when nothing is sent through one.
    private func prepareOutbox(_ identity: String, sending: CampaignSending, events: (DeliveryEvent) -> Void)
        throws(ComposerError) -> Outbox?
    {
        guard sending.sendsThroughOutbox else { return nil }
        if let resume = sending.resume {
            let outbox = try Outbox(.resume(resume))
            events(.preparing(outbox))
            return outbox
        }
        if !sending.newBatch, let open = Outbox.unfinished(batch: identity, in: sending.outboxFolder) {
            throw .unfinishedBatch(path: open.path)
        }
        let outbox = try Outbox(.new(in: sending.outboxFolder))
        do { try outbox.recordBatch(identity) } catch {
            _ = outbox.removeIfUnused()
            throw error
        }
        events(.preparing(outbox))
        return outbox
    }

    /// Delivers composed messages through `outbox` (made for them, or nil), collecting the refusals; with
    /// `requireSender`, mail without a sender stops it before anything is delivered (`.missingField("from")`).
    /// A new outbox is removed again when it throws.
    func deliver(
        _ messages: [PersonalizedMessage], notComposed: [CampaignFailure], through outbox: Outbox?,
        delivery: Delivery, requireSender: Bool = true, stop: OutboxStop?, events: (DeliveryEvent) -> Void
    ) throws(ComposerError) -> CampaignDelivery {
        var collector = FailureCollector(messages: messages)
        let summary: DeliverySummary
        do throws(ComposerError) {
            if requireSender && delivery.sender == nil
                && messages.contains(where: { $0.mail != nil && $0.mail?.from == nil })
            {
                throw .missingField("from")
            }
            summary = try delivery.deliver(DeliveryBatch(messages), through: outbox, stop: stop) { event in
                collector.note(event)
                events(event)
            }
        } catch {
            if let outbox, outbox.isNew { _ = outbox.removeIfUnused() }
            throw error
        }
        var result = CampaignDelivery(
            messages: messages, failures: notComposed + collector.failures, summary: summary,
            outbox: collector.outbox)
        result.notComposed = notComposed
        return result
    }
}
