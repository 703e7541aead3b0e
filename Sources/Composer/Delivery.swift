import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a batch of drafts goes: draft files, `mailto:`/`sms:` URIs, or a mail server (SMTP or a local
/// sendmail) through an `Outbox`.
///
/// ```swift
/// var smtp = try SMTPConfiguration(url: "smtp://mail.example.com:587")
/// smtp.startTLS = .required
/// let target = DeliveryTarget.smtp(smtp)
/// let files = DeliveryTarget.files(URL(fileURLWithPath: "drafts"))
/// var mta = SendmailTransport(path: "/usr/sbin/sendmail"); mta.timeout = 120
/// let local = DeliveryTarget.sendmail(mta)
/// ```
public enum DeliveryTarget: Sendable {
    /// One `.eml` per mail draft and `messages.sms.txt` (one `sms:` URI a line) in the folder (`FileTransport`).
    case files(URL)
    /// A `mailto:` or `sms:` URI per draft, handed to the caller (nothing is written).
    case uris
    /// An SMTP server, through an outbox.
    case smtp(SMTPConfiguration)
    /// A local sendmail program, through an outbox.
    case sendmail(SendmailTransport)
    /// A Maildir folder (`MaildirTransport`): every mail draft written into `new/` at once.
    case maildir(URL)
    /// An mbox file (`MboxTransport`, mboxrd): every mail draft appended at once, under the file's lock.
    case mbox(URL)

    /// True for SMTP and sendmail: the targets that deliver through an `Outbox` (mail only).
    public var needsOutbox: Bool {
        switch self {
        case .smtp, .sendmail: return true
        case .files, .uris, .maildir, .mbox: return false
        }
    }

    /// What the mail goes through: the SMTP URL or the sendmail program's path (empty for files and URIs).
    public var via: String {
        switch self {
        case .smtp(let c): return c.url
        case .sendmail(let t): return t.path
        case .maildir(let url), .mbox(let url): return url.path
        case .files, .uris: return ""
        }
    }

    /// Checks, before anything is rendered, what can be checked without sending: for files, that the
    /// folder is one or can be made (``FileTransport/checkDirectory()``). Other targets are checked when
    /// they are used.
    ///
    /// ```swift
    /// try DeliveryTarget.files(URL(fileURLWithPath: "drafts")).prepare()
    /// ```
    public func prepare() throws(ComposerError) {
        switch self {
        case .files(let directory), .maildir(let directory):
            try FileTransport(directory: directory).checkDirectory()
        case .mbox(let file):
            var info = stat()
            if stat(file.path, &info) == 0 {
                guard (info.st_mode & S_IFMT) == S_IFREG else {
                    throw .io(path: file.path, message: "is not a plain file (expected an mbox file)")
                }
                guard access(file.path, W_OK) == 0 else {
                    throw .io(path: file.path, message: "cannot be written: \(AtomicFile.errnoText())")
                }
            } else {
                try FileTransport(directory: file.deletingLastPathComponent()).checkDirectory()
            }
        case .uris, .smtp, .sendmail: break
        }
    }

    /// The transport an outbox sends with.
    /// - Throws: `ComposerError.mailUnavailable` for files and URIs (nothing to send with), when the sendmail
    ///   program is not executable, or when libcurl cannot be initialized.
    public func envelopeTransport() throws(ComposerError) -> any EnvelopeTransport {
        switch self {
        case .smtp(let configuration):
            do { return try SMTPTransport(configuration: configuration) } catch let error as ComposerError {
                throw error
            } catch {
                throw .mailUnavailable(reason: "\(error)")
            }
        case .sendmail(let transport):
            guard transport.canSendMail else { throw .mailUnavailable(reason: "\(transport.path) is not executable") }
            return transport
        case .files, .uris, .maildir, .mbox:
            throw .mailUnavailable(reason: "an outbox sends through SMTP or sendmail, not to files or URIs")
        }
    }
}

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

/// Where an outbox delivery keeps its messages.
public enum OutboxLocation: Sendable, Hashable {
    /// True for ``new(in:)``: the batch is queued into it (a resume queues nothing).
    public var isNew: Bool {
        if case .new = self { return true }
        return false
    }

    /// A new folder in `parent`, named by `Outbox.defaultName(for:)` (`outbox-YYYYMMDD-HHMMSS`, then `-2`, …):
    /// never an existing one, so two runs never share an outbox.
    case new(in: URL)
    /// An existing outbox folder (explicit resume): what it holds is sent, nothing is queued again. A folder
    /// whose queueing was cut short before the journal was written is filled.
    case resume(URL)
}

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

/// How a delivery ended, as a program's exit status would say it.
public enum DeliveryOutcome: Sendable, Hashable {
    /// Everything was sent, saved or handed over (or skipped as already done).
    case complete
    /// Something failed, was refused, is deferred (resume later) or uncertain (settle it).
    case incomplete
    /// A stop was requested; `DeliverySummary.remaining` messages wait for the resume.
    case interrupted
}

/// The counts of one delivery: drafts refused before sending count as failed.
///
/// ```swift
/// let summary = try delivery.deliver(batch, outbox: OutboxLocation.new(in: folder))
/// switch summary.outcome {
/// case .complete: print("done: \(summary.sent) sent")
/// case .incomplete: print("\(summary.failed) failed, \(summary.deferred) deferred, \(summary.uncertain) uncertain")
/// case .interrupted: print("\(summary.remaining) left; resume the outbox")
/// }
/// ```
public struct DeliverySummary: Sendable, Hashable {
    public var sent = 0
    /// Saved as files or handed over as URIs.
    public var saved = 0
    public var failed = 0
    /// Not sent: dry run, or already sent or failed before this run.
    public var skipped = 0
    public var deferred = 0
    public var uncertain = 0
    /// True when an outbox run stopped early on `OutboxStop.request()`.
    public var interrupted = false
    /// Messages not sent by an interrupted run: those still queued or deferred in the outbox, or, when it
    /// stopped before queueing, the mail drafts that were not queued.
    public var remaining = 0
    /// Messages of the outbox left queued because this run had no transport for their kind (text messages
    /// without an SMS program, mail without a mail server).
    public var notCarried = 0
    /// Text messages sent through the SMS program (also in `sent`) and their SMS segments.
    public var textsSent = 0
    public var textSegments = 0

    public init() {}

    /// The counts of an outbox run.
    public init(_ run: OutboxRunSummary) {
        sent = run.sent
        failed = run.failed
        skipped = run.skipped
        deferred = run.deferred
        uncertain = run.uncertain
        interrupted = run.interrupted
        remaining = run.remaining
        notCarried = run.notCarried
        textsSent = run.textsSent
        textSegments = run.textSegments
    }

    /// Adds an outbox run's counts (e.g. to the drafts refused before it).
    public mutating func add(_ run: OutboxRunSummary) { add(DeliverySummary(run)) }

    /// Adds the counts of another delivery.
    public mutating func add(_ other: DeliverySummary) {
        sent += other.sent
        saved += other.saved
        failed += other.failed
        skipped += other.skipped
        deferred += other.deferred
        uncertain += other.uncertain
        interrupted = interrupted || other.interrupted
        remaining += other.remaining
        notCarried += other.notCarried
        textsSent += other.textsSent
        textSegments += other.textSegments
    }

    /// `.interrupted` when stopped, else `.incomplete` when anything failed, is deferred or uncertain.
    public var outcome: DeliveryOutcome {
        if interrupted { return .interrupted }
        return failed > 0 || deferred > 0 || uncertain > 0 || notCarried > 0 ? .incomplete : .complete
    }
}

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

    /// Whether a send goes through an outbox: mail to SMTP or sendmail, or text messages to an SMS program.
    public var needsOutbox: Bool { target.needsOutbox || textTransport != nil }

    /// Whether mail can go this way: files, URIs, a Maildir and an mbox always can; SMTP when libcurl speaks
    /// its scheme; sendmail when the program can be run (the rule of ``check()`` without connecting).
    public var carriesMail: Bool {
        switch target {
        case .files, .uris, .maildir, .mbox: return true
        case .smtp(let configuration):
            return (try? SMTPTransport(configuration: configuration).canSendMail) ?? false
        case .sendmail(let transport): return transport.canSendMail
        }
    }

    /// Whether text messages can go this way: through the SMS program when it can be run, or as files and
    /// `sms:` URIs; SMTP, sendmail, a Maildir and an mbox carry mail only.
    public var carriesTexts: Bool {
        if let textTransport { return textTransport.canSendText }
        switch target {
        case .files, .uris: return true
        case .smtp, .sendmail, .maildir, .mbox: return false
        }
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
        let batch = withSender(batch)
        if textTransport != nil { return try deliverWithTexts(batch, outbox: location, stop: stop, events: events) }
        switch target {
        case .files(let directory): return save(batch, in: directory, events: events)
        case .maildir(let directory):
            return store(batch, in: .maildir(MaildirTransport(directory: directory)), events: events)
        case .mbox(let file): return store(batch, in: .mbox(MboxTransport(file: file)), events: events)
        case .uris: return uris(batch, events: events)
        case .smtp, .sendmail:
            var summary = DeliverySummary()
            summary.failed += refuse(batch.messages, "SMTP and sendmail carry mail only", events: events)
            guard let location else {
                let dry = dryRun(batch.mail, events: events)
                summary.failed += dry.failed
                summary.skipped += dry.skipped
                return summary
            }
            let outbox = try Outbox(location)
            let serverSize = location.isNew && !batch.mail.isEmpty ? serverSizeLimit() : nil
            guard
                let refused = try queueOnce(
                    batch.mail, into: outbox, serverSize: serverSize, stop: stop, events: events)
            else {
                if case .new = location { _ = outbox.removeIfUnused() }
                events(.stoppedBeforeQueueing(count: batch.mail.count))
                summary.interrupted = true
                summary.remaining += batch.mail.count
                return summary
            }
            summary.failed += refused
            summary.add(try send(outbox, stop: stop, events: events))
            return summary
        }
    }

    /// Tries what this delivery would use, without sending anything: the SMTP server (connect, EHLO, TLS
    /// and AUTH as configured, ``SMTPTransport/check()``), that the sendmail and SMS programs can be run,
    /// that a folder or mbox file can be written. Returns what was checked, one line each.
    ///
    /// ```swift
    /// let smtp = Delivery(target: .smtp(try SMTPConfiguration(url: "smtp://127.0.0.1:2525")))
    /// for line in try smtp.check() { print(line) }   // "smtp://127.0.0.1:2525: connected, EHLO and AUTH accepted"
    /// ```
    /// - Throws: the first failure: `.network`, `.tls`, `.authenticationFailed`, `.smtp`, `.mailUnavailable`
    ///   (no sendmail), `.messagingUnavailable` (no SMS program), `.io` (a folder that cannot be written).
    public func check() throws(ComposerError) -> [String] {
        var done: [String] = []
        switch target {
        case .smtp(let configuration):
            let smtp: SMTPTransport
            do { smtp = try SMTPTransport(configuration: configuration) } catch { throw ComposerError(error) }
            let capabilities = try smtp.check()
            let auth = configuration.username == nil ? "" : " and AUTH"
            done.append("\(configuration.url): connected, EHLO\(auth) accepted")
            done.append(Self.describe(capabilities, of: configuration.url))
        case .sendmail(let transport):
            guard transport.canSendMail else {
                throw .mailUnavailable(reason: "\(transport.path) is not an executable sendmail")
            }
            done.append("\(transport.path): can be run")
        case .files(let url), .maildir(let url), .mbox(let url):
            try target.prepare()
            done.append("\(url.path): can be written")
        case .uris: break
        }
        if let textTransport {
            guard textTransport.canSendText else {
                throw .messagingUnavailable(reason: "\(textTransport.path) is not an executable program")
            }
            done.append("\(textTransport.path): can be run")
        }
        return done
    }

    /// One line of what the server offers: its EHLO extensions, and its message size limit (`SIZE`).
    ///
    /// ```swift
    /// Delivery.describe(SMTPCapabilities(ehloReply: ["mx", "SIZE 20000", "8BITMIME"]), of: "smtp://mx")
    /// // "smtp://mx: offers SIZE 20000, 8BITMIME; messages up to 20000 bytes (SIZE)"
    /// ```
    public static func describe(_ capabilities: SMTPCapabilities, of server: String) -> String {
        let offers = capabilities.extensions.isEmpty ? "no extensions" : capabilities.extensions.joined(separator: ", ")
        let size =
            capabilities.sizeLimit.map { "messages up to \($0) bytes (SIZE)" } ?? "no message size limit announced"
        return "\(server): offers \(offers); \(size)"
    }

    /// `deliver` with an SMS program: mail goes to the target (into the outbox for SMTP and sendmail), text
    /// messages into the same outbox; then the outbox is sent (a dry run without `location`).
    private func deliverWithTexts(
        _ batch: DeliveryBatch, outbox location: OutboxLocation?, stop: OutboxStop?, events: (DeliveryEvent) -> Void
    ) throws(ComposerError) -> DeliverySummary {
        var summary = DeliverySummary()
        var mail = batch.mail
        if !target.needsOutbox && !mail.isEmpty {
            var direct = self
            direct.textTransport = nil
            summary.add(try direct.deliver(DeliveryBatch(mail: mail), stop: stop, events: events))
            mail = []
        }
        guard let location else {
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
        let outbox = try Outbox(location)
        let serverSize = location.isNew && !mail.isEmpty ? serverSizeLimit() : nil
        guard
            let refused = try queueOnce(
                mail, texts: batch.messages, into: outbox, serverSize: serverSize, stop: stop, events: events)
        else {
            if case .new = location { _ = outbox.removeIfUnused() }
            events(.stoppedBeforeQueueing(count: mail.count + batch.messages.count))
            summary.interrupted = true
            summary.remaining += mail.count + batch.messages.count
            return summary
        }
        summary.failed += refused
        summary.add(try send(outbox, stop: stop, events: events))
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
        guard let refused = try queueOnce(mail, into: outbox, stop: stop, events: events) else {
            events(.stoppedBeforeQueueing(count: mail.count))
            return 0
        }
        return refused
    }

    /// The SMTP server's `SIZE` limit, asked for with a capability check (``SMTPTransport/check()``); nil
    /// for other targets, when the server announces none, or when it cannot be reached now (the messages
    /// are queued all the same, and held to its limit when they are sent).
    private func serverSizeLimit() -> Int? {
        guard case .smtp(let configuration) = target, let smtp = try? SMTPTransport(configuration: configuration)
        else { return nil }
        return (try? smtp.check())?.sizeLimit
    }

    /// `queue` without the event of a stop: the number of drafts refused, or nil when stopped. A message
    /// above `serverSize` (the SMTP server's `SIZE`) is refused as ``ComposerError/exceedsServerSize(size:limit:server:)``.
    private func queueOnce(
        _ mail: [DeliveryItem<MailDraft>], texts: [DeliveryItem<MessageDraft>] = [], into outbox: Outbox,
        serverSize: Int? = nil, stop: OutboxStop?, events: (DeliveryEvent) -> Void
    ) throws(ComposerError) -> Int? {
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
            events(.queued(outbox, count: result.ids.count))
            return result.rejected.count
        case .resumed(let count):
            events(.resuming(outbox, count: count))
            return 0
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
        do {
            return try withoutActuallyEscaping(events) { events in
                DeliverySummary(
                    try outbox.send(using: transport, texts: textTransport, policy: policy, stop: stop) {
                        events(.progress($0))
                    })
            }
        } catch {
            throw ComposerError(error, path: outbox.directory.path)
        }
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

    private func save(_ batch: DeliveryBatch, in directory: URL, events: (DeliveryEvent) -> Void)
        -> DeliverySummary
    {
        var summary = DeliverySummary()
        let files = FileTransport(directory: directory)
        for (n, item) in batch.mail.enumerated() {
            do {
                let url = try files.save(item.draft, name: String(format: "%04d-", n + 1) + item.label)
                events(.saved(item, file: url))
                summary.saved += 1
            } catch {
                events(.refused(label: item.label, key: item.key, error: ComposerError(error)))
                summary.failed += 1
            }
        }
        var smsFiles: [URL] = []
        for item in batch.messages {
            do {
                let url = try files.saveMessage(item.draft)
                if !smsFiles.contains(url) { smsFiles.append(url) }
                summary.saved += 1
            } catch {
                events(.refused(label: item.label, key: item.key, error: ComposerError(error)))
                summary.failed += 1
            }
        }
        for url in smsFiles { events(.savedMessages(file: url)) }
        return summary
    }

    /// Refuses `messages` together (`messagesNotCarried`: `why`, and where text messages can go); returns
    /// how many.
    private func refuse(_ messages: [DeliveryItem<MessageDraft>], _ why: String, events: (DeliveryEvent) -> Void)
        -> Int
    {
        guard !messages.isEmpty else { return 0 }
        events(
            .messagesNotCarried(
                messages, error: .messagingUnavailable(reason: "\(why); save text messages as files or URIs")))
        return messages.count
    }

    /// A mail store of ``DeliveryTarget/maildir(_:)`` or ``DeliveryTarget/mbox(_:)``.
    private enum Store {
        case maildir(MaildirTransport)
        case mbox(MboxTransport)
    }

    /// Writes every mail draft into a Maildir or an mbox file at once (`saved` events; the Maildir's file,
    /// or the mbox file); text messages are refused together, as a mail store holds mail only.
    private func store(_ batch: DeliveryBatch, in store: Store, events: (DeliveryEvent) -> Void) -> DeliverySummary {
        var summary = DeliverySummary()
        summary.failed += refuse(batch.messages, "a Maildir or mbox holds mail only", events: events)
        let writer = MIMEWriter(includeBcc: true, maxMessageSize: maxMessageSize)
        for item in batch.mail {
            do {
                let file: URL
                switch store {
                case .maildir(var maildir):
                    maildir.writer = writer
                    file = try maildir.save(item.draft)
                case .mbox(var mbox):
                    mbox.writer = writer
                    try mbox.save(item.draft)
                    file = mbox.file
                }
                events(.saved(item, file: file))
                summary.saved += 1
            } catch {
                events(.refused(label: item.label, key: item.key, error: ComposerError(error)))
                summary.failed += 1
            }
        }
        return summary
    }

    private func uris(_ batch: DeliveryBatch, events: (DeliveryEvent) -> Void) -> DeliverySummary {
        var summary = DeliverySummary()
        for item in batch.mail {
            events(.uri(label: item.label, key: item.key, uri: MailtoURI(draft: item.draft).string))
            summary.saved += 1
        }
        for item in batch.messages {
            do {
                events(.uri(label: item.label, key: item.key, uri: try SMSURI(draft: item.draft).string))
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

extension ComposerError {
    /// `error` itself when it is a `ComposerError`, else an `.io` error at `path` that describes it.
    init(_ error: any Error, path: String = "") {
        self = error as? ComposerError ?? .io(path: path, message: "\(error)")
    }
}
