import Foundation

/// Coverage of one language: how many source keys it translates.
public struct LanguageStatus: Sendable, Hashable, Codable {
    public var language: String
    public var total: Int
    public var translated: Int
    public var missing: Int
    /// Present but identical to the source value (or marked for translation by sync).
    public var untranslated: Int
    public var percent: Double { total == 0 ? 100 : Double(translated) * 100 / Double(total) }

    /// A language with nothing counted yet.
    public init(language: String, total: Int = 0, translated: Int = 0, missing: Int = 0, untranslated: Int = 0) {
        self.language = language
        self.total = total
        self.translated = translated
        self.missing = missing
        self.untranslated = untranslated
    }

    /// Counts one source key: translated, missing, or present but untranslated.
    public mutating func count(translated: Bool, missing: Bool, untranslated: Bool) {
        total += 1
        if translated { self.translated += 1 }
        if missing { self.missing += 1 }
        if untranslated { self.untranslated += 1 }
    }
}

/// Per-language counts made while walking a format's source keys.
struct LanguageTally {
    private(set) var rows: [String: LanguageStatus] = [:]

    mutating func count(_ language: String, translated: Bool, missing: Bool, untranslated: Bool) {
        rows[language, default: LanguageStatus(language: language)].count(
            translated: translated, missing: missing, untranslated: untranslated)
    }

    mutating func add(_ row: LanguageStatus) {
        var sum = rows[row.language] ?? LanguageStatus(language: row.language)
        sum.total += row.total
        sum.translated += row.translated
        sum.missing += row.missing
        sum.untranslated += row.untranslated
        rows[row.language] = sum
    }

    var sorted: [LanguageStatus] { rows.values.sorted { $0.language < $1.language } }
}

extension LocalizationFolder {
    /// Per-language coverage of the source keys of every format (``formats``: `.strings`, `.stringsdict` and
    /// `.xcstrings`, and any added), each format's ``LocalizationFormat/status(_:)`` added up.
    public func status() -> [LanguageStatus] {
        var tally = LanguageTally()
        for format in formats {
            for row in format.status(self) { tally.add(row) }
        }
        return tally.sorted
    }

    /// The languages whose `.lproj` tables are counted: every one, and the development language when there
    /// is any (`Base` is not a language).
    var lprojStatusLanguages: [String] {
        Set(languages).union(languages.isEmpty ? [] : [developmentLanguage]).subtracting(["Base"]).sorted()
    }
}
