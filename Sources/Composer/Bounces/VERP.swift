import Foundation

/// Variable envelope return paths (VERP, as Postfix writes them): each message's envelope sender encodes
/// its recipient, so that a bounce names the recipient even when it carries no readable report.
/// `bounces@sender.example` and `anna@example.org` give `bounces+anna=example.org@sender.example`.
///
/// ```swift
/// let sender = try VERP.envelopeSender(for: "anna@example.org", returnPath: "bounces@sender.example")
/// VERP.recipient(in: sender, returnPath: "bounces@sender.example")   // "anna@example.org"
/// ```
public enum VERP {
    /// The envelope sender for `recipient`: the return path's local part, `+`, the recipient with its `@`
    /// written `=`, `@` and the return path's domain. Throws `ComposerError.invalidAddress` for an address
    /// that is not `local@domain`, or a result longer than SMTP's 64-octet local part.
    public static func envelopeSender(for recipient: String, returnPath: String) throws -> String {
        let (local, domain) = try parts(of: returnPath)
        let (recipientLocal, recipientDomain) = try parts(of: recipient)
        let encoded = "\(local)+\(recipientLocal)=\(recipientDomain)"
        guard encoded.utf8.count <= 64 else {
            throw ComposerError.invalidAddress(
                recipient, reason: "the VERP local part '\(encoded)' is longer than 64 octets")
        }
        return "\(encoded)@\(domain)"
    }

    /// The recipient encoded in `address` by ``envelopeSender(for:returnPath:)`` for `returnPath`, or nil when
    /// `address` is not such an address (another local part or domain, no `=`). Case does not count in the
    /// return path; the recipient is given as encoded.
    public static func recipient(in address: String, returnPath: String) -> String? {
        guard let (local, domain) = try? parts(of: returnPath), let (verpLocal, verpDomain) = try? parts(of: address),
            verpDomain.lowercased() == domain.lowercased(),
            verpLocal.lowercased().hasPrefix(local.lowercased() + "+")
        else { return nil }
        let encoded = verpLocal.dropFirst(local.count + 1)
        guard let equals = encoded.lastIndex(of: "="), equals != encoded.startIndex,
            encoded.index(after: equals) != encoded.endIndex
        else { return nil }
        return encoded[..<equals] + "@" + encoded[encoded.index(after: equals)...]
    }

    /// Checks that `returnPath` can carry VERP addresses (`local@domain`, no brackets or spaces).
    /// Throws `ComposerError.invalidAddress` otherwise.
    public static func check(returnPath: String) throws {
        _ = try parts(of: returnPath)
    }

    private static func parts(of address: String) throws -> (local: String, domain: String) {
        let bare = address.trimmingCharacters(in: .whitespaces)
        guard let at = bare.lastIndex(of: "@"), at != bare.startIndex, bare.index(after: at) != bare.endIndex,
            !bare.contains(where: { $0 == "<" || $0 == ">" || $0 == " " || $0.isNewline })
        else { throw ComposerError.invalidAddress(address, reason: "expected local@domain") }
        return (String(bare[..<at]), String(bare[bare.index(after: at)...]))
    }
}
