import Foundation

// The built-in transports as ``DeliveryTransport``s: each says what it carries and writes or sends the
// batch itself.

extension FileTransport: DeliveryTransport {
    /// Draft files name nothing the mail goes through.
    public var via: String { "" }
    public var carriesMail: Bool { true }
    public var carriesTexts: Bool { true }
    public func prepare() throws(ComposerError) { try checkDirectory() }

    public func check() throws(ComposerError) -> [String] {
        try prepare()
        return ["\(directory.path): can be written"]
    }

    /// One `.eml` per mail draft (numbered in batch order), the text messages in `messages.sms.txt`.
    public func deliverNow(_ batch: DeliveryBatch, maxMessageSize: Int?, events: (DeliveryEvent) -> Void)
        -> DeliverySummary
    {
        var summary = DeliverySummary()
        for (n, item) in batch.mail.enumerated() {
            do {
                let url = try save(item.draft, name: String(format: "%04d-", n + 1) + item.label)
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
                let url = try saveMessage(item.draft)
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
}

/// `mailto:` and `sms:` URIs handed to the caller as events (``DeliveryTarget/uris``): nothing is written.
struct URIEvents: DeliveryTransport {
    var via: String { "" }
    var carriesMail: Bool { true }
    var carriesTexts: Bool { true }

    func deliverNow(_ batch: DeliveryBatch, maxMessageSize: Int?, events: (DeliveryEvent) -> Void)
        -> DeliverySummary
    {
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
}

extension MaildirTransport: DeliveryTransport {
    public var via: String { directory.path }
    public var carriesMail: Bool { true }
    public func prepare() throws(ComposerError) { try FileTransport(directory: directory).checkDirectory() }

    public func check() throws(ComposerError) -> [String] {
        try prepare()
        return ["\(directory.path): can be written"]
    }

    /// Every mail draft written into `new/` at once; text messages refused together.
    public func deliverNow(_ batch: DeliveryBatch, maxMessageSize: Int?, events: (DeliveryEvent) -> Void)
        -> DeliverySummary
    {
        var maildir = self
        maildir.writer = MIMEWriter(includeBcc: true, maxMessageSize: maxMessageSize)
        return Delivery.store(batch, events: events) { try maildir.save($0) }
    }
}

extension MboxTransport: DeliveryTransport {
    public var via: String { file.path }
    public var carriesMail: Bool { true }

    /// The file, when it is there, is a plain file that can be written; else its folder can be made.
    public func prepare() throws(ComposerError) {
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
    }

    public func check() throws(ComposerError) -> [String] {
        try prepare()
        return ["\(file.path): can be written"]
    }

    /// Every mail draft appended at once, under the file's lock; text messages refused together.
    public func deliverNow(_ batch: DeliveryBatch, maxMessageSize: Int?, events: (DeliveryEvent) -> Void)
        -> DeliverySummary
    {
        var mbox = self
        mbox.writer = MIMEWriter(includeBcc: true, maxMessageSize: maxMessageSize)
        return Delivery.store(batch, events: events) {
            try mbox.save($0)
            return mbox.file
        }
    }
}

extension SendmailTransport: DeliveryTransport {
    public var via: String { path }
    /// The path, marked as sendmail's (an SMTP URL never ends so).
    public var identity: String { "\(path) (sendmail)" }
    public var carriesMail: Bool { canSendMail }
    public var needsOutbox: Bool { true }

    public func check() throws(ComposerError) -> [String] {
        guard canSendMail else { throw .mailUnavailable(reason: "\(path) is not an executable sendmail") }
        return ["\(path): can be run"]
    }

    public func envelopeTransport() throws(ComposerError) -> any EnvelopeTransport {
        guard canSendMail else { throw .mailUnavailable(reason: "\(path) is not executable") }
        return self
    }
}

extension SMTPConfiguration: DeliveryTransport {
    public var via: String { url }
    /// When libcurl speaks the URL's scheme (the rule of ``Delivery/check()`` without connecting).
    public var carriesMail: Bool { (try? SMTPTransport(configuration: self).canSendMail) ?? false }
    public var needsOutbox: Bool { true }

    /// Connects (EHLO, TLS and AUTH as configured, ``SMTPTransport/checkSession()``) and hangs up: what the
    /// connection did, and what the server offers.
    public func check() throws(ComposerError) -> [String] {
        let smtp: SMTPTransport
        do { smtp = try SMTPTransport(configuration: self) } catch { throw ComposerError(error) }
        let session = try smtp.checkSession()
        return [Delivery.describe(session, of: self), Delivery.describe(session.capabilities, of: url)]
    }

    public func envelopeTransport() throws(ComposerError) -> any EnvelopeTransport {
        do { return try SMTPTransport(configuration: self) } catch let error as ComposerError {
            throw error
        } catch {
            throw .mailUnavailable(reason: "\(error)")
        }
    }

    /// The server's `SIZE`, asked with a capability check (``SMTPTransport/check()``).
    public func sizeLimit() -> Int? {
        guard let smtp = try? SMTPTransport(configuration: self) else { return nil }
        return (try? smtp.check())?.sizeLimit
    }
}
