import Foundation
import Locales
import Support

/// What ``LocalizationFolder/pseudolocalize(_:into:)`` made.
public struct PseudoReport: Sendable, Hashable {
    public var language: String
    /// What each format made (``LocalizationFormat/fileExtension`` → values, entries or keys written).
    public var made: [String: Int] = [:]
    /// `.strings` values written.
    public var strings: Int {
        get { made["strings"] ?? 0 }
        set { made["strings"] = newValue }
    }
    /// `.stringsdict` entries written.
    public var plurals: Int {
        get { made["stringsdict"] ?? 0 }
        set { made["stringsdict"] = newValue }
    }
    /// `.xcstrings` keys written.
    public var catalogKeys: Int {
        get { made["xcstrings"] ?? 0 }
        set { made["xcstrings"] = newValue }
    }

    public init(language: String) { self.language = language }
}

extension LocalizationFolder {
    /// Writes (in memory; ``save()`` puts it on disk) a pseudolanguage made from the development language:
    /// each `.strings` table as a copy of the source file (comments and layout kept, values pseudolocalized)
    /// in `<language>.lproj` beside it, each `.stringsdict` entry with a form for every plural category of
    /// `language` (`zero` too when the source has one), and a `language` localization of every translatable
    /// key of each `.xcstrings`, its plural variations and substitutions likewise. A language already present
    /// is replaced only when it is a pseudolanguage (`en-XA`, ``Pseudolocalizer/isPseudoLanguage(_:)``):
    /// translations are never overwritten.
    ///
    /// ```swift
    /// var folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
    /// let report = try folder.pseudolocalize(Pseudolocalizer(style: .accented), into: "en-XA")
    /// _ = try folder.save()   // Localizations/en-XA.lproj/…, the en-XA localizations of the catalogs
    /// ```
    public mutating func pseudolocalize(_ pseudo: Pseudolocalizer, into language: String) throws -> PseudoReport {
        let target = LocalePolicy.bcp47(fromLocalizationName: language)
        guard target != developmentLanguage && target != "Base" else {
            throw StringsCatalogError.invalidArgument(
                "\(target) is the development language: a pseudolanguage needs a language of its own (en-XA)")
        }
        if !Pseudolocalizer.isPseudoLanguage(target) && allLanguages.contains(target) {
            throw StringsCatalogError.invalidArgument(
                "\(target) has translations already: a pseudolanguage replaces only a pseudolanguage "
                    + "(a private-use region such as en-XA or ar-XB)")
        }
        var report = PseudoReport(language: target)
        for format in formats {
            report.made[format.fileExtension] = format.pseudolocalize(&self, with: pseudo, into: target)
        }
        return report
    }

    /// The pseudolanguage of each `.strings` table (``StringsFormat``): a copy of the source file, values
    /// changed; returns the values written.
    mutating func pseudoStrings(_ pseudo: Pseudolocalizer, into target: String) -> Int {
        var count = 0
        for table in sourceStringsTables.sorted() {
            guard var doc = sourceStrings(table) else { continue }
            // A MessageFormat 2 value stays as written: accenting its syntax (`.input`) would break it.
            doc.rewriteValues {
                TextChecks.isMessageFormat2(key: $0.key, source: $0.value) ? $0.value : pseudo.transform($0.value)
            }
            count += doc.entries.count
            doc.file = displayPath(url(language: target, table: table, extension: "strings"))
            strings[target, default: [:]][table] = doc
        }
        return count
    }

    /// The pseudolanguage of each `.stringsdict` table (``StringsDictFormat``), a form for every plural
    /// category of the language; returns the entries written.
    mutating func pseudoStringsDicts(_ pseudo: Pseudolocalizer, into target: String) -> Int {
        var count = 0
        let categories = PluralRulesCache.categories(for: target).map(\.rawValue)
        for table in sourceDictTables.sorted() {
            guard let source = sourceDict(table) else { continue }
            let file = displayPath(url(language: target, table: table, extension: "stringsdict"))
            var made: [StringsDictEntry] = []
            for key in source.entries.keys.sorted() {
                guard var entry = source.entries[key] else { continue }
                entry.formatKey = entry.formatKey.map { pseudo.transform($0) }
                entry.widthVariants = entry.widthVariants.mapValues { pseudo.transform($0) }
                entry.variables = entry.variables.mapValues { variable in
                    var v = variable
                    v.forms = Self.pseudoForms(variable.forms, categories: categories) { pseudo.transform($0) }
                    return v
                }
                made.append(entry)
            }
            count += made.count
            // One document written at once (appending entry by entry would copy the file each time).
            var doc = StringsDictDocument(parsing: Data(StringsDictDocument.xmlDocument(made).utf8), file: file)
            doc.edited = true
            stringsDicts[target, default: [:]][table] = doc
        }
        return count
    }

