import Foundation

/// Everything that stops a CardDAV operation, with the URL or file it concerns. No case ever holds a
/// password.
///
/// ```swift
/// do { _ = try CardDAVClient(account: CardDAVAccount(url: "https://dav.example.org/")).addressBooks() }
/// catch let error as CardDAVError { print(error) }
/// ```
public enum CardDAVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is not an http(s) URL, or holds a user name or password.
    case invalidURL(String, reason: String)
    /// The server refused the user name or password (401), or they are missing.
    case authenticationFailed(url: String)
    /// The request could not be made or was not answered (connection, TLS, timeout).
    case transfer(String)
    /// The server answered with an unexpected status.
    case status(url: String, method: String, code: Int, message: String)
    /// The answer could not be read (malformed XML, invalid bytes, too large).
    case badAnswer(url: String, message: String)
    /// No address book at the URL, or several and none chosen.
    case addressBook(String)
    /// The sync folder or its state could not be read or written.
    case local(path: String, message: String)
    /// The configuration file has no account of that name (`known`: the names it has).
    case noAccount(String, path: String, known: [String])

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): return "\(url): \(reason)"
        case .authenticationFailed(let url):
            return "\(url): the server refused the user name or password (HTTP 401); check --user and the password"
        case .transfer(let message): return message
        case .status(let url, let method, let code, let message):
            return "\(url): \(method) answered HTTP \(code)\(message.isEmpty ? "" : ": \(message)")"
        case .badAnswer(let url, let message): return "\(url): unreadable answer: \(message)"
        case .addressBook(let message): return message
        case .local(let path, let message): return "\(path): \(message)"
        case .noAccount(let name, let path, let known):
            return "no account '\(name)' in \(path)"
                + (known.isEmpty ? "" : " (accounts: \(known.joined(separator: ", ")))")
        }
    }
}
