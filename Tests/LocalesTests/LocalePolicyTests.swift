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
        "a locale's phone region is its own region subtag only: never inferred, never read from an extension",
        arguments: [
            ("en", nil), ("en-GB", "GB"), ("ja", nil), ("de", nil), ("de-u-co-phonebk", nil), ("zh-Hant", nil),
            ("zh-Hant-TW", "TW"), ("de_AT", "AT"), ("es-419", nil), ("und", nil), ("sv_SE.UTF-8", "SE"),
            ("sr-Latn-RS", "RS"), ("zh-yue-HK", "HK"), ("en-x-gb", nil), ("ja-t-it", nil), ("de-DE-u-co-phonebk", "DE"),
            ("en-US-POSIX", "US"), ("", nil), ("C", nil),
        ] as [(String, String?)])
    func explicitRegion(_ locale: String, _ expected: String?) {
        #expect(LocalePolicy.explicitRegion(of: locale) == expected, "\(locale)")
    }

    @Test func phoneRegionOrder() {
        let german = ["LANG": "de_DE.UTF-8"]
        #expect(LocalePolicy.phoneRegion(explicit: "us", locale: "en-GB", environment: german) == "US")
        #expect(LocalePolicy.phoneRegion(explicit: nil, locale: "en-GB", environment: german) == "GB")
        #expect(LocalePolicy.phoneRegion(explicit: nil, locale: "ja", environment: german) == "DE")
        #expect(LocalePolicy.phoneRegion(explicit: nil, locale: "ja", environment: ["CONTACTS_REGION": "fr"]) == "FR")
        #expect(
            LocalePolicy.phoneRegion(
                explicit: nil, locale: "ja", environment: ["LC_ALL": "sv_SE.UTF-8", "LANG": "de_DE"])
                == "SE")
        #expect(
            LocalePolicy.phoneRegion(
                explicit: nil, locale: "ja", environment: ["LC_CTYPE": "fr_CA.UTF-8", "LANG": "de_DE"])
                == "CA")
        #expect(LocalePolicy.phoneRegion(explicit: nil, locale: "ja", environment: ["LANG": "C.UTF-8"]) == nil)
        #expect(
            LocalePolicy.phoneRegion(explicit: nil, locale: "de-u-co-phonebk", environment: ["LANG": "POSIX"]) == nil)
        #expect(LocalePolicy.phoneRegion(explicit: nil, locale: "ja", environment: [:]) == nil)
    }

    @Test func countriesOfAddresses() {
        for (name, region) in [
            ("USA", "US"), ("United States", "US"), ("United Kingdom", "GB"), ("UK", "GB"), ("Deutschland", "DE"),
            ("germany", "DE"), ("DE", "DE"), ("fr", "FR"), ("France", "FR"), ("Österreich", "AT"), ("Espana", "ES"),
            ("日本", "JP"), ("Australia", "AU"), ("DEU", "DE"), ("U.S.A.", "US"),
        ] {
            #expect(LocalePolicy.region(forCountry: name) == region, "\(name)")
        }
        #expect(LocalePolicy.region(forCountry: "Atlantis") == nil)
        #expect(LocalePolicy.region(forCountry: "") == nil)
        #expect(LocalePolicy.region(forCountry: "XX") == nil)
    }

    @Test func fallbackChains() {
        #expect(LocalePolicy.fallbackChain(for: "es-MX").starts(with: ["es-MX"]))
        #expect(LocalePolicy.fallbackChain(for: "es-MX").contains("es-419"))
        #expect(LocalePolicy.fallbackChain(for: "zh-HK").contains("zh-Hant"))
        #expect(!LocalePolicy.fallbackChain(for: "zh-HK").contains("zh"))
        #expect(LocalePolicy.match(requested: ["es-MX"], available: ["en", "es", "es-419"]) == ["es-419", "es"])
    }
}
