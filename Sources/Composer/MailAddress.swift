import Foundation
import ICUKit

/// A mailbox: an optional display name (any script) and a validated RFC 5322 addr-spec.
///
/// The address is checked when the value is made: dot-atom or quoted-string local part (ASCII; a
/// non-ASCII local part would need SMTPUTF8), a host name or domain literal, lengths within RFC 5321
/// limits. Internationalized domain names are accepted and converted to their ASCII (`xn--`) form by
/// UTS #46 (full-width `ＥＸＡＭＰＬＥ.com` is `example.com`), which is what goes on the wire; `address` keeps
/// what the caller wrote.
///
/// ```swift
/// let a = try MailAddress(name: "Jürgen Müller, Esq.", address: "juergen@bücher.example")
/// a.asciiAddress   // "juergen@xn--bcher-kva.example"
/// ```
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The display name, or nil. Line breaks (CR, LF, with the blanks around them) are folded to one
    /// space and NUL is dropped, so a name from an address book never breaks a header.
    public let name: String?
    /// The addr-spec as given (domain may be Unicode).
    public let address: String
    /// The addr-spec with the domain in ASCII (IDNA `xn--` labels, lowercased): the form used in headers and
    /// SMTP envelopes.
    public let asciiAddress: String

    /// Validates `address`; a display name with line breaks is folded (``headerSafeName(_:)``), not refused.
    ///
    /// ```swift
    /// try MailAddress(name: "Jane\r\nDoe", address: "jane@example.com").name   // "Jane Doe"
    /// ```
    /// - Throws: `ComposerError.invalidAddress`.
    public init(name: String? = nil, address: String) throws {
        let name = name.map(Self.headerSafeName)
        self.name = (name?.isEmpty ?? true) ? nil : name
        self.address = address
        self.asciiAddress = try AddrSpec.validate(address)
    }

    /// `name` for a header: each run of CR and LF, with the spaces and tabs around it, becomes one
    /// space; NUL is dropped; the ends are trimmed.
    ///
    /// ```swift
    /// MailAddress.headerSafeName(" Ada \r\n\tLovelace\n")   // "Ada Lovelace"
    /// ```
    public static func headerSafeName(_ name: String) -> String {
        guard name.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else { return name }
        var out = String.UnicodeScalarView()
        var scalars = Array(name.unicodeScalars.filter { $0 != "\0" })[...]
        while let c = scalars.first {
            scalars = scalars.dropFirst()
            if c == "\r" || c == "\n" {
                while let last = out.last, last == " " || last == "\t" { out.removeLast() }
                while let next = scalars.first, next == " " || next == "\t" || next == "\r" || next == "\n" {
                    scalars = scalars.dropFirst()
                }
                out.append(" ")
            } else {
                out.append(c)
            }
        }
        return String(out).trimmingCharacters(in: .whitespaces)
    }

    /// Parses `Name <addr>`, `"Quoted, Name" <addr>` or a bare `addr`.
    ///
    /// ```swift
    /// let a = try MailAddress(parsing: "\"Doe, Jane\" <jane@example.com>")   // name "Doe, Jane"
    /// ```
    /// - Throws: `ComposerError.invalidAddress` also when the text holds more than one mailbox
    ///   ("a@x, B <b@y>": a display name with a comma or semicolon goes in quotes).
    public init(parsing text: String) throws {
        if let column = Self.secondMailbox(in: text) {
            throw ComposerError.invalidAddress(
                text,
                reason: "expected one address; column \(column) starts another "
                    + "(a display name with a comma goes in quotes: \"Doe, Ann\" <ann@example.org>)")
        }
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix(">"), let lt = t.lastIndex(of: "<") {
            var name = t[..<lt].trimmingCharacters(in: .whitespaces)
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
                var out = ""
                var escape = false
                for c in name.dropFirst().dropLast() {
                    if escape {
                        out.append(c)
                        escape = false
                    } else if c == "\\" {
                        escape = true
                    } else {
                        out.append(c)
                    }
                }
                name = out
            }
            let addr = String(t[t.index(after: lt)..<t.index(before: t.endIndex)])
            try self.init(name: name.isEmpty ? nil : name, address: addr)
        } else {
            try self.init(name: nil, address: t)
        }
    }

    /// Parses a list of addresses separated by `,` or `;` (a display name with either goes in quotes), as a
    /// `Cc` column or option holds them; empty items are skipped.
    ///
    /// ```swift
    /// let cc = try MailAddress.list(parsing: "\"Doe, Jane\" <jane@example.com>; bob@example.org")   // 2
    /// ```
    /// - Throws: `ComposerError.invalidAddress` for the first item that is not an address.
    public static func list(parsing text: String) throws -> [MailAddress] {
        var result: [MailAddress] = []
        var rest = Substring(text)
        while !rest.allSatisfy(\.isWhitespace) {
            guard let column = secondMailbox(in: String(rest)) else {
                result.append(try MailAddress(parsing: String(rest)))
                break
            }
            let separator = rest.index(rest.startIndex, offsetBy: column - 1)
            // A second `<…>` without a separator: the single-address parser says what is wrong.
            guard rest[separator] == "," || rest[separator] == ";" else {
                result.append(try MailAddress(parsing: String(rest)))
                break
            }
            let item = rest[..<separator]
            if !item.allSatisfy(\.isWhitespace) { result.append(try MailAddress(parsing: String(item))) }
            rest = rest[rest.index(after: separator)...]
        }
        return result
    }

    /// The 1-based column where a second mailbox starts in `text` (a `,` or `;` outside quotes and angle
    /// brackets, or a second `<…>`), or nil for a single one.
    static func secondMailbox(in text: String) -> Int? {
        var quoted = false
        var escaped = false
        var angle = false
        var angles = 0
        for (i, c) in text.enumerated() {
            if escaped {
                escaped = false
                continue
            }
            if quoted {
                if c == "\\" { escaped = true } else if c == "\"" { quoted = false }
                continue
            }
            switch c {
            case "\"": quoted = true
            case "<":
                angles += 1
                if angles > 1 { return i + 1 }
                angle = true
            case ">": angle = false
            case ",", ";": if !angle { return i + 1 }
            default: break
            }
        }
        return nil
    }

    /// `Name <address>` or `address` (for display, not for headers).
    public var description: String { name.map { "\($0) <\(address)>" } ?? address }
}

