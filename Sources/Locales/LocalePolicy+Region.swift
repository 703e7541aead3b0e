import Foundation
import Synchronization

/// The phone region: which country a number written without a country code ("(206) 555-0101") belongs to.
/// The display language, the collation and the phone region are three separate inputs: a language alone
/// never sets the region (`ja` is not `JP`, `de-u-co-phonebk` is not `CO`).
///
/// ```swift
/// LocalePolicy.phoneRegion(explicit: "us", locale: "ja", environment: [:])                  // "US"
/// LocalePolicy.phoneRegion(explicit: nil, locale: "en-GB", environment: [:])                // "GB"
/// LocalePolicy.phoneRegion(explicit: nil, locale: "ja", environment: ["LANG": "de_DE.UTF-8"])  // "DE"
/// LocalePolicy.phoneRegion(explicit: nil, locale: "de-u-co-phonebk", environment: [:])      // nil
/// LocalePolicy.region(forCountry: "Deutschland")                                            // "DE"
/// ```
extension LocalePolicy {
    /// The environment variable that names the phone region ("CONTACTS_REGION=GB").
    public static let regionVariable = "CONTACTS_REGION"

    /// The region numbers without a country code are read with: `explicit` (a `--region`), else
    /// `CONTACTS_REGION`, else the explicit region subtag of `locale` (``explicitRegion(of:)``), else the
    /// territory of the environment's `LC_ALL`/`LC_CTYPE`/`LANG` (``environmentRegion(environment:)``);
    /// nil when none says (then only numbers in international form can be normalized). Each given value
    /// is an ISO 3166 alpha-2 code, any case; one that is not is skipped.
    public static func phoneRegion(
        explicit: String?, locale: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        if let explicit, let code = regionCode(explicit) { return code }
        if let fromEnvironment = environment[regionVariable], let code = regionCode(fromEnvironment) {
            return code
        }
        return explicitRegion(of: locale) ?? environmentRegion(environment: environment)
    }

    /// `text` as an ISO 3166 alpha-2 region code ("us" → "US"), or nil when it is not two ASCII letters.
    public static func regionCode(_ text: String) -> String? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.utf8.count == 2, t.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else {
            return nil
        }
        return t.uppercased()
    }

    /// The region subtag a locale names itself, parsed as BCP 47 (`language[-extlang][-Script][-REGION]`,
    /// then variants and extensions): `en-GB` → "GB", `de_AT.UTF-8` → "AT", `sr-Latn-RS` → "RS"; nil for
    /// `ja`, `de`, `es-419` (a UN M.49 area is not a country), and for `de-u-co-phonebk`, `en-x-gb` or
    /// `ja-t-it`: what follows a singleton (`-u-`, `-t-`, `-x-`) is an extension, never a region.
    /// Likely subtags are never added.
    public static func explicitRegion(of locale: String) -> String? {
        var tag = Substring(locale)
        if let cut = tag.firstIndex(where: { $0 == "." || $0 == "@" }) { tag = tag[..<cut] }
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let language = parts.first, (2...8).contains(language.count), language.allSatisfy(\.isASCIILetter)
        else { return nil }
        var position = 1
        // Up to three extended language subtags (3 letters), after a 2–3 letter language.
        var extlangs = 0
        while language.count <= 3, extlangs < 3, position < parts.count, parts[position].count == 3,
            parts[position].allSatisfy(\.isASCIILetter)
        {
            position += 1
            extlangs += 1
        }
        if position < parts.count, parts[position].count == 4, parts[position].allSatisfy(\.isASCIILetter) {
            position += 1  // script
        }
        guard position < parts.count else { return nil }
        let candidate = parts[position]
        guard candidate.count == 2, candidate.allSatisfy(\.isASCIILetter) else { return nil }
        return candidate.uppercased()
    }

    /// The territory of the environment's locale for formats (`LC_ALL`, else `LC_CTYPE`, else `LANG`, as
    /// POSIX orders them): `de_DE.UTF-8` → "DE"; nil for `C`, `POSIX`, `C.UTF-8` or a locale without one.
    public static func environmentRegion(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String?
    {
        for key in ["LC_ALL", "LC_CTYPE", "LANG"] {
            guard let value = environment[key], !value.isEmpty else { continue }
            if value == "C" || value == "POSIX" || value.hasPrefix("C.") || value.hasPrefix("POSIX.") { return nil }
            return explicitRegion(of: value)
        }
        return nil
    }

    /// The region of a country as written in an address (`ADR`'s country): an ISO 3166 alpha-2 code ("DE"),
    /// the alpha-3 code of a common country ("DEU", "USA"), or the country's name in English or in one of the major languages, case and
    /// accents aside ("Germany", "Deutschland", "Allemagne", "United Kingdom", "UK", "USA", "日本");
    /// nil when it names none.
    public static func region(forCountry name: String) -> String? {
        // Address books repeat a few country names: each distinct one is folded and looked up once.
        if let known = CountryNames.memo.withLock({ $0[name] }) { return known }
        let key = countryKey(name)
        var region: String?
        if key.count == 2, let code = regionCode(key), CountryNames.table.regions.contains(code) {
            region = code
        } else if !key.isEmpty {
            region = CountryNames.table.byName[key]
        }
        CountryNames.memo.withLock {
            if $0.count > 4096 { $0.removeAll() }
            $0[name] = .some(region)
        }
        return region
    }

    /// A country name folded for lookup: lowercased, without accents, dots and extra spaces.
    static func countryKey(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out = ""
        var space = false
        for c in folded {
            if c == "." { continue }
            if c.isWhitespace || c == "-" || c == "," {
                space = !out.isEmpty
                continue
            }
            if space { out.append(" ") }
            space = false
            out.append(c)
        }
        return out
    }
}

