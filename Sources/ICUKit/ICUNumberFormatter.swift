import CICU

/// An ICU number formatter for one locale and one number skeleton, kept open so that many numbers are
/// formatted without building it again. Thread-safe.
///
/// ```swift
/// let f = try ICUNumberFormatter(locale: "de", skeleton: ".00")
/// try f.format(decimal: "1234.5")   // "1.234,50"
/// ```
public final class ICUNumberFormatter: @unchecked Sendable {
    // @unchecked: the handle is set once in init; ICU's LocalizedNumberFormatter is safe for concurrent use.
    let handle: OpaquePointer
    public let locale: String
    public let skeleton: String

    /// One piece of a formatted number: its ICU field and the text it covers.
    public struct Field: Sendable, Equatable {
        /// ICU's `UNumberFormatFields` number (0 integer, 1 fraction, 2 decimal separator, 6 grouping
        /// separator, 7 currency, 8 percent, 10 sign, …).
        public var field: Int32
        /// Where the field is in the formatted text, in UTF-8 bytes.
        public var utf8Range: Range<Int>
    }

    public init(locale: String, skeleton: String) throws {
        var status: Int32 = 0
        guard let h = cicu_numfmt_open(locale, skeleton, &status), status <= 0 else {
            throw ICUError.failure(
                operation: "number skeleton '\(skeleton)' for '\(locale)'", code: status, name: ICUError.name(status))
        }
        handle = h
        self.locale = locale
        self.skeleton = skeleton
    }

    deinit { cicu_numfmt_close(handle) }

    /// Formats an exact decimal string ("-1234.50", "1e3").
    public func format(decimal: String) throws -> String {
        try preflightString("number format '\(skeleton)'", guess: 64) { out, cap, st in
            cicu_numfmt_format(handle, 0, decimal, out, cap, nil, 0, nil, &st)
        }
    }

    /// Formats an exact decimal string and reports the fields of the result.
    public func formatToFields(decimal: String) throws -> (text: String, fields: [Field]) {
        var triples = [Int32](repeating: 0, count: 48)
        var count: Int32 = 0
        let text = try triples.withUnsafeMutableBufferPointer { buffer in
            try preflightString("number format '\(skeleton)'", guess: 64) { out, cap, st in
                cicu_numfmt_format(handle, 0, decimal, out, cap, buffer.baseAddress, 16, &count, &st)
            }
        }
        let fields = (0..<min(Int(count), 16)).map {
            Field(field: triples[3 * $0], utf8Range: Int(triples[3 * $0 + 1])..<Int(triples[3 * $0 + 2]))
        }
        return (text, fields)
    }

    /// The plural category of the decimal as this formatter shows it ("1.0" with one fraction digit is
    /// `.other` in English).
    public func pluralCategory(decimal: String, rules: PluralRules) throws -> PluralRules.Category {
        let word = try preflightString("plural select", guess: 16) { out, cap, st in
            cicu_numfmt_plural(handle, rules.handle, 0, decimal, out, cap, &st)
        }
        return PluralRules.Category(rawValue: word) ?? .other
    }
}
