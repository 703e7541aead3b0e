import CICU

/// International domain names by Unicode UTS #46 (ICU's `uidna_openUTS46`): one processor maps a
/// domain as typed (full-width letters, capitals, compatibility forms, ideographic full stops) to its
/// IDNA2008 form, validates it (allowed characters, hyphens, label and name lengths, bidi and ContextJ
/// rules) and Punycode-encodes it. A processor is immutable once open and safe to share across threads.
///
/// ```swift
/// try UTS46.mail().nameToASCII("Bücher.example")      // "xn--bcher-kva.example"
/// try UTS46.mail().nameToASCII("ＥＸＡＭＰＬＥ.com")   // "example.com"
/// ```
public final class UTS46: @unchecked Sendable {
    // @unchecked: the handle is ICU's UTS #46 processor, immutable once open (documented thread-safe).
    /// Processing options (ICU's `UIDNA_*`).
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Only letters, digits and '-' in labels (STD3 host-name rules).
        public static let useSTD3Rules = Options(rawValue: UInt32(CICU_IDNA_USE_STD3_RULES))
        /// RFC 5893: right-to-left labels must not mix directions.
        public static let checkBidi = Options(rawValue: UInt32(CICU_IDNA_CHECK_BIDI))
        /// RFC 5892: zero-width joiners only where a script needs them.
        public static let checkContextJ = Options(rawValue: UInt32(CICU_IDNA_CHECK_CONTEXTJ))
        /// IDNA2008 (nontransitional): ß and ς stay themselves instead of becoming "ss" and "σ".
        public static let nontransitionalToASCII = Options(rawValue: UInt32(CICU_IDNA_NONTRANSITIONAL_TO_ASCII))
        /// The options for mail domains: all of the above.
        public static let mail: Options = [.useSTD3Rules, .checkBidi, .checkContextJ, .nontransitionalToASCII]
    }

    /// What is wrong with a domain name (ICU's `UIDNA_ERROR_*` bits); the description says it in words.
    public struct Errors: OptionSet, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let emptyLabel = Errors(rawValue: UInt32(CICU_IDNA_ERROR_EMPTY_LABEL))
        public static let labelTooLong = Errors(rawValue: UInt32(CICU_IDNA_ERROR_LABEL_TOO_LONG))
        public static let domainNameTooLong = Errors(rawValue: UInt32(CICU_IDNA_ERROR_DOMAIN_NAME_TOO_LONG))
        public static let leadingHyphen = Errors(rawValue: UInt32(CICU_IDNA_ERROR_LEADING_HYPHEN))
        public static let trailingHyphen = Errors(rawValue: UInt32(CICU_IDNA_ERROR_TRAILING_HYPHEN))
        public static let hyphen3and4 = Errors(rawValue: UInt32(CICU_IDNA_ERROR_HYPHEN_3_4))
        public static let leadingCombiningMark = Errors(rawValue: UInt32(CICU_IDNA_ERROR_LEADING_COMBINING_MARK))
        public static let disallowed = Errors(rawValue: UInt32(CICU_IDNA_ERROR_DISALLOWED))
        public static let punycode = Errors(rawValue: UInt32(CICU_IDNA_ERROR_PUNYCODE))
        public static let labelHasDot = Errors(rawValue: UInt32(CICU_IDNA_ERROR_LABEL_HAS_DOT))
        public static let invalidACELabel = Errors(rawValue: UInt32(CICU_IDNA_ERROR_INVALID_ACE_LABEL))
        public static let bidi = Errors(rawValue: UInt32(CICU_IDNA_ERROR_BIDI))
        public static let contextJ = Errors(rawValue: UInt32(CICU_IDNA_ERROR_CONTEXTJ))
        public static let contextOPunctuation = Errors(rawValue: UInt32(CICU_IDNA_ERROR_CONTEXTO_PUNCTUATION))
        public static let contextODigits = Errors(rawValue: UInt32(CICU_IDNA_ERROR_CONTEXTO_DIGITS))

        static let reasons: [(Errors, String)] = [
            (.emptyLabel, "an empty label (a leading, trailing or double dot)"),
            (.labelTooLong, "a label longer than 63 octets"),
            (.domainNameTooLong, "longer than 253 octets"),
            (.leadingHyphen, "a label starts with '-'"),
            (.trailingHyphen, "a label ends with '-'"),
            (.hyphen3and4, "a label has '--' in its 3rd and 4th places"),
            (.leadingCombiningMark, "a label starts with a combining mark"),
            (.disallowed, "a character not allowed in domain names (only letters, digits and '-')"),
            (.punycode, "an xn-- label that is not valid Punycode"),
            (.labelHasDot, "a label with a dot in it"),
            (.invalidACELabel, "an xn-- label that does not decode to a valid label"),
            (.bidi, "right-to-left and left-to-right text mixed against the bidi rules (RFC 5893)"),
            (.contextJ, "a zero-width joiner or non-joiner where it is not allowed (RFC 5892)"),
            (.contextOPunctuation, "punctuation where it is not allowed (RFC 5892)"),
            (.contextODigits, "Arabic-Indic digits of two kinds mixed (RFC 5892)"),
        ]

        public var description: String {
            let words = Errors.reasons.filter { contains($0.0) }.map(\.1)
            return words.isEmpty ? "IDNA error 0x\(String(rawValue, radix: 16))" : words.joined(separator: "; ")
        }
    }

    let handle: OpaquePointer
    public let options: Options

    public init(options: Options = .mail) throws {
        var status: Int32 = 0
        guard let h = cicu_idna_open(options.rawValue, &status), status <= 0 else {
            throw ICUError.failure(operation: "uidna_openUTS46", code: status, name: ICUError.name(status))
        }
        handle = h
        self.options = options
    }

    deinit { cicu_idna_close(handle) }

    private static let sharedMail: Result<UTS46, any Error> = Result { try UTS46(options: .mail) }

    /// The shared processor with the ``Options/mail`` options (opened once).
    public static func mail() throws -> UTS46 { try sharedMail.get() }

    /// The ASCII form of a whole domain name (`xn--` labels, lowercase).
    /// - Throws: ``ICUError/invalidDomainName(_:errors:)`` naming what is wrong.
    public func nameToASCII(_ name: String) throws -> String {
        var errors: UInt32 = 0
        let ascii = try withUTF8(name) { p, n in
            try preflightString("IDNA nameToASCII", guess: 64) { out, cap, st in
                cicu_idna_name_to_ascii(handle, p, n, out, cap, &errors, &st)
            }
        }
        if errors != 0 { throw ICUError.invalidDomainName(name, errors: Errors(rawValue: errors)) }
        return ascii
    }
}
