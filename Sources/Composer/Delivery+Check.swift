import Foundation

extension Delivery {
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
}
