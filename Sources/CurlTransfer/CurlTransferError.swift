/// Why a transfer through libcurl (HTTP for CardDAV, IMAP for sent copies) failed: the module's one error
/// type. Never holds a password: libcurl's texts do not, and URLs are shown without their user part.
package enum CurlTransferError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libcurl cannot be used (not initialized, or built without the scheme).
    case unavailable(String)
    /// The URL is not one the transfer takes (reason says why).
    case invalidURL(String, reason: String)
    /// The connection failed, was dropped or timed out, or the server refused the command.
    case network(url: String, message: String)
    /// TLS failed (certificate not trusted, name mismatch, handshake, STARTTLS not offered).
    case tls(url: String, message: String)
    /// The server refused the login.
    case authenticationFailed(url: String, message: String)
    /// The answer was larger than the limit.
    case tooLarge(url: String, limit: Int)

    package var description: String {
        switch self {
        case .unavailable(let reason): return "libcurl cannot be used: \(reason)"
        case .invalidURL(let url, let reason): return "invalid URL '\(url)': \(reason)"
        case .network(let url, let message): return "\(url): \(message)"
        case .tls(let url, let message): return "\(url): TLS failed: \(message)"
        case .authenticationFailed(let url, let message): return "\(url): login refused: \(message)"
        case .tooLarge(let url, let limit): return "\(url): the answer is larger than \(limit / (1 << 20)) MiB"
        }
    }
}
