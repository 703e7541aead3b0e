import Foundation

extension Delivery {
    /// Tries what this delivery would use, without sending anything: the SMTP server (connect, EHLO, TLS
    /// and AUTH as configured, ``SMTPTransport/check()``), that the sendmail and SMS programs can be run,
    /// that a folder or mbox file can be written. Returns what was checked, one line each.
    ///
    /// ```swift
    /// let smtp = Delivery(target: .smtp(try SMTPConfiguration(url: "smtp://127.0.0.1:2525")))
    /// for line in try smtp.check() { print(line) }   // "smtp://127.0.0.1:2525: connected, EHLO accepted, no TLS"
    /// ```
    /// - Throws: the first failure: `.network`, `.tls`, `.authenticationFailed`, `.smtp`, `.mailUnavailable`
    ///   (no sendmail), `.messagingUnavailable` (no SMS program), `.io` (a folder that cannot be written).
    public func check() throws(ComposerError) -> [String] {
        var done = try target.transport.check()
        if let textTransport {
            guard textTransport.canSendText else {
                throw .messagingUnavailable(reason: "\(textTransport.path) is not an executable program")
            }
            done.append("\(textTransport.path): can be run")
        }
        return done
    }

    /// One line of what a connection did: TLS or not, and, with a user name, whether AUTH was accepted or
    /// the server offered none (then the credentials were not used; nothing is said that did not happen).
    ///
    /// ```swift
    /// var config = try SMTPConfiguration(url: "smtp://127.0.0.1:2525")
    /// config.username = "ada"
    /// Delivery.describe(SMTPSessionReport(capabilities: SMTPCapabilities(ehloReply: ["mx"]), tls: .none), of: config)
    /// // "smtp://127.0.0.1:2525: connected, EHLO accepted, no TLS; the server offered no AUTH: the user name and
    /// //  password were not used"
    /// ```
    public static func describe(_ session: SMTPSessionReport, of configuration: SMTPConfiguration) -> String {
        var line = "\(configuration.url): connected, EHLO accepted"
        switch session.tls {
        case .none: line += ", no TLS"
        case .startTLS: line += ", STARTTLS done"
        case .implicit: line += ", TLS from the first byte"
        }
        guard configuration.username != nil else { return line }
        if let mechanism = session.authentication {
            line += ", AUTH \(mechanism) accepted"
        } else if !session.capabilities.offers("AUTH") {
            line += "; the server offered no AUTH: the user name and password were not used"
        } else {
            line += "; AUTH was not used"
        }
        return line
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
