import Foundation
import ICUKit
import Synchronization

/// The package's one locale policy, used by the strings catalog, templates, sorting, phone numbers and the
/// command-line tool alike:
///
/// - **Names of locales**: BCP 47 on output; POSIX (`de_DE.UTF-8`), Apple `.lproj` (`zh_CN`, `English`)
///   and deprecated codes (`iw`) accepted on input (``bcp47(fromLocalizationName:)``).
/// - **Fallback**: CLDR-style chains (``fallbackChain(for:)``): `zh-HK` → `zh-Hant`, `zh-SG` → `zh-Hans`,
///   `es-MX` → `es-419` → `es`, `en-AU` → `en-GB` → `en`, `pt-AO` → `pt-PT` → `pt`; a script never
///   falls back to another script (`sr-Latn` does not become Cyrillic `sr`). ``match(requested:available:)``
///   picks from what exists.
/// - **The environment's locale**: gettext's order, `LANGUAGE` (a `:` list, honoured unless the locale is
///   `C`/`POSIX`), then `LC_ALL`, `LC_MESSAGES`, `LANG` (``requestedLanguages(environment:)``,
///   ``environmentLocale(environment:)``); "en" when none is set.
/// - **Phone region** (numbers written without a country code): never inferred from the language
///   (`ja` is not `JP`): `--region`/`CONTACTS_REGION`, else the locale's own region subtag, else the
///   environment's territory (``phoneRegion(explicit:locale:environment:)``, in `LocalePolicy+Region.swift`).
///
/// ```swift
/// LocalePolicy.match(requested: ["es-MX"], available: ["en", "es", "es-419"])   // ["es-419", "es"]
/// LocalePolicy.bcp47(fromLocalizationName: "zh_CN")                            // "zh-CN"
/// LocalePolicy.environmentLocale(environment: ["LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"])  // "fr"
/// LocalePolicy.phoneRegion(explicit: nil, locale: "en-GB", environment: [:])  // "GB"
/// ```
public enum LocalePolicy {
    static let legacyNames: [String: String] = [
        "english": "en", "french": "fr", "german": "de", "japanese": "ja", "spanish": "es", "italian": "it",
        "dutch": "nl", "portuguese": "pt", "swedish": "sv", "danish": "da", "finnish": "fi", "norwegian": "nb",
        "korean": "ko", "russian": "ru", "polish": "pl", "arabic": "ar", "hebrew": "he", "turkish": "tr",
        "chinese": "zh", "greek": "el", "czech": "cs", "hungarian": "hu", "ukrainian": "uk", "thai": "th",
    ]

    static let deprecatedLanguages: [String: String] = ["iw": "he", "in": "id", "ji": "yi", "no": "nb", "tl": "fil"]

    /// Spanish-speaking regions of the Americas, whose parent is `es-419`.
    static let latinAmerica: Set<String> = [
        "AR", "BO", "BR", "BZ", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PR", "PY",
        "SV", "US", "UY", "VE",
    ]
    /// English regions that follow US English rather than `en-GB` (CLDR's `en-001` exceptions).
    static let usEnglish: Set<String> = ["US", "AS", "GU", "MH", "MP", "PR", "UM", "VI"]

    /// A language name as found in a folder name, a POSIX locale or a `--locale` value, as BCP 47.
    /// `English` → `en`, `zh_CN` → `zh-CN`, `de_DE.UTF-8` → `de-DE`, `iw` → `he`; `Base` stays `Base`.
    public static func bcp47(fromLocalizationName name: String) -> String {
        canonicalName(name, replacingDeprecated: true)
    }

    /// A localization folder's language as the project spells its code, in BCP 47 letter case: like
    /// ``bcp47(fromLocalizationName:)`` but a deprecated code stays (`tl.lproj` → `tl`, `iw` → `iw`;
    /// `zh-hans.lproj` → `zh-Hans`, `pt_br` → `pt-BR`). Two names are the same language when
    /// ``sameLanguage(_:_:)`` says so.
    ///
    /// ```swift
    /// LocalePolicy.folderLanguage("tl.lproj")       // "tl"
    /// LocalePolicy.folderLanguage("zh-hans.lproj")  // "zh-Hans"
    /// ```
    public static func folderLanguage(_ name: String) -> String {
        canonicalName(name, replacingDeprecated: false)
    }

    /// True when two localization names stand for the same language code (`tl` and `fil`, `zh-hans` and
    /// `zh_Hans`, `iw` and `he`).
    public static func sameLanguage(_ a: String, _ b: String) -> Bool {
        bcp47(fromLocalizationName: a) == bcp47(fromLocalizationName: b)
    }

    static func canonicalName(_ name: String, replacingDeprecated: Bool) -> String {
        var n = name
        if n.hasSuffix(".lproj") { n = String(n.dropLast(6)) }
        if let dot = n.firstIndex(of: ".") { n = String(n[..<dot]) }
        if let at = n.firstIndex(of: "@") { n = String(n[..<at]) }
        if n == "Base" { return n }
        if let legacy = legacyNames[n.lowercased()] { return legacy }
        if n == "C" || n == "POSIX" { return "en" }
        var parts = n.replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
        guard !parts.isEmpty else { return n }
        parts[0] = parts[0].lowercased()
        if replacingDeprecated, let modern = deprecatedLanguages[parts[0]] { parts[0] = modern }
        var inExtension = false  // after a singleton ("-u-", "-x-") subtags are keywords, not script or region
        for k in 1..<parts.count {
            let p = parts[k]
            if p.count == 1 { inExtension = true }
            if inExtension {
                parts[k] = p.lowercased()
            } else if p.count == 4, p.allSatisfy(\.isLetter) {
                parts[k] = p.prefix(1).uppercased() + p.dropFirst().lowercased()
            } else if (p.count == 2 && p.allSatisfy(\.isLetter)) || (p.count == 3 && p.allSatisfy(\.isNumber)) {
                parts[k] = p.uppercased()
            } else {
                parts[k] = p.lowercased()
            }
        }
        return parts.joined(separator: "-")
    }

