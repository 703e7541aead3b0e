import Foundation
import ICUKit

/// Why a locale given by a user cannot be used (the caller names the option or variable it came from).
public enum LocaleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing was given (`--locale ""`, or a list with an empty item such as `en,,de`).
    case empty(list: String)
    /// Not a BCP 47 tag: `subtag` is the part that does not fit.
    case malformed(String, subtag: String)
    /// A well-formed tag whose language ICU does not know (`xx-INVALID`).
    case unknownLanguage(String, language: String)

    public var description: String {
        let expected = "expected \(LocalePolicy.expectedForm)"
        switch self {
        case .empty(let list) where list.isEmpty: return "no locale given; \(expected)"
        case .empty(let list): return "empty locale in the list '\(list)'; \(expected)"
        case .malformed(let tag, let subtag) where subtag == tag: return "'\(tag)' is not a locale; \(expected)"
        case .malformed(let tag, let subtag):
            return "'\(tag)' is not a locale ('\(subtag)' does not fit); \(expected)"
        case .unknownLanguage(let tag, let language):
            return "'\(tag)': unknown language '\(language)'; \(expected)"
        }
    }
}

extension LocalePolicy {
    /// The form a locale must have, for messages.
    public static let expectedForm =
        "a BCP 47 tag such as en, en-GB, zh-Hans, sr-Latn or de-u-co-phonebk (POSIX names such as de_DE.UTF-8 are read too), several separated by commas"

    /// One locale as a user gives it, checked and in BCP 47 form: a POSIX, Apple or BCP 47 name
    /// (``bcp47(fromLocalizationName:)``) that is well-formed BCP 47 — language of 2–3 or 5–8 letters, then
    /// optional extended languages, script (4 letters), region (2 letters or 3 digits), variants, extensions and
    /// private use — and whose language ICU knows or ISO 639 registers (a project may ship `azb`, `bto` or
    /// `skr-Arab` before ICU has data for them).
    ///
    /// ```swift
    /// try LocalePolicy.validatedLocale("de_DE.UTF-8")        // "de-DE"
    /// try LocalePolicy.validatedLocale("de-u-co-phonebk")    // "de-u-co-phonebk"
    /// try LocalePolicy.validatedLocale("xx-INVALID")         // throws LocaleError.unknownLanguage
    /// ```
    public static func validatedLocale(_ name: String) throws(LocaleError) -> String {
        let given = name.trimmingCharacters(in: .whitespaces)
        guard !given.isEmpty else { throw .empty(list: name) }
        let separators: Set<Character> = ["-", "_"]
        let code = given.prefix { $0 != "." && $0 != "@" }  // a POSIX name's codeset and modifier are dropped
        if let first = code.first, let last = code.last,
            separators.contains(first) || separators.contains(last)
                || zip(code, code.dropFirst()).contains(where: { separators.contains($0) && separators.contains($1) })
        {
            throw .malformed(given, subtag: given)  // an empty subtag ("en-", "en--GB")
        }
        let tag = bcp47(fromLocalizationName: given)
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        func isAlpha(_ s: Substring) -> Bool { s.allSatisfy { $0.isASCII && $0.isLetter } }
        func isDigits(_ s: Substring) -> Bool { s.allSatisfy { $0.isASCII && $0.isNumber } }
        func isAlnum(_ s: Substring) -> Bool { s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        if let bad = parts.first(where: { $0.isEmpty || $0.count > 8 || !isAlnum($0) }) {
            throw .malformed(given, subtag: bad.isEmpty ? given : String(bad))
        }
        let language = parts[0]
        guard isAlpha(language), (2...3).contains(language.count) || (5...8).contains(language.count) else {
            throw .malformed(given, subtag: String(language))
        }
        var i = 1
        var extlangs = 0
        while i < parts.count, language.count <= 3, extlangs < 3, parts[i].count == 3, isAlpha(parts[i]) {
            i += 1
            extlangs += 1
        }
        if i < parts.count, parts[i].count == 4, isAlpha(parts[i]) { i += 1 }  // script
        if i < parts.count, (parts[i].count == 2 && isAlpha(parts[i])) || (parts[i].count == 3 && isDigits(parts[i])) {
            i += 1  // region
        }
        while i < parts.count,
            (5...8).contains(parts[i].count) || (parts[i].count == 4 && parts[i].first!.isNumber)
        {
            i += 1  // variants
        }
        while i < parts.count, parts[i].count == 1 {
            let singleton = parts[i].lowercased()
            i += 1
            let start = i
            if singleton == "x" {
                i = parts.count  // private use: the rest (1–8 alphanumerics each, checked above)
            } else {
                while i < parts.count, parts[i].count >= 2 { i += 1 }
            }
            guard i > start else { throw .malformed(given, subtag: singleton) }
        }
        guard i == parts.count else { throw .malformed(given, subtag: String(parts[i])) }
        guard ICULocale.isKnownLanguage(tag) || isRegisteredLanguage(String(language)) else {
            throw .unknownLanguage(given, language: String(language))
        }
        return tag
    }

    /// A list of locales as a user gives it, most preferred first: `en,zh-Hans` (`--locale`) or `en:zh_CN`
    /// (`LANGUAGE`'s form), each item checked by ``validatedLocale(_:)``, each kept once. The first locale sorts
    /// and names; the others add their index letters and name readings (as Android's locale lists do).
    ///
    /// ```swift
    /// try LocalePolicy.localeList("en, zh-Hans")   // ["en", "zh-Hans"]
    /// try LocalePolicy.localeList("en:zh_CN")      // ["en", "zh-CN"]
    /// try LocalePolicy.localeList("")              // throws LocaleError.empty
    /// ```
    public static func localeList(_ text: String) throws(LocaleError) -> [String] {
        var result: [String] = []
        for item in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," || $0 == ":" }) {
            guard !item.allSatisfy(\.isWhitespace) else { throw .empty(list: text) }
            let tag = try validatedLocale(String(item))
            if !result.contains(tag) { result.append(tag) }
        }
        return result
    }

