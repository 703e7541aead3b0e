import StringsCatalog

/// The strings catalog answers `{{#t}}key{{/t}}`: a `.strings` value is used as an ICU MessageFormat
/// pattern; a `.stringsdict` plural entry is converted into an equivalent ICU `plural` pattern whose
/// argument is the entry's variable name (taken from the context like any other argument).
///
/// ```swift
/// let library = try TemplateLibrary.bundled(catalog: try Catalog.bundled())
/// ```
extension Catalog: MessageCatalog {
    public func message(forKey key: String, table: String, locale: String) -> String? {
        if let entry = pluralEntry(key, table: table, locale: locale) {
            return StringsdictPattern.icuPattern(entry)
        }
        return string(key, table: table, locale: locale)
    }

    /// The first language of `locale`'s chain (``resolveLanguages(for:)``) that has `table`: for `vi`,
    /// with no Vietnamese words, the development language.
    public func language(ofTable table: String, locale: String) -> String? {
        guard let found = resolveLanguages(for: [locale]).first(where: { tables[$0]?[table] != nil }) else {
            return nil
        }
        return found == "Base" ? developmentLanguage : found
    }

    /// The catalog's language chain for `locale` (e.g. es-MX → es-419, es), followed by the locale's own
    /// chain; the development language only when it is what was asked for.
    public func fallbackLocales(for locale: String) -> [String] {
        let own = TemplateLibrary.localeFallbacks(locale)
        var chain = resolveLanguages(for: [locale])
        if chain.last == developmentLanguage && !own.contains(developmentLanguage) { chain.removeLast() }
        var result: [String] = []
        for l in chain + own where !result.contains(l) { result.append(l) }
        return result
    }
}

/// Converts Apple `.stringsdict` plural entries into ICU MessageFormat patterns.
///
/// ```swift
/// // NSStringLocalizedFormatKey "%#@guests@", guests: one "%d guest", other "%d guests"
/// if let entry = catalog.pluralEntry("guests", table: "Localizable", locale: "en") {
///     StringsdictPattern.icuPattern(entry)   // "{guests, plural, one {# guest} other {# guests}}"
/// }
/// ```
public enum StringsdictPattern {
    static let categories = ["zero", "one", "two", "few", "many", "other"]

    /// The ICU pattern of `entry`, or nil when it has neither a format key nor width variants.
    public static func icuPattern(_ entry: StringsDictEntry) -> String? {
        guard let format = entry.formatKey ?? entry.widthVariants.keys.max().flatMap({ entry.widthVariants[$0] }) else {
            return nil
        }
        return convert(format, variables: entry.variables, argument: nil, depth: 0)
    }

    /// Converts a format key (`argument` nil) or a form of the variable taking `argument` (1-based). The
    /// specifiers are numbered first, as ``PrintfFormat/arguments(of:)`` numbers them (a form's own plain
    /// ones take its variable's argument), so `#` stands only for the variable's own number.
    static func convert(_ text: String, variables: [String: PluralVariable], argument: Int?, depth: Int) -> String {
        let numbered =
            argument.map { try? StringsDictEntry.pinSequential(text, to: $0) } ?? (try? PrintfFormat.positional(text))
        var out = ""
        let chars = Array((numbered ?? text).unicodeScalars)
        let inPlural = argument != nil
        var i = 0
        func literal(_ c: Unicode.Scalar) {
            switch c {
            case "'": out += "''"
            case "{", "}": out += "'\(c)'"
            case "#" where inPlural: out += "'#'"
            default: out.unicodeScalars.append(c)
            }
        }
        while i < chars.count {
            let c = chars[i]
            guard c == "%", i + 1 < chars.count else {
                literal(c)
                i += 1
                continue
            }
            if chars[i + 1] == "%" {
                out += "%"
                i += 2
                continue
            }
            // An argument position (`2$`), as numbering wrote it.
            var k = i + 1
            var digits = ""
            while k < chars.count, ("0"..."9").contains(chars[k]) {
                digits.unicodeScalars.append(chars[k])
                k += 1
            }
            let position = k < chars.count && chars[k] == "$" ? Int(digits) : nil
            let afterPosition = position == nil ? i + 1 : k + 1
            // %#@name@ : a plural variable.
            if afterPosition + 1 < chars.count, chars[afterPosition] == "#", chars[afterPosition + 1] == "@",
                let end = chars[(afterPosition + 2)...].firstIndex(of: "@")
            {
                let name = String(String.UnicodeScalarView(chars[(afterPosition + 2)..<end]))
                if let variable = variables[name], depth < 8 {
                    out += "{\(name), plural,"
                    for category in categories {
                        guard let form = variable.forms[category] else { continue }
                        let selector = category == "zero" ? "=0" : category
                        let converted = convert(form, variables: variables, argument: position ?? 1, depth: depth + 1)
                        out += " \(selector) {\(converted)}"
                    }
                    if variable.forms["other"] == nil { out += " other {}" }
                    out += "}"
                    i = end + 1
                    continue
                }
            }
            // A printf specifier: %[n$][flags][width][.precision][length]conversion
            var j = i + 1
            while j < chars.count, "0123456789$-+ #.'lhqzjtL".unicodeScalars.contains(chars[j]) { j += 1 }
            if j < chars.count, "diuoxXfFeEgGaA".unicodeScalars.contains(chars[j]), inPlural,
                position == nil || position == argument
            {
                out += "#"  // the variable's own number
                i = j + 1
                continue
            }
            literal(c)
            i += 1
        }
        return out
    }
}
