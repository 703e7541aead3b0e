import CurlTransfer
import Foundation

/// Where copies of sent mail are saved: an IMAP mailbox (``IMAPSentFolder``) or a Maildir
/// (``MaildirSentFolder``). ``SentCopies`` saves each copy once, even across kills.
public protocol SentFolder: Sendable {
    /// Saves `message` (as written for SMTP, CRLF line ends) and says where (for messages).
    func save(_ message: [UInt8]) throws -> String
    /// Whether a message with `messageID` (`<id@host>`) is in the folder already.
    func contains(messageID: String) throws -> Bool
    /// The folder's place (URL, path): copies are saved once per message and place.
    var place: String { get }
}

/// An IMAP mailbox: `imaps://host/Sent`, or `imap://host/Sent` with STARTTLS (plain IMAP only to this
/// machine). The password comes from the caller (Support's secret reader), never from the URL.
///
/// ```swift
/// let sent = try IMAPSentFolder(url: "imaps://mail.example.org/Sent", user: "ada", password: "secret")
/// let copies = SentCopies(journal: "campaign/outbox/sent-copies")
/// try copies.save(try MIMEWriter().write(draft), key: "item-42", to: sent)
/// ```
public struct IMAPSentFolder: SentFolder {
    public let url: String
    private let client: IMAPClient

    /// Throws `ComposerError.invalidURI` for a URL that is not `imap(s)://host[:port]/Mailbox` or that holds
    /// a user or password.
    public init(url: String, user: String?, password: String?, caFile: String? = nil) throws {
        do { _ = try IMAPClient.check(url) } catch { throw ComposerError.invalidURI(url, reason: "\(error)") }
        self.url = url
        client = IMAPClient(user: user, password: password, caFile: caFile)
    }

    public var place: String { url }

    public func save(_ message: [UInt8]) throws -> String {
        do { try client.append(message, to: url) } catch { throw Self.composerError(error) }
        return url
    }

    public func contains(messageID: String) throws -> Bool {
        do { return try !client.search(messageID: messageID, in: url).isEmpty } catch {
            throw Self.composerError(error)
        }
    }

    static func composerError(_ error: CurlTransferError) -> ComposerError {
        switch error {
        case .unavailable(let reason): return .mailUnavailable(reason: reason)
        case .invalidURL(let url, let reason): return .invalidURI(url, reason: reason)
        case .authenticationFailed: return .authenticationFailed(code: 0, message: error.description)
        case .tls: return .tls(code: 0, message: error.description)
        case .network, .tooLarge: return .network(code: 0, message: error.description)
        }
    }
}

/// A Maildir `Sent` folder: the copy is written as ``MaildirTransport`` delivers (tmp/, fsync, link into
/// new/), then moved to `cur/` flagged seen (`:2,S`), as mail clients keep their sent mail.
///
/// ```swift
/// let sent = MaildirSentFolder(directory: URL(fileURLWithPath: "Mail/Sent"))
/// try SentCopies(journal: "outbox/sent-copies").save(try MIMEWriter().write(draft), key: "item-42", to: sent)
/// ```
public struct MaildirSentFolder: SentFolder {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    public var place: String { directory.standardizedFileURL.path }

    public func save(_ message: [UInt8]) throws -> String {
        let new = try MaildirTransport(directory: directory).deliver(message)
        let cur = directory.appendingPathComponent("cur/" + new.lastPathComponent + ":2,S")
        guard rename(new.path, cur.path) == 0 else { return new.path }  // unread in new/, still saved
        AtomicFile.syncDirectory(directory.appendingPathComponent("cur").path)
        AtomicFile.syncDirectory(directory.appendingPathComponent("new").path)
        return cur.path
    }

    public func contains(messageID: String) throws -> Bool {
        for sub in ["cur", "new"] {
            let folder = directory.appendingPathComponent(sub).path
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !name.hasPrefix(".")
            {
                guard let handle = FileHandle(forReadingAtPath: folder + "/" + name) else { continue }
                defer { try? handle.close() }
                let head = [UInt8](handle.readData(ofLength: 64 << 10))
                if ReceivedMail(head[...]).header("Message-ID") == messageID { return true }
            }
        }
        return false
    }
}
