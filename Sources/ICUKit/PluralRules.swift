import CICU

/// ICU plural rules for a locale: which CLDR category ("zero", "one", "two", "few", "many", "other")
/// a number takes. Thread-safe.
///
/// ```swift
/// let ru = try PluralRules(locale: "ru")
/// ru.category(for: 3)   // .few
/// ```
public final class PluralRules: @unchecked Sendable {
    // @unchecked: the handle is set once in init and only used by const ICU calls (select, keywords).
    public enum Kind: Int32, Sendable {
        case cardinal = 0
        case ordinal = 1
    }
    public enum Category: String, Sendable, CaseIterable, Comparable {
        case zero, one, two, few, many, other
        public static func < (a: Category, b: Category) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    let handle: OpaquePointer
    public let locale: String
    public let kind: Kind
    /// The categories this locale uses (always includes `.other`).
    public let categories: [Category]

    public init(locale: String, kind: Kind = .cardinal) throws {
        var status: Int32 = 0
        guard let h = cicu_plural_open(locale, kind.rawValue, &status), status <= 0 else {
            throw ICUError.failure(
                operation: "open plural rules for '\(locale)'", code: status, name: ICUError.name(status))
        }
        handle = h
        self.locale = locale
        self.kind = kind
        let words = try preflightString("plural keywords", guess: 64) { out, cap, st in
            cicu_plural_keywords(h, out, cap, &st)
        }
        categories = words.split(separator: " ").compactMap { Category(rawValue: String($0)) }.sorted()
    }

    deinit { cicu_plural_close(handle) }

    /// The category of `number`; with `fractionDigits` the number counts as shown with that many
    /// decimals ("1.0" is `.other` in English).
    public func category(for number: Double, fractionDigits: Int? = nil) -> Category {
        let word = try? preflightString("plural select", guess: 16) { out, cap, st in
            cicu_plural_select(handle, number, Int32(clamping: fractionDigits ?? -1), out, cap, &st)
        }
        return word.flatMap(Category.init(rawValue:)) ?? .other
    }

    public func category(for number: Int) -> Category { category(for: Double(number)) }

    /// The locales ICU has data for (`de`, `de_AT`, `sr_Latn`, …), as ICU names them.
    ///
    /// ```swift
    /// PluralRules.availableLocales.contains("ru")   // true
    /// ```
    public static var availableLocales: [String] {
        (0..<cicu_available_locale_count()).compactMap { cicu_available_locale($0).map { String(cString: $0) } }
    }
}