    /// The environment's list of locales: ``requestedLanguages(environment:)`` (`LANGUAGE`'s list, then
    /// `LC_ALL`, `LC_MESSAGES`, `LANG`) without the names that are not locales; `["en"]` when none is left.
    ///
    /// ```swift
    /// LocalePolicy.environmentLocales(environment: ["LANGUAGE": "en:zh_CN", "LANG": "en_US.UTF-8"])
    /// // ["en", "zh-CN", "en-US"]
    /// ```
    public static func environmentLocales(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [String]
    {
        let valid = requestedLanguages(environment: environment).compactMap { try? validatedLocale($0) }
        return valid.isEmpty ? ["en"] : valid
    }

    /// How the names written in Han characters are read for a list of locales: by the first locale of the list
    /// whose language writes names in Han (Chinese, Japanese, Korean), as Android decides: `.simplifiedChinese`
    /// (Pinyin), `.traditionalChinese`, `.japanese`, `.korean`, or nil when the list has none of them.
    ///
    /// ```swift
    /// LocalePolicy.hanReading(for: ["en", "zh-Hans"])     // .simplifiedChinese
    /// LocalePolicy.hanReading(for: ["en", "ja", "zh"])    // .japanese
    /// LocalePolicy.hanReading(for: ["en", "zh-TW"])       // .traditionalChinese
    /// LocalePolicy.hanReading(for: ["de", "sv"])          // nil
    /// ```
    public static func hanReading(for locales: [String]) -> HanReading? {
        for locale in locales {
            let tag = subtags(maximize(bcp47(fromLocalizationName: locale)))
            switch tag.language {
            case "ja": return .japanese
            case "ko": return .korean
            case "zh": return tag.script == "Hant" ? .traditionalChinese : .simplifiedChinese
            default: continue
            }
        }
        return nil
    }

    /// The language whose reading of Han characters a list of locales asks for (``hanReading(for:)``).
    public enum HanReading: Sendable, Hashable {
        /// Mandarin Pinyin, sorted and sectioned by its Latin letters.
        case simplifiedChinese
        /// Traditional Chinese (stroke counts where the first locale is Chinese).
        case traditionalChinese
        /// Japanese: a kanji name without a kana reading is filed under 他 ("other").
        case japanese
        /// Korean (a Korean collation files Hanja by their Hangul reading).
        case korean

        /// True for both Chinese readings.
        public var isChinese: Bool { self == .simplifiedChinese || self == .traditionalChinese }
    }
}