    struct Subtags: Hashable {
        var language: String
        var script: String?
        var region: String?
    }

    static func subtags(_ tag: String) -> Subtags {
        let parts = tag.split(separator: "-").map(String.init)
        var s = Subtags(language: parts.first ?? tag)
        for p in parts.dropFirst() {
            if p.count == 4, p.allSatisfy(\.isLetter), s.script == nil, s.region == nil {
                s.script = p
            } else if s.region == nil,
                (p.count == 2 && p.allSatisfy(\.isLetter)) || (p.count == 3 && p.allSatisfy(\.isNumber))
            {
                s.region = p
            }
        }
        return s
    }

    /// Memo of likely-subtag expansions and fallback chains (bounded; cleared when full).
    private static let maximized = Mutex<[String: String]>([:])
    private static let chains = Mutex<[String: [String]]>([:])

    private static func memo<V: Sendable>(_ cache: borrowing Mutex<[String: V]>, _ key: String, _ make: () -> V) -> V {
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let value = make()
        cache.withLock {
            if $0.count > 4096 { $0.removeAll() }
            $0[key] = value
        }
        return value
    }

    /// `language-Script-Region` with likely subtags added (ICU), cached.
    static func maximize(_ tag: String) -> String {
        guard tag != "Base" else { return tag }
        return memo(maximized, tag) {
            bcp47(fromLocalizationName: ICULocale.addLikelySubtags(tag.replacingOccurrences(of: "-", with: "_")))
        }
    }

    /// The tags to try for one requested language, most specific first.
    public static func fallbackChain(for requested: String) -> [String] {
        memo(chains, requested) { computeChain(requested) }
    }

    static func computeChain(_ requested: String) -> [String] {
        let tag = bcp47(fromLocalizationName: requested)
        let max = subtags(maximize(tag))
        var chain: [String] = [tag]
        func add(_ t: String) { if !chain.contains(t) { chain.append(t) } }
        let language = max.language
        if let script = max.script, let region = max.region {
            add("\(language)-\(script)-\(region)")
            // `sr-RS` implies Cyrillic: only a script-less tag that implies the same script.
            if subtags(maximize("\(language)-\(region)")).script == script { add("\(language)-\(region)") }
            switch language {
            case "es" where latinAmerica.contains(region): add("es-419")
            case "en" where !usEnglish.contains(region) && region != "GB": add("en-GB")
            case "pt" where region != "BR" && region != "PT": add("pt-PT")
            default: break
            }
        }
        if let script = max.script {
            add("\(language)-\(script)")
            // The bare language only when it implies the same script (zh-Hant never becomes zh = zh-Hans).
            let defaultScript = subtags(maximize(language)).script
            if defaultScript == script { add(language) }
        } else {
            add(language)
        }
        return chain
    }

    /// The available localizations matching the requested languages, best first, each once (the
    /// development language is not added here; `Catalog.resolveLanguages(for:)` in StringsCatalog appends it).
    public static func match(requested: [String], available: [String]) -> [String] {
        let maxAvailable = available.map {
            (name: $0, tag: bcp47(fromLocalizationName: $0), max: maximize(bcp47(fromLocalizationName: $0)))
        }
        var result: [String] = []
        for req in requested where !req.isEmpty {
            for candidate in fallbackChain(for: req) {
                let candidateMax = maximize(candidate)
                if let exact = maxAvailable.first(where: { $0.tag.caseInsensitiveCompare(candidate) == .orderedSame }) {
                    if !result.contains(exact.name) { result.append(exact.name) }
                } else if let same = maxAvailable.first(where: { $0.max == candidateMax }) {
                    if !result.contains(same.name) { result.append(same.name) }
                }
            }
        }
        return result
    }

    /// Requested languages from the environment, as gettext reads them: `LANGUAGE` (a `:` list), then
    /// `LC_ALL`, `LC_MESSAGES`, `LANG`. Empty when none is set (or only `C`/`POSIX`).
    public static func requestedLanguages(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [String]
    {
        var result: [String] = []
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let v = environment[key], !v.isEmpty {
                if v == "C" || v == "POSIX" || v.hasPrefix("C.") { break }
                if let language = environment["LANGUAGE"], !language.isEmpty {
                    result += language.split(separator: ":").map { bcp47(fromLocalizationName: String($0)) }
                }
                result.append(bcp47(fromLocalizationName: v))
                break
            }
        }
        var seen = Set<String>()
        return result.filter { seen.insert($0).inserted }
    }

    /// The locale the environment asks for: the first of ``requestedLanguages(environment:)``, else "en".
    public static func environmentLocale(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        requestedLanguages(environment: environment).first ?? "en"
    }
}