/// RFC 5322 addr-spec validation (no obsolete syntax, no comments, no folding whitespace).
enum AddrSpec {
    static func isAtext(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-/=?^_`{|}~".utf8.contains(b)
        }
    }

    /// Returns the ASCII form (`local@ascii-domain`) or throws.
    static func validate(_ address: String) throws -> String {
        func bad(_ reason: String) -> ComposerError { .invalidAddress(address, reason: reason) }
        let bytes = Array(address.utf8)
        guard !bytes.isEmpty else { throw bad("empty address") }
        if let c = bytes.first(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw c == 13 || c == 10 || c == 0
                ? ComposerError.headerInjection(field: "address") : bad("control character in address")
        }
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { throw bad("expected local-part@domain") }
        let local = Array(bytes[..<at])
        let domainBytes = Array(bytes[(at + 1)...])
        guard !local.isEmpty else { throw bad("empty local part before '@'") }
        guard local.count <= 64 else { throw bad("local part longer than 64 octets") }
        if local.contains(where: { $0 >= 0x80 }) {
            throw bad("non-ASCII local part needs SMTPUTF8, which is not supported")
        }
        if local.first == UInt8(ascii: "\"") {
            guard local.count >= 2, local.last == UInt8(ascii: "\"") else {
                throw bad("unterminated quoted local part")
            }
            var i = 1
            while i < local.count - 1 {
                let b = local[i]
                if b == UInt8(ascii: "\\") {
                    guard i + 1 < local.count - 1 else { throw bad("dangling backslash in quoted local part") }
                    i += 2
                    continue
                }
                guard b == 0x20 || b == 0x09 || (b >= 33 && b <= 126 && b != UInt8(ascii: "\"")) else {
                    throw bad("invalid character in quoted local part")
                }
                i += 1
            }
        } else {
            var previousDot = true
            for b in local {
                if b == UInt8(ascii: ".") {
                    guard !previousDot else { throw bad("empty atom in local part (leading or double dot)") }
                    previousDot = true
                } else {
                    guard isAtext(b) else {
                        throw bad("character '\(Character(Unicode.Scalar(b)))' not allowed in an unquoted local part")
                    }
                    previousDot = false
                }
            }
            guard !previousDot else { throw bad("local part ends with a dot") }
        }
        guard !domainBytes.isEmpty else { throw bad("empty domain after '@'") }
        let domainText = String(decoding: domainBytes, as: UTF8.self)
        let asciiDomain: String
        if domainBytes.first == UInt8(ascii: "[") {
            guard domainBytes.last == UInt8(ascii: "]") else { throw bad("unterminated domain literal") }
            let inner = String(decoding: domainBytes.dropFirst().dropLast(), as: UTF8.self)
            if inner.hasPrefix("IPv6:") {
                let v6 = inner.dropFirst(5)
                guard !v6.isEmpty, v6.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                    throw bad("invalid IPv6 domain literal")
                }
            } else {
                let parts = inner.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 4,
                    parts.allSatisfy({ p in
                        !p.isEmpty && p.count <= 3 && p.allSatisfy { $0.isASCII && $0.isNumber } && Int(p)! <= 255
                    })
                else { throw bad("invalid IPv4 domain literal") }
            }
            asciiDomain = domainText
        } else {
            asciiDomain = try IDNA.toASCII(domainText, address: address)
        }
        let result = String(decoding: local, as: UTF8.self) + "@" + asciiDomain
        guard result.utf8.count <= 254 else { throw bad("address longer than 254 octets") }
        return result
    }
}

/// Host names with IDNA: ICU's UTS #46 processing (``UTS46``, nontransitional IDNA2008 with the STD3,
/// bidi and ContextJ checks) maps the domain as typed — full-width letters, capitals, ideographic full
/// stops — validates it and Punycode-encodes its labels.
enum IDNA {
    static func toASCII(_ domain: String, address: String) throws -> String {
        func bad(_ reason: String) -> ComposerError { .invalidAddress(address, reason: reason) }
        // UTS #46 accepts a trailing dot (the DNS root); an addr-spec does not.
        if let last = domain.unicodeScalars.last, [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"].contains(last) {
            throw bad("domain '\(domain)' ends with a dot")
        }
        let ascii: String
        do {
            ascii = try UTS46.mail().nameToASCII(domain)
        } catch ICUError.invalidDomainName(_, let errors) {
            throw bad("invalid domain '\(domain)': \(errors)")
        } catch {
            throw bad("domain '\(domain)' could not be converted to ASCII: \(error)")
        }
        guard !ascii.isEmpty else { throw bad("empty domain after '@'") }
        return ascii
    }
}
