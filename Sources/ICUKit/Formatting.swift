import CICU

/// Locale-aware list, number and date formatting through ICU.
///
/// ```swift
/// try ICUFormat.list(["Alice", "Bob", "Carol"], locale: "de")   // "Alice, Bob und Carol"
/// try ICUFormat.number(1234.5, locale: "fr", skeleton: "currency/EUR")   // "1 234,50 €"
/// ```
public enum ICUFormat {
    public enum ListType: Int32, Sendable {
        case and = 0
        case or = 1
        case units = 2
    }
    public enum ListWidth: Int32, Sendable {
        case wide = 0
        case short = 1
        case narrow = 2
    }
    public enum DateStyle: Int32, Sendable {
        case none = -1
        case full = 0
        case long = 1
        case medium = 2
        case short = 3
    }

    public static func list(_ items: [String], locale: String, type: ListType = .and, width: ListWidth = .wide) throws
        -> String
    {
        guard items.count <= Int32.max else { throw ICUError.invalidArgument("list of \(items.count) items") }
        let block = try CStringBlock(items)
        // Room for the items and a few bytes of pattern between each: one ICU call instead of two.
        let guess = min(block.byteCount + items.count * 8 + 64, Int(Int32.max))
        return try block.withPointers { pointers, lengths in
            try preflightString("list format", guess: guess) { out, cap, st in
                cicu_list_format(
                    locale, type.rawValue, width.rawValue, pointers, lengths, Int32(items.count), out, cap, &st)
            }
        }
    }

    /// Formats a number with an ICU number skeleton ("" default, "percent", "currency/EUR", ".00").
    public static func number(_ value: Double, locale: String, skeleton: String = "") throws -> String {
        try preflightString("number format '\(skeleton)'") { out, cap, st in
            cicu_number_format(locale, skeleton, value, nil, out, cap, &st)
        }
    }

    /// Formats an exact decimal string ("1234.50") with an ICU number skeleton.
    public static func number(decimal: String, locale: String, skeleton: String = "") throws -> String {
        try preflightString("number format '\(skeleton)'") { out, cap, st in
            cicu_number_format(locale, skeleton, 0, decimal, out, cap, &st)
        }
    }

    /// Formats milliseconds since 1970 in a time zone, by styles or by a skeleton ("yMMMd").
    public static func date(
        millisecondsSince1970 millis: Double, locale: String, timeZone: String? = nil,
        dateStyle: DateStyle = .long, timeStyle: DateStyle = .none, skeleton: String? = nil
    ) throws -> String {
        try preflightString("date format") { out, cap, st in
            cicu_date_format(locale, timeZone, millis, dateStyle.rawValue, timeStyle.rawValue, skeleton, out, cap, &st)
        }
    }
}

/// Locale identifier helpers backed by ICU (likely subtags, canonical tags, text direction).
///
/// ```swift
/// ICULocale.addLikelySubtags("zh-HK")   // "zh-Hant-HK"
/// ICULocale.isRightToLeft("ar")          // true
/// ICULocale.isKnownLanguage("xx-Latn")   // false
/// ```
public enum ICULocale {
    public static func canonicalTag(_ locale: String) -> String {
        (try? transform(locale, Int32(CICU_LOCALE_CANONICAL_TAG))) ?? locale
    }
    public static func addLikelySubtags(_ locale: String) -> String {
        (try? transform(locale, Int32(CICU_LOCALE_ADD_LIKELY))) ?? locale
    }
    public static func minimizeSubtags(_ locale: String) -> String {
        (try? transform(locale, Int32(CICU_LOCALE_MINIMIZE))) ?? locale
    }
    public static func isRightToLeft(_ locale: String) -> Bool { cicu_locale_is_rtl(locale) != 0 }
    /// True when ICU has a name for the locale's language ("en", "tlh", "und"); false for "xx" or "qaa".
    public static func isKnownLanguage(_ locale: String) -> Bool { cicu_locale_language_is_known(locale) != 0 }

    static func transform(_ locale: String, _ op: Int32) throws -> String {
        try preflightString("locale transform", guess: 64) { out, cap, st in
            cicu_locale_transform(locale, op, out, cap, &st)
        }
    }
}
