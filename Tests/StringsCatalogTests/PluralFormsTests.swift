import ICUKit
import Testing

@testable import StringsCatalog

/// The gettext Plural-Forms table against ICU's CLDR plural rules.
@Suite struct PluralFormsTests {
    /// Whole numbers gettext counts: 0…10,000, then the powers and round millions where CLDR's "many"
    /// (French, Spanish, …) and Breton's or Cornish's million rules apply.
    static let numbers: [UInt64] =
        Array(0...10_000)
        + [100_000, 1_000_000, 1_000_001, 2_000_000, 1_100_000, 10_000_000, 100_000_000, 1_000_000_000, 21_000_000]

    @Test func everyRowAgreesWithICU() throws {
        #expect(PluralForms.all.count >= 200)
        for row in PluralForms.all {
            let rules = try PluralRules(locale: row.language.replacingOccurrences(of: "-", with: "_"))
            var seen = Set<String>()
            for n in Self.numbers {
                let mine = row.category(for: n)
                let icu = rules.category(for: Int(n)).rawValue
                if mine != icu {
                    Issue.record(
                        "\(row.language): n=\(n) gives \(mine) (msgstr[\(row.index(for: n))]), ICU says \(icu)")
                    break
                }
                seen.insert(mine)
            }
            // Every msgstr index is reachable, and the indexes follow CLDR's order.
            #expect(seen == Set(row.categories), "\(row.language): \(row.categories) but counts reach \(seen)")
            let order = PluralRules.Category.allCases.map(\.rawValue)
            #expect(row.categories == order.filter(row.categories.contains), "\(row.language)")
            #expect(Set(row.categories).isSubset(of: Set(rules.categories.map(\.rawValue))), "\(row.language)")
            #expect((0...1000).allSatisfy { row.index(for: $0) < row.count }, "\(row.language)")
        }
    }

    /// Every locale ICU has data for (regions and scripts included: `pt_PT` has rules of its own) finds a
    /// row that agrees with its own rules.
    @Test func everyICULocaleFindsItsRow() throws {
        let locales = PluralRules.availableLocales
        #expect(locales.count > 500)
        for locale in locales {
            let row = PluralForms(language: locale)
            #expect(row.language != "und", "\(locale) has no row")
            let rules = try PluralRules(locale: locale)
            let probe = Array(UInt64(0)...200) + [1000, 1_000_000, 1_000_001]
            let bad = probe.first { row.category(for: $0) != rules.category(for: Int($0)).rawValue }
            #expect(bad == nil, "\(locale) → row \(row.language): n=\(bad ?? 0)")
        }
    }

    @Test func headersAndLookup() {
        #expect(PluralForms(language: "en").header == "nplurals=2; plural=(n == 1) ? 0 : 1;")
        #expect(PluralForms(language: "ja").header == "nplurals=1; plural=0;")
        #expect(PluralForms(language: "ru").categories == ["one", "few", "many"])
        #expect(PluralForms(language: "ar").count == 6)
        // CLDR, not the traditional nplurals=2: French has "many" for millions.
        #expect(PluralForms(language: "fr_CA").categories == ["one", "many", "other"])
        #expect(PluralForms(language: "fr").category(for: 1_000_000) == "many")
        #expect(PluralForms(language: "pt-PT").category(for: 0) == "other")
        #expect(PluralForms(language: "pt_BR").category(for: 0) == "one")
        #expect(PluralForms(language: "sr-Latn").language == "sr")
        #expect(PluralForms(language: "tlh").language == "und")
    }

    @Test func expressionEvaluatesWithCPrecedence() throws {
        func value(_ text: String, _ n: UInt64) throws -> UInt64 { try PluralExpression(parsing: text).evaluate(n) }
        #expect(try value("n != 1", 1) == 0)
        #expect(try value("n != 1", 0) == 1)
        #expect(try value("n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2", 22) == 1)
        #expect(try value("n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2", 12) == 2)
        #expect(try value("1 + 2 * 3", 0) == 7)
        #expect(try value("!n", 0) == 1)
        #expect(try value("!(n > 2) || n == 5", 5) == 1)
        #expect(try value("n == 0 ? 0 : n == 1 ? 1 : 2", 7) == 2)
        #expect(try value("n / 0", 3) == 0)
        #expect(try value("n <= 3 && n >= 2", 3) == 1)
    }

    @Test func syntaxErrorsNameTheColumn() {
        #expect(
            throws: StringsCatalogError.pluralExpression(column: 6, message: "expected ':' of the conditional '?:'")
        ) {
            try PluralExpression(parsing: "n ? 1")
        }
        #expect(throws: StringsCatalogError.pluralExpression(column: 7, message: "expected ')'")) {
            try PluralExpression(parsing: "(n > 1")
        }
        #expect(
            throws: StringsCatalogError.pluralExpression(
                column: 3, message: "expected an operator or the end of the expression")
        ) {
            try PluralExpression(parsing: "n = 1")
        }
        #expect(
            throws: StringsCatalogError.pluralExpression(
                column: 5, message: "expected 'n', a number, '!' or '(' but found 'x'")
        ) {
            try PluralExpression(parsing: "n > x")
        }
    }
}
