import Foundation

/// A mailbox: an optional display name (any script) and a validated RFC 5322 addr-spec.
///
/// The address is checked when the value is made: dot-atom or quoted-string local part (ASCII; a
/// non-ASCII local part would need SMTPUTF8), a host name or domain literal, lengths within RFC 5321
/// limits. Internationalized domain names are accepted and converted to their ASCII (`xn--`) form, which
/// is what goes on the wire; `address` keeps what the caller wrote.
///
/// ```swift
/// let a = try MailAddress(name: "Jürgen Müller, Esq.", address: "juergen@bücher.example")
/// a.asciiAddress   // "juergen@xn--bcher-kva.example"
/// ```
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The display name, or nil. CR, LF and NUL are refused.
    public let name: String?
    /// The addr-spec as given (domain may be Unicode).
    public let address: String
    /// The addr-spec with the domain in ASCII (IDNA `xn--` labels, lowercased): the form used in headers and
    /// SMTP envelopes.
    public let asciiAddress: String

    /// Validates `address` (and `name` for control characters).
    /// - Throws: `ComposerError.invalidAddress` or `.headerInjection(field: "display name")`.
    public init(name: String? = nil, address: String) throws {
        if let name, name.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) {
            throw ComposerError.headerInjection(field: "display name")
        }
        self.name = (name?.isEmpty ?? true) ? nil : name
        self.address = address
        self.asciiAddress = try AddrSpec.validate(address)
    }

    /// Parses `Name <addr>`, `"Quoted, Name" <addr>` or a bare `addr`.
    ///
    /// ```swift
    /// let a = try MailAddress(parsing: "\"Doe, Jane\" <jane@example.com>")   // name "Doe, Jane"
    /// ```
    public init(parsing text: String) throws {
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

/// Host names with IDNA: Unicode labels are case-folded, NFC-normalized and Punycode-encoded (RFC 3492).
enum IDNA {
    static func toASCII(_ domain: String, address: String) throws -> String {
        func bad(_ reason: String) -> ComposerError { .invalidAddress(address, reason: reason) }
        var labels: [String] = []
        // IDNA dot separators: U+3002, U+FF0E, U+FF61 count as dots.
        let normalized = domain.replacingOccurrences(of: "\u{3002}", with: ".")
            .replacingOccurrences(of: "\u{FF0E}", with: ".").replacingOccurrences(of: "\u{FF61}", with: ".")
        let parts = normalized.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 1 else { throw bad("empty domain") }
        for (i, part) in parts.enumerated() {
            if part.isEmpty {
                throw bad(i == parts.count - 1 ? "domain ends with a dot" : "empty label in domain")
            }
            var label: String
            if part.utf8.allSatisfy({ $0 < 0x80 }) {
                label = part.lowercased()
            } else {
                let folded = String(part).lowercased().precomposedStringWithCanonicalMapping
                guard
                    folded.unicodeScalars.allSatisfy({ s in
                        s.value >= 0x80 || (s.value >= 0x61 && s.value <= 0x7A) || (s.value >= 0x30 && s.value <= 0x39)
                            || s.value == 0x2D
                    })
                else { throw bad("invalid character in domain label '\(part)' (letters, digits, '-')") }
                guard
                    folded.unicodeScalars.allSatisfy({ s in
                        s.value < 0x80 || s.properties.isAlphabetic || s.properties.numericType != nil
                            || s.properties.generalCategory == .nonspacingMark
                            || s.properties.generalCategory == .spacingMark
                    })
                else { throw bad("label '\(part)' contains a character not allowed in domain names") }
                label = "xn--" + Punycode.encode(Array(folded.unicodeScalars))
            }
            guard label.utf8.count <= 63 else { throw bad("domain label longer than 63 octets") }
            guard
                label.utf8.allSatisfy({ b in
                    (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
                })
            else { throw bad("invalid character in domain label '\(part)' (letters, digits, '-')") }
            guard !label.hasPrefix("-"), !label.hasSuffix("-") else {
                throw bad("domain label '\(part)' starts or ends with '-'")
            }
            labels.append(label)
        }
        let result = labels.joined(separator: ".")
        guard result.utf8.count <= 253 else { throw bad("domain longer than 253 octets") }
        return result
    }
}

/// RFC 3492 Punycode (encoding only).
enum Punycode {
    static func encode(_ input: [Unicode.Scalar]) -> String {
        let base = 36
        let tmin = 1
        let tmax = 26
        let skew = 38
        let damp = 700
        var n = 128
        var delta = 0
        var bias = 72
        var output: [UInt8] = input.filter { $0.value < 0x80 }.map { UInt8($0.value) }
        let b = output.count
        var h = b
        if b > 0 { output.append(UInt8(ascii: "-")) }
        func digit(_ d: Int) -> UInt8 { d < 26 ? UInt8(97 + d) : UInt8(22 + d) }
        func adapt(_ delta: Int, _ numPoints: Int, _ first: Bool) -> Int {
            var delta = first ? delta / damp : delta / 2
            delta += delta / numPoints
            var k = 0
            while delta > ((base - tmin) * tmax) / 2 {
                delta /= base - tmin
                k += base
            }
            return k + (base - tmin + 1) * delta / (delta + skew)
        }
        let values = input.map { Int($0.value) }
        while h < values.count {
            let m = values.filter { $0 >= n }.min() ?? n
            delta += (m - n) * (h + 1)
            n = m
            for c in values {
                if c < n { delta += 1 }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tmin : (k >= bias + tmax ? tmax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, h + 1, h == b)
                    delta = 0
                    h += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
