import Foundation

/// Sends text messages through a program, as `--sendmail-program` does mail: the program is run once per
/// number with the E.164 number (`+15555550123`) as its only argument and the message body (UTF-8) on its
/// standard input. Exit status 0 means sent, 75 (`EX_TEMPFAIL`) not yet (retried later), any other failed
/// for good. A program killed, timed out or lost track of leaves the message uncertain, as with sendmail.
///
/// `kdeconnect-cli`, `mmcli` or a provider's command-line tool fit behind a two-line wrapper script:
///
/// ```sh
/// #!/bin/sh
/// exec kdeconnect-cli --send-sms "$(cat)" --destination "$1" -n phone
/// ```
///
/// ```swift
/// let sms = SMSProgramTransport(path: "/usr/local/bin/send-sms")
/// let result = try sms.send(MessageDraft(recipients: ["+15555550123"], body: "See you at 6"))
/// ```
public struct SMSProgramTransport: MessageTransport, EnvelopeTransport {
    public var path: String
    /// Seconds the program may take for one message before its process group is killed.
    public var timeout: Double = 120

    /// The program at `path`.
    public init(path: String) {
        self.path = path
    }

    public var canSendText: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Sends the draft to each of its numbers in turn: `.sent` when every one went, else the first failure.
    public func send(_ draft: MessageDraft) throws -> ComposeResult {
        for number in draft.recipients { try E164.check(number) }
        for number in draft.recipients {
            do { try deliver(Array(draft.body.utf8), from: "", to: [number], onCommit: {}) } catch {
                return .failed(error)
            }
        }
        return .sent
    }

    /// Runs the program for the one number in `recipients` with `message` (the body) on stdin; `sender` is
    /// not used (the program's own line or account sends).
    public func deliver(_ message: [UInt8], from sender: String, to recipients: [String], onCommit: () throws -> Void)
        throws(ComposerError)
    {
        guard recipients.count == 1, let number = recipients.first else {
            throw ComposerError.missingField("recipients (one phone number a run)")
        }
        do { try E164.check(number) } catch { throw .invalidPhoneNumber(number) }
        guard canSendText else { throw .messagingUnavailable(reason: "\(path) is not an executable program") }
        let exit = try ChildProgram(path: path, timeout: timeout).run(
            [number], input: message, onCommit: onCommit, unavailable: { .messagingUnavailable(reason: $0) })
        guard exit.status == 0 else { throw .smsProgram(status: exit.status, message: exit.output) }
    }
}