    /// The `target` localization of every translatable key of each `.xcstrings` (``XCStringsFormat``);
    /// returns the keys written.
    mutating func pseudoCatalogs(_ pseudo: Pseudolocalizer, into target: String) -> Int {
        var count = 0
        let categories = PluralRulesCache.categories(for: target).map(\.rawValue)
        for (table, catalog) in catalogs {
            var made: [String: XCStringsDocument.Localization] = [:]
            for entry in catalog.entries where entry.shouldTranslate && !entry.isEmptyLiteral {
                let source = entry.localizations[catalog.sourceLanguage] ?? .init(value: entry.key)
                made[entry.key] = Self.pseudoLocalization(source, categories: categories) { pseudo.transform($0) }
            }
            var cat = catalog
            cat.setLocalizations(made, language: target)
            count += made.count
            catalogs[table] = cat
        }
        return count
    }

    /// `forms` with one for every category (and `zero` when the source has it), from `other` where the
    /// source lacks a category.
    static func pseudoForms<Value>(
        _ forms: [String: Value], categories: [String], _ transform: (Value) -> Value
    ) -> [String: Value] {
        var result: [String: Value] = [:]
        for c in Set(categories).union(forms["zero"] == nil ? [] : ["zero"]) {
            if let form = forms[c] ?? forms["other"] { result[c] = transform(form) }
        }
        return result
    }

    static func pseudoLocalization(
        _ source: XCStringsDocument.Localization, categories: [String], _ transform: @escaping (String) -> String
    ) -> XCStringsDocument.Localization {
        func make(_ l: XCStringsDocument.Localization) -> XCStringsDocument.Localization {
            var out = XCStringsDocument.Localization(
                state: l.value == nil ? nil : "translated", value: l.value.map(transform))
            out.plural = pseudoForms(l.plural, categories: categories, make)
            out.device = l.device.mapValues(make)
            out.substitutions = l.substitutions.mapValues { sub in
                var s = sub
                s.plural = pseudoForms(sub.plural, categories: categories, make)
                return s
            }
            return out
        }
        return make(source)
    }
}

extension XCStringsDocument {
    /// Replaces the `language` localization of each key of `localizations` (keys the catalog lacks are
    /// ignored) with the given one, in Xcode's layout (`stringUnit`, `substitutions`,
    /// `variations.plural`/`device`); one pass over the catalog.
    public mutating func setLocalizations(_ localizations: [String: Localization], language: String) {
        var newRoot = root
        guard case .object(var members)? = newRoot["strings"] else { return }
        newRoot["strings"] = .null
        for i in members.indices {
            guard let localization = localizations[members[i].key] else { continue }
            var entry = members[i].value
            var locs = entry["localizations"] ?? .object([])
            locs.insertSorted(language, Self.json(localization))
            entry.insertSorted("localizations", locs)
            members[i].value = entry
        }
        newRoot["strings"] = .object(members)
        replaceRoot(newRoot)
    }

    static func json(_ l: Localization) -> JSONValue {
        var out = JSONValue.object([])
        if let value = l.value {
            var unit = JSONValue.object([])
            unit.insertSorted("state", .string(l.state ?? "translated"))
            unit.insertSorted("value", .string(value))
            out.insertSorted("stringUnit", unit)
        }
        if !l.substitutions.isEmpty {
            var subs = JSONValue.object([])
            for (name, sub) in l.substitutions.sorted(by: { $0.key < $1.key }) {
                var s = JSONValue.object([])
                if let n = sub.argNum { s.insertSorted("argNum", .number(String(n))) }
                if let f = sub.formatSpecifier { s.insertSorted("formatSpecifier", .string(f)) }
                if !sub.plural.isEmpty {
                    s.insertSorted("variations", .object([JSONMember(key: "plural", value: variations(sub.plural))]))
                }
                subs.insertSorted(name, s)
            }
            out.insertSorted("substitutions", subs)
        }
        if !l.plural.isEmpty || !l.device.isEmpty {
            var v = JSONValue.object([])
            if !l.device.isEmpty { v.insertSorted("device", variations(l.device)) }
            if !l.plural.isEmpty { v.insertSorted("plural", variations(l.plural)) }
            out.insertSorted("variations", v)
        }
        return out
    }

    static func variations(_ forms: [String: Localization]) -> JSONValue {
        var out = JSONValue.object([])
        for (name, form) in forms.sorted(by: { $0.key < $1.key }) { out.insertSorted(name, json(form)) }
        return out
    }
}
