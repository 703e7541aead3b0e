import Foundation

/// Hands messages to a local MTA: `sendmail -t -i` (recipients from the headers, a lone `.` is not the end)
/// or, for the outbox, `sendmail -i -f FROM -- RCPT…` with an explicit envelope.
///
/// The message reaches the program as a complete file on its standard input (never a pipe that a crash
/// could cut short, which sendmail would deliver truncated). The program runs in its own process group, so a
/// Ctrl-C on the terminal does not kill it mid-message; it is given `timeout` seconds, then its group is
/// killed and the message is `ComposerError.deliveryUncertain`. Exit status 75 (`EX_TEMPFAIL`) is a
/// transient failure (retried), any other non-zero status a permanent one.
/// `terminateRunningPrograms()` kills the groups still running (for a program that is being stopped).
/// On Linux the program also dies with this process (`PR_SET_PDEATHSIG`): after a `kill -9` no sendmail
/// runs on, and the message it had is uncertain. (The kernel drops that setting for a set-user-ID or
/// set-group-ID program, and programs that sendmail starts itself are not covered.)
///
/// ```swift
/// let mta = SendmailTransport()                       // /usr/sbin/sendmail
/// var custom = SendmailTransport(path: "/usr/local/bin/msmtp")
/// custom.timeout = 120
/// let result = try mta.send(draft)
/// ```
public struct SendmailTransport: MailTransport, EnvelopeTransport {
    public var path: String
    /// Seconds the program may take for one message before its process group is killed.
    public var timeout: Double = 600

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

    /// Kills (SIGTERM, then SIGKILL after `grace` seconds) the process group of every sendmail program this
    /// process started that is still running. For a program that stops on a signal: no MTA outlives it.
    public static func terminateRunningPrograms(grace: Double = 1) {
        let groups = ChildProcessGroups.running
        guard !groups.isEmpty else { return }
        for g in groups { kill(-g, SIGTERM) }
        let deadline = Date().addingTimeInterval(grace)
        while Date() < deadline && groups.contains(where: { kill(-$0, 0) == 0 }) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        for g in groups { kill(-g, SIGKILL) }
    }

    /// Local MTAs expect local line ends: CRLF becomes LF.
    private func run(_ args: [String], message: [UInt8], onCommit: () throws -> Void) throws(ComposerError) {
        var lf: [UInt8] = []
        lf.reserveCapacity(message.count)
        for (i, b) in message.enumerated() where !(b == 13 && i + 1 < message.count && message[i + 1] == 10) {
            lf.append(b)
        }
        let exit = try ChildProgram(path: path, timeout: timeout).run(args, input: lf, onCommit: onCommit)
        guard exit.status == 0 else { throw ComposerError.sendmail(status: exit.status, message: exit.output) }
    }
}
