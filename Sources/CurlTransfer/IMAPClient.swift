internal import CCurl
import Foundation
import Synchronization

/// IMAP through libcurl, for saving copies of sent mail: APPEND a message to a mailbox, and SEARCH a
/// mailbox for a `Message-ID` (so that a copy cut short by a crash is not saved twice). `imaps://` is TLS
/// from the start; `imap://` requires STARTTLS, except to this machine (loopback), where plain IMAP is
/// allowed. TLS is verified (against `caFile` when given). The password goes to libcurl directly, never in
/// a URL (a URL with a user part is refused), a log or an error.
///
/// ```swift no-compile
/// let imap = IMAPClient(user: "ada", password: secret)
/// try imap.append(message, to: "imaps://mail.example.org/Sent")
/// ```
package final class IMAPClient: Sendable {
    package let user: String?
    private let password: String?
    package let caFile: String?
    package let connectTimeout: Double
    /// A transfer slower than 1 byte/s for this long is abandoned.
    package let stallTimeout: Double

    package init(
        user: String? = nil, password: String? = nil, caFile: String? = nil, connectTimeout: Double = 30,
        stallTimeout: Double = 120
    ) {
        self.user = user
        self.password = password
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
    }

    /// Appends `message` (CRLF line ends, as IMAP wants them) to the mailbox of `url`
    /// (`imap://host[:port]/Mailbox`), flagged `\Seen` as a sent copy is.
    package func append(_ message: [UInt8], to url: String) throws(CurlTransferError) {
        _ = try perform(url: url, command: nil, upload: message)
    }

    /// The message numbers in the mailbox of `url` whose `Message-ID` is `messageID` (`<id@host>`).
    package func search(messageID: String, in url: String) throws(CurlTransferError) -> [Int] {
        guard !messageID.contains(where: { $0 == "\"" || $0 == "\\" || $0.isNewline || !$0.isASCII }) else {
            throw .invalidURL(url, reason: "a Message-ID with quotes, backslashes or line breaks cannot be searched")
        }
        let answer = try perform(url: url, command: "SEARCH HEADER Message-ID \"\(messageID)\"", upload: nil)
        var numbers: [Int] = []
        for line in answer.split(separator: "\n") where line.hasPrefix("* SEARCH") {
            numbers += line.dropFirst("* SEARCH".count).split(separator: " ").compactMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        return numbers
    }

    /// `url` checked: an imap or imaps scheme, a host, a mailbox, no user part.
    package static func check(_ url: String) throws(CurlTransferError) -> (tls: Bool, loopback: Bool) {
        let lower = url.lowercased()
        let tls = lower.hasPrefix("imaps://")
        guard tls || lower.hasPrefix("imap://") else { throw .invalidURL(url, reason: "expected imap:// or imaps://") }
        let rest = url[url.index(url.startIndex, offsetBy: tls ? 8 : 7)...]
        let authority = rest.prefix { $0 != "/" }
        guard !authority.isEmpty else { throw .invalidURL(url, reason: "no host") }
        guard !authority.contains("@") else {
            throw .invalidURL(
                url, reason: "credentials do not go in the URL (give the user and a password file or command)")
        }
        let mailbox = rest.dropFirst(authority.count + 1)
        guard !mailbox.isEmpty, !mailbox.contains(where: { $0 == "?" || $0 == ";" || $0.isNewline }) else {
            throw .invalidURL(url, reason: "expected a mailbox: imap://host/Sent")
        }
        return (tls, HTTPClient.isLoopback(url))
    }

    private func perform(url: String, command: String?, upload: [UInt8]?) throws(CurlTransferError) -> String {
        let (tls, loopback) = try Self.check(url)
        guard CurlLibrary.isInitialized else { throw .unavailable("libcurl failed to initialize") }
        guard CurlLibrary.supports(tls ? "imaps" : "imap") else {
            throw .unavailable("this libcurl was built without \(tls ? "imaps" : "imap")")
        }
        guard let curl = curl_easy_init() else { throw .unavailable("curl_easy_init failed") }
        defer { curl_easy_cleanup(curl) }
        let context = IMAPTransferContext(upload: upload ?? [])
        let unmanaged = Unmanaged.passRetained(context)
        defer { unmanaged.release() }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { eb in
            var failed = CURLE_OK
            func check(_ c: CURLcode) { if failed == CURLE_OK && c != CURLE_OK { failed = c } }
            let ctx = unmanaged.toOpaque()
            check(ccurl_setopt_string(curl, CURLOPT_URL, url))
            if let command { check(ccurl_setopt_string(curl, CURLOPT_CUSTOMREQUEST, command)) }
            if let upload {
                check(ccurl_setopt_long(curl, CURLOPT_UPLOAD, 1))
                check(ccurl_setopt_long(curl, CURLOPT_INFILESIZE_LARGE, upload.count))
                check(ccurl_setopt_read_function(curl, imapRead))
                check(ccurl_setopt_pointer(curl, CURLOPT_READDATA, ctx))
            }
            check(ccurl_setopt_write_function(curl, imapWrite))
            check(ccurl_setopt_pointer(curl, CURLOPT_WRITEDATA, ctx))
            check(
                CurlLibrary.setLimits(
                    curl, errorBuffer: eb.baseAddress, connectTimeout: connectTimeout, stallTimeout: stallTimeout))
            if !tls {
                let mode = loopback ? CURLUSESSL_NONE : CURLUSESSL_ALL
                check(ccurl_setopt_long(curl, CURLOPT_USE_SSL, Int(mode.rawValue)))
            }
            check(CurlLibrary.setTLSAndCredentials(curl, caFile: caFile, user: user, password: password))
            guard failed == CURLE_OK else { return failed }
            return curl_easy_perform(curl)
        }
        guard code == CURLE_OK else {
            let message = CurlLibrary.message(for: code, errorBuffer: errorBuffer)
            switch code {
            case CURLE_LOGIN_DENIED: throw .authenticationFailed(url: url, message: message)
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
                CURLE_SSL_CONNECT_ERROR, CURLE_USE_SSL_FAILED:
                throw .tls(url: url, message: message)
            default: throw .network(url: url, message: message)
            }
        }
        return String(decoding: context.answer, as: UTF8.self)
    }
}

/// What libcurl's callbacks read and fill during one command.
private final class IMAPTransferContext {
    let upload: [UInt8]
    var offset = 0
    var answer: [UInt8] = []

    init(upload: [UInt8]) { self.upload = upload }
}

private let imapRead: ccurl_read_callback = { buffer, size, count, userdata in
    guard let userdata, let buffer else { return 0 }
    let context = Unmanaged<IMAPTransferContext>.fromOpaque(userdata).takeUnretainedValue()
    let n = min(size * count, context.upload.count - context.offset)
    guard n > 0 else { return 0 }
    context.upload.withUnsafeBytes { raw in
        UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + context.offset, byteCount: n)
    }
    context.offset += n
    return n
}

private let imapWrite: ccurl_write_callback = { data, size, count, userdata in
    guard let userdata, let data else { return 0 }
    let context = Unmanaged<IMAPTransferContext>.fromOpaque(userdata).takeUnretainedValue()
    let n = size * count
    // A search answer is a line of numbers; more than 16 MiB is not one.
    guard context.answer.count + n <= 16 << 20 else { return 0 }
    data.withMemoryRebound(to: UInt8.self, capacity: n) {
        context.answer.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
    }
    return n
}
