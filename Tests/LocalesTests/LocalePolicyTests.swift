import Locales
import Testing

@Suite("Locale policy")
struct LocalePolicyTests {
    @Test(
        "the environment's locale follows gettext's order",
        arguments: [
            (["LANG": "de_DE.UTF-8"], "de-DE"),
            (["LC_ALL": "sv_SE.UTF-8", "LANG": "de_DE.UTF-8"], "sv-SE"),
            (["LC_MESSAGES": "ja_JP.UTF-8", "LANG": "de_DE.UTF-8"], "ja-JP"),
            (["LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"], "fr"),
            (["LANGUAGE": "pt_BR", "LC_ALL": "es_MX.UTF-8"], "pt-BR"),
            (["LANGUAGE": "fr", "LANG": "C"], "en"),  // LANGUAGE is ignored under the C locale
            (["LANGUAGE": "fr"], "en"),  // no locale set at all is the C locale
            (["LC_ALL": "", "LANG": "zh_TW.UTF-8"], "zh-TW"),
            ([:], "en"),
        ])
    func environmentLocale(_ environment: [String: String], _ expected: String) {
        #expect(LocalePolicy.environmentLocale(environment: environment) == expected)
    }

    @Test(
        "the default phone region comes from the tag, else likely subtags, else ZZ",
        arguments: [
            ("en", "US"), ("en-GB", "GB"), ("ja", "JP"), ("zh-Hant", "TW"), ("zh-Hans", "CN"), ("de_AT", "AT"),
            ("pt", "BR"), ("es-419", "ZZ"), ("und", "US"), ("sv_SE.UTF-8", "SE"), ("ko", "KR"),
        ])
    func defaultRegion(_ locale: String, _ expected: String) {
        #expect(LocalePolicy.defaultRegion(for: locale) == expected, "\(locale)")
    }

    @Test func fallbackChains() {
        #expect(LocalePolicy.fallbackChain(for: "es-MX").starts(with: ["es-MX"]))
        #expect(LocalePolicy.fallbackChain(for: "es-MX").contains("es-419"))
        #expect(LocalePolicy.fallbackChain(for: "zh-HK").contains("zh-Hant"))
        #expect(!LocalePolicy.fallbackChain(for: "zh-HK").contains("zh"))
        #expect(LocalePolicy.match(requested: ["es-MX"], available: ["en", "es", "es-419"]) == ["es-419", "es"])
    }
}
