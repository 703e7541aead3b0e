import Foundation

/// Pipes messages to a local MTA: `sendmail -t -i` (recipients from the headers, a lone `.` is not the end)
/// or, for the outbox, `sendmail -i -f FROM -- RCPT…` with an explicit envelope.
///
/// ```swift
/// let mta = SendmailTransport()                       // /usr/sbin/sendmail
/// let custom = SendmailTransport(path: "/usr/local/bin/msmtp")
/// let result = try mta.send(draft)
/// ```
public struct SendmailTransport: MailTransport, EnvelopeTransport {
    public var path: String

    /// `path`, or the first of /usr/sbin/sendmail and /usr/lib/sendmail.
    public init(path: String? = nil) {
        self.path =
            path ?? ["/usr/sbin/sendmail", "/usr/lib/sendmail"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            } ?? "/usr/sbin/sendmail"
    }

    public var canSendMail: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs `sendmail -t -i`; the message includes Bcc so the MTA can route and then strip it.
    public func send(_ draft: MailDraft) throws -> ComposeResult {
        guard canSendMail else { throw ComposerError.mailUnavailable(reason: "\(path) is not an executable sendmail") }
        let bytes = try MIMEWriter(includeBcc: true).write(draft)
        do {
            try run(["-t", "-i"], message: bytes, onCommit: {})
            return .sent
        } catch {
            return .failed(error)
        }
    }

    /// Runs `sendmail -i -f FROM -- RCPT…` with the message on stdin (envelope validated first).
    public func deliver(_ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void)
        throws(ComposerError)
    {
        try SMTPTransport.checkEnvelope(sender)
        guard !recipients.isEmpty else { throw ComposerError.missingField("recipients") }
        for r in recipients { try SMTPTransport.checkEnvelope(r) }
        guard canSendMail else { throw ComposerError.mailUnavailable(reason: "\(path) is not an executable sendmail") }
        try run(["-i", "-f", sender, "--"] + recipients, message: message, onCommit: onCommit)
    }

    /// Local MTAs expect local line ends: CRLF becomes LF on the pipe.
    private func run(_ args: [String], message: [UInt8], onCommit: () throws -> Void) throws(ComposerError) {
        var lf: [UInt8] = []
        lf.reserveCapacity(message.count)
        for (i, b) in message.enumerated() where !(b == 13 && i + 1 < message.count && message[i + 1] == 10) {
            lf.append(b)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = args
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = errors
        // Once the program runs, closing the pipe (even by a crash) hands it the message: commit first.
        do { try onCommit() } catch { throw error as? ComposerError ?? .io(path: "journal", message: "\(error)") }
        do { try process.run() } catch {
            throw ComposerError.mailUnavailable(reason: "cannot start \(path): \(error.localizedDescription)")
        }
        nonisolated(unsafe) var errorText = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorText = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        do {
            try input.fileHandleForWriting.write(contentsOf: Data(lf))
            try input.fileHandleForWriting.close()
        } catch {
            try? input.fileHandleForWriting.close()
        }
        group.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: errorText, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw ComposerError.sendmail(status: process.terminationStatus, message: text)
        }
    }
}

/// Hands drafts to the desktop as `mailto:` / `sms:` URIs: printed (to a callback, e.g. stdout) or opened
/// with `xdg-open` when that is installed. The result is `.saved`: a URI delivers nothing by itself.
///
/// ```swift
/// let t = URITransport(mode: .print { print($0) })
/// _ = try t.send(draft)          // prints mailto:…
/// ```
public struct URITransport: MailTransport, MessageTransport {
    public enum Mode: Sendable {
        case print(@Sendable (String) -> Void)
        case open(opener: String)
    }
    public var mode: Mode

    public init(mode: Mode) { self.mode = mode }

    /// `xdg-open` from PATH, if any.
    public static var xdgOpen: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/xdg-open" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    private var available: Bool {
        if case .open(let opener) = mode { return FileManager.default.isExecutableFile(atPath: opener) }
        return true
    }
    public var canSendMail: Bool { available }
    public var canSendText: Bool { available }

    public func send(_ draft: MailDraft) throws -> ComposeResult {
        guard available else {
            throw ComposerError.mailUnavailable(reason: "no program to open mailto: URIs (xdg-open)")
        }
        return try hand(MailtoURI(draft: draft).string)
    }

    public func send(_ draft: MessageDraft) throws -> ComposeResult {
        guard available else {
            throw ComposerError.messagingUnavailable(reason: "no program to open sms: URIs (xdg-open)")
        }
        return try hand(try SMSURI(draft: draft).string)
    }

    private func hand(_ uri: String) throws -> ComposeResult {
        switch mode {
        case .print(let output):
            output(uri)
            return .saved
        case .open(let opener):
            let p = Process()
            p.executableURL = URL(fileURLWithPath: opener)
            p.arguments = [uri]
            do { try p.run() } catch {
                return .failed(.mailUnavailable(reason: "\(opener): \(error.localizedDescription)"))
            }
            p.waitUntilExit()
            return p.terminationStatus == 0
                ? .saved : .failed(.mailUnavailable(reason: "\(opener) exited with \(p.terminationStatus)"))
        }
    }
}
