import Testing

@testable import StringsCatalog

/// The `strings status` table is the library's.
@Suite struct LanguageStatusTableTests {
    @Test func rowsAlignUnderTheirHeadings() {
        let rows = [
            LanguageStatus(language: "de", total: 42, translated: 42, missing: 0, untranslated: 0),
            LanguageStatus(language: "zh-Hant", total: 42, translated: 20, missing: 12, untranslated: 10),
        ]
        #expect(
            LanguageStatus.table(rows) == """
                language    total  translated  missing  untranslated    done
                de             42          42        0             0    100%
                zh-Hant        42          20       12            10     48%

                """)
        #expect(LanguageStatus.table([]).split(separator: "\n").count == 1)
    }
}
