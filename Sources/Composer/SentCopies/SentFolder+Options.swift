import Foundation

/// The Sent folder a send saves its copies to, from what the user asked for: `--save-sent
/// imap(s)://host/Mailbox` or `--save-sent-maildir DIR`, the one rule of `compose` and `outbox send`.
public enum SentFolderRequest {
    /// The folder for `imap` (a URL: TLS as IMAPClient requires it, the password from `password`, never
    /// from the URL) or `maildir`; nil when neither is given.
    ///
    /// ```swift
    /// let folder = try SentFolderRequest.folder(imap: nil, maildir: "Mail/Sent", user: nil, caFile: nil,
    ///                                           sendsThroughOutbox: true) { _ in nil }
    /// ```
    /// - Throws: `ComposerError.invalidOptions` for both at once, or either without a send through an
    ///   outbox (SMTP, sendmail); `ComposerError.invalidURI` for a URL IMAP cannot use; what `password`
    ///   throws.
    public static func folder(
        imap: String?, maildir: String?, user: String?, caFile: String?, sendsThroughOutbox: Bool,
        password: (String) throws -> String?
    ) throws -> (any SentFolder)? {
        guard imap != nil || maildir != nil else { return nil }
        guard imap == nil || maildir == nil else {
            throw ComposerError.invalidOptions("choose one of --save-sent and --save-sent-maildir")
        }
        guard sendsThroughOutbox else {
            throw ComposerError.invalidOptions(
                "--save-sent and --save-sent-maildir go with --smtp or --sendmail (a copy of what is sent)")
        }
        if let maildir { return MaildirSentFolder(directory: URL(fileURLWithPath: maildir)) }
        guard let imap else { return nil }
        _ = try IMAPSentFolder(url: imap, user: nil, password: nil, caFile: caFile)  // the URL, before a prompt
        return try IMAPSentFolder(
            url: imap, user: user, password: try user.map { _ in try password(imap) } ?? nil,
            caFile: caFile)
    }
}
