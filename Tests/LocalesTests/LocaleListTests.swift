import Locales
import Testing

/// Locales as users give them: one or a list, checked by one rule (issue 18, items 9 and 12).
@Suite("Locale lists and validation")
struct LocaleListTests {
    @Test(
        "well-formed locales are accepted, in BCP 47 form",
        arguments: [
            ("de-u-co-phonebk", "de-u-co-phonebk"), ("zh-Hans", "zh-Hans"), ("sr-Latn", "sr-Latn"),
            ("en_US", "en-US"), ("de_DE.UTF-8", "de-DE"), ("es-419", "es-419"), ("C", "en"), ("iw", "he"),
            ("EN-gb", "en-GB"), ("zh-Hant-TW", "zh-Hant-TW"), ("ja-JP-u-ca-japanese", "ja-JP-u-ca-japanese"),
            ("en-US-x-twain", "en-US-x-twain"), ("ca-ES-valencia", "ca-ES-valencia"), ("und", "und"),
            (" fr ", "fr"),
        ])
    func accepted(_ given: String, _ expected: String) throws {
        #expect(try LocalePolicy.validatedLocale(given) == expected)
    }

    @Test(
        "malformed locales are rejected, naming the expected form",
        arguments: [
            "xx-INVALID", "", "  ", "en-", "en--GB", "e", "abcd", "toolonglanguage", "en-a", "12", "en US",
            "en-GB-oed", "qaa", "x-private", "Base",
        ])
    func rejected(_ given: String) {
        #expect(throws: LocaleError.self, "\(given)") { try LocalePolicy.validatedLocale(given) }
        do {
            _ = try LocalePolicy.validatedLocale(given)
        } catch {
            #expect(error.description.contains("BCP 47"), "\(error)")
        }
    }

    @Test func unknownLanguageIsNamed() {
        #expect(throws: LocaleError.unknownLanguage("xx-INVALID", language: "xx")) {
            try LocalePolicy.validatedLocale("xx-INVALID")
        }
    }

    @Test("a list: comma- or colon-separated, each checked, each once")
    func lists() throws {
        #expect(try LocalePolicy.localeList("en,zh-Hans") == ["en", "zh-Hans"])
        #expect(try LocalePolicy.localeList("en, zh-Hans") == ["en", "zh-Hans"])
        #expect(try LocalePolicy.localeList("en:zh_CN") == ["en", "zh-CN"])
        #expect(try LocalePolicy.localeList("de,en,de") == ["de", "en"])
        #expect(try LocalePolicy.localeList("de-u-co-phonebk") == ["de-u-co-phonebk"])
        #expect(throws: LocaleError.empty(list: "en,,de")) { try LocalePolicy.localeList("en,,de") }
        #expect(throws: LocaleError.empty(list: "")) { try LocalePolicy.localeList("") }
        #expect(throws: LocaleError.self) { try LocalePolicy.localeList("en,xx-INVALID") }
    }

    @Test("the environment's list: LANGUAGE, then LC_ALL/LC_MESSAGES/LANG, names that are not locales dropped")
    func environmentList() {
        #expect(
            LocalePolicy.environmentLocales(environment: ["LANGUAGE": "en:zh_CN", "LANG": "en_US.UTF-8"])
                == ["en", "zh-CN", "en-US"])
        #expect(LocalePolicy.environmentLocales(environment: ["LANG": "de_DE.UTF-8"]) == ["de-DE"])
        #expect(
            LocalePolicy.environmentLocales(environment: ["LANGUAGE": "xx-INVALID:ja", "LANG": "C.UTF-8"]) == ["en"])
        #expect(
            LocalePolicy.environmentLocales(environment: ["LANGUAGE": "xx-INVALID:ja", "LANG": "fr_FR"]) == [
                "ja", "fr-FR",
            ])
        #expect(LocalePolicy.environmentLocales(environment: [:]) == ["en"])
    }

    @Test("Han names are read by the first Chinese, Japanese or Korean locale of the list")
    func hanReading() {
        #expect(LocalePolicy.hanReading(for: ["en", "zh-Hans"]) == .simplifiedChinese)
        #expect(LocalePolicy.hanReading(for: ["en", "zh-CN", "ja"]) == .simplifiedChinese)
        #expect(LocalePolicy.hanReading(for: ["en", "ja", "zh"]) == .japanese)
        #expect(LocalePolicy.hanReading(for: ["zh-TW"]) == .traditionalChinese)
        #expect(LocalePolicy.hanReading(for: ["zh-HK"]) == .traditionalChinese)
        #expect(LocalePolicy.hanReading(for: ["ko", "ja"]) == .korean)
        #expect(LocalePolicy.hanReading(for: ["de", "sv"]) == nil)
    }

    @Test("BCP 47 form: extension keywords are not read as script or region")
    func extensionKeywordsKeepTheirCase() {
        #expect(LocalePolicy.bcp47(fromLocalizationName: "de-u-co-phonebk") == "de-u-co-phonebk")
        #expect(LocalePolicy.bcp47(fromLocalizationName: "en-US-x-abcd") == "en-US-x-abcd")
    }
}