/// Country names and codes → region, made once on first use from the platform's CLDR names.
enum CountryNames {
    struct Table: Sendable {
        var regions: Set<String> = []
        var byName: [String: String] = [:]
    }

    /// The languages whose country names are recognized (besides the codes and a few common short names).
    static let languages = [
        "en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "pl", "cs", "hu", "tr", "ru", "uk", "el",
        "ja", "zh-Hans", "zh-Hant", "ko", "ar", "he", "th", "vi", "id",
    ]

    /// Names people write that CLDR's display names do not give.
    static let aliases: [String: String] = [
        "usa": "US", "us": "US", "u s a": "US", "united states of america": "US", "america": "US", "uk": "GB",
        "great britain": "GB", "britain": "GB", "england": "GB", "scotland": "GB", "wales": "GB",
        "northern ireland": "GB", "holland": "NL", "the netherlands": "NL", "brd": "DE", "uae": "AE",
        "south korea": "KR", "korea": "KR", "russia": "RU", "czech republic": "CZ", "prc": "CN",
        // ISO 3166 alpha-3 codes of the countries most address books hold.
        "gbr": "GB", "deu": "DE", "fra": "FR", "esp": "ES", "ita": "IT", "prt": "PT", "nld": "NL", "bel": "BE",
        "che": "CH", "aut": "AT", "swe": "SE", "nor": "NO", "dnk": "DK", "fin": "FI", "pol": "PL", "cze": "CZ",
        "irl": "IE", "can": "CA", "mex": "MX", "bra": "BR", "arg": "AR", "aus": "AU", "nzl": "NZ", "jpn": "JP",
        "chn": "CN", "kor": "KR", "ind": "IN", "rus": "RU", "ukr": "UA", "tur": "TR", "isr": "IL", "zaf": "ZA",
        "twn": "TW", "hkg": "HK", "sgp": "SG", "grc": "GR", "hun": "HU",
    ]

    /// Answers of `LocalePolicy.region(forCountry:)` by the text as written (bounded).
    static let memo = Mutex<[String: String?]>([:])

    static let table: Table = {
        var t = Table()
        let regions = Locale.Region.isoRegions.map(\.identifier).filter { $0.count == 2 && $0.allSatisfy(\.isLetter) }
        t.regions = Set(regions)
        for language in languages {
            let locale = Locale(identifier: language)
            for region in regions {
                guard let name = locale.localizedString(forRegionCode: region) else { continue }
                let key = LocalePolicy.countryKey(name)
                if !key.isEmpty && t.byName[key] == nil { t.byName[key] = region }
            }
        }
        for (alias, region) in aliases { t.byName[alias] = region }
        return t
    }()

}

extension Character {
    fileprivate var isASCIILetter: Bool { isASCII && isLetter }
}
