import Synchronization

/// A language's gettext `Plural-Forms`: how many `msgstr[n]` a plural entry has, the expression that picks
/// one for a count, and the CLDR category each index stands for. One table covers every language with
/// CLDR plural rules in ICU; its formulas agree with ICU's categories for whole numbers.
///
/// ```swift
/// let ru = PluralForms(language: "ru")
/// ru.header                 // "nplurals=3; plural=(n % 10 == 1 && n % 100 != 11) ? 0 : …;"
/// ru.categories             // ["one", "few", "many"]
/// ru.category(for: 22)      // "few"
/// ```
public struct PluralForms: Sendable, Hashable {
    /// The table row's language (`pt-PT`, `ru`); `und` when no row matches.
    public let language: String
    /// CLDR categories that `msgstr[0]`, `msgstr[1]`, … stand for (`nplurals` is their count).
    public let categories: [String]
    /// The C expression of `plural=` in gettext's syntax.
    public let expression: PluralExpression

    /// The row for a BCP 47 tag or `.lproj` name (`pt_BR`, `sr-Latn`, `zh-Hans`): the tag itself, else its
    /// language with the region (`pt-PT`), else the language; a language without CLDR rules gets one form.
    public init(language tag: String) {
        let parts = tag.replacingOccurrences(of: "_", with: "-").lowercased().split(separator: "-").map(String.init)
        let language = parts.first ?? ""
        let region = parts.dropFirst().first { $0.count == 2 || $0.count == 3 && $0.allSatisfy(\.isNumber) }
        var candidates = [parts.joined(separator: "-")]
        if let region { candidates.append(language + "-" + region) }
        candidates.append(language)
        for c in candidates {
            if let row = Self.rows[c] {
                self = row
                return
            }
        }
        if let derived = Self.derived(language) {
            self = derived
            return
        }
        self = PluralForms(rowLanguage: "und", categories: ["other"], expression: "0")
    }

    /// Whole numbers on which two plural rules are told apart (each rule's period is a divisor of 100 or
    /// 1000, and the millions are CLDR's "many" of French and its kin).
    static let probe: [UInt64] = Array(0...1200) + [100_000, 1_000_000, 1_000_001, 2_000_000, 1_100_000, 10_000_000]

    /// Memo of the forms ICU's rules give languages the table does not name.
    private static let derivedForms = Mutex<[String: PluralForms?]>([:])

    /// The forms of a language ICU has plural rules for but the table does not name (CLDR adds languages
    /// faster than the table: `an`; `kmr`, CLDR's `ku` by its alias): the formula of the table row whose categories agree with ICU's
    /// for every probed number, named by the language. Nil when ICU's rules are only its root's `other`.
    static func derived(_ language: String) -> PluralForms? {
        if let known = derivedForms.withLock({ $0[language] }) { return known }
        var result: PluralForms?
        if let rules = PluralRulesCache.rules(for: language), rules.categories != [.other] {
            let icu = probe.map { rules.category(for: Double($0)).rawValue }
            let row = distinctRows.first { row in zip(probe, icu).allSatisfy { row.category(for: $0) == $1 } }
            if let row {
                result = PluralForms(language: language, categories: row.categories, expression: row.expression)
            }
        }
        derivedForms.withLock { $0[language] = result }
        return result
    }

    /// One row per distinct formula of the table.
    private static let distinctRows: [PluralForms] = {
        var seen = Set<String>()
        return table.compactMap { seen.insert($0.expression).inserted ? rows[$0.language.lowercased()] : nil }
    }()

    private init(language: String, categories: [String], expression: PluralExpression) {
        self.language = language
        self.categories = categories
        self.expression = expression
    }

    private init(rowLanguage: String, categories: [String], expression: String) {
        language = rowLanguage
        self.categories = categories
        // The table is checked by the tests; a row that did not parse would fail them.
        self.expression = (try? PluralExpression(parsing: expression)) ?? PluralExpression.zero
    }

    /// Every row of the table, in the order of their languages.
    public static var all: [PluralForms] { table.map { PluralForms(language: $0.language) } }

    private static let rows: [String: PluralForms] = Dictionary(
        uniqueKeysWithValues: table.map {
            (
                $0.language.lowercased(),
                PluralForms(
                    rowLanguage: $0.language, categories: $0.categories.split(separator: " ").map(String.init),
                    expression: $0.expression)
            )
        })

    /// `nplurals`.
    public var count: Int { categories.count }

    /// The header value: `nplurals=N; plural=EXPR;`.
    public var header: String { "nplurals=\(count); plural=\(expression.text);" }

    /// The `msgstr` index for `n`.
    public func index(for n: UInt64) -> Int { Int(clamping: expression.evaluate(n)) }

    /// The CLDR category for `n` (the category of its `msgstr` index).
    public func category(for n: UInt64) -> String {
        let i = index(for: n)
        return i < categories.count ? categories[i] : "other"
    }
}
