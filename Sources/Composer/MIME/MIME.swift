import Foundation
import Synchronization

/// Byte-level building blocks of the writer (internal; tested through `MIMEWriter` and directly).
enum MIME {
    static let crlf: [UInt8] = [13, 10]
    static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
    static let lowerHex: [UInt8] = Array("0123456789abcdef".utf8)
    static let reserved: Set<String> = [
        "date", "from", "sender", "reply-to", "to", "cc", "bcc", "message-id", "subject", "mime-version",
        "content-type", "content-transfer-encoding", "content-disposition", "content-language", "content-id",
        "return-path", "received", "list-unsubscribe", "list-unsubscribe-post",
    ]
    static let singletonExtra: Set<String> = [
        "in-reply-to", "references", "organization", "precedence", "auto-submitted",
    ]

    /// A process-wide random seed (one getrandom call) and a counter: Message-IDs and boundaries are unique
    /// within the process and unpredictable across processes, without a system call per message.
    static let seed: (UInt64, UInt64) = {
        var g = SystemRandomNumberGenerator()
        return (g.next(), g.next())
    }()
    static let counter = Atomic<UInt64>(0)

    static func uniqueRandom() -> (UInt64, UInt64) {
        let n = counter.add(1, ordering: .relaxed).newValue
        func mix(_ x: UInt64) -> UInt64 {
            var z = x &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        // mix is a bijection, so distinct counters give distinct values for a given seed.
        return (mix(seed.0 ^ n), mix(seed.1 &+ n))
    }

    static func checkHeaderInput(_ value: String, field: String) throws {
        for b in value.utf8 where b == 13 || b == 10 || b == 0 {
            throw ComposerError.headerInjection(field: field)
        }
    }

    /// Returns the lowercased name, or throws when it is not a field name or belongs to the writer.
    static func checkExtraHeaderName(_ name: String) throws -> String {
        try checkHeaderInput(name, field: "header name")
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E && $0 != UInt8(ascii: ":") }) else {
            throw ComposerError.invalidHeaderName(name, reason: "expected printable ASCII without ':' or spaces")
        }
        guard name.utf8.count <= 76 else {
            throw ComposerError.invalidHeaderName(name, reason: "longer than 76 characters")
        }
        let lower = name.lowercased()
        if reserved.contains(lower) {
            throw ComposerError.invalidHeaderName(name, reason: "written by the composer from the draft's fields")
        }
        return lower
    }

    static func checkMediaType(_ type: String) throws {
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        let tspecials = Set("()<>@,;:\\\"/[]?=".utf8)
        guard parts.count == 2,
            parts.allSatisfy({ p in
                !p.isEmpty && p.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !tspecials.contains($0) }
            })
        else { throw ComposerError.invalidMediaType(type) }
    }

    /// A BCP 47 tag (Apple `_` separators accepted and mapped to `-`).
    static func languageTag(_ locale: String) throws -> String {
        let tag = locale.replacingOccurrences(of: "_", with: "-")
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (1...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
            subtags.allSatisfy({ s in
                (1...8).contains(s.count) && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            })
        else { throw ComposerError.invalidLocale(locale) }
        return tag
    }

    static func appendHex(_ value: UInt64, to out: inout [UInt8]) {
        var started = false
        for shift in stride(from: 60, through: 0, by: -4) {
            let d = Int((value >> UInt64(shift)) & 0xF)
            if d != 0 || started || shift == 0 {
                out.append(lowerHex[d])
                started = true
            }
        }
    }
}
