import Foundation
import Support

extension XLIFF {
    /// The XLIFF `<file>`s for `language`: every source table with the current translations as targets,
    /// format by format (``LocalizationFolder/formats``).
    public static func files(_ folder: LocalizationFolder, language: String) -> [XLIFFFile] {
        let language = folder.language(matching: language)
        return folder.formats.flatMap { $0.xliffFiles(folder, language: language) }
    }

    /// The `<file>`s of the `.strings` tables (``StringsFormat``).
    static func stringsFiles(_ folder: LocalizationFolder, language: String) -> [XLIFFFile] {
        let dev = folder.developmentLanguage
        var files: [XLIFFFile] = []
        for table in folder.sourceStringsTables.sorted() {
            guard let source = folder.sourceStrings(table) else { continue }
            // Each key's last entry (what a lookup sees), indexed once rather than searched per key.
            var translated: [String: StringsDocument.Entry] = [:]
            for t in folder.strings[language]?[table]?.entries ?? [] { translated[t.key] = t }
            var units: [XLIFFUnit] = []
            var seen = Set<String>()
            for e in source.entries.reversed() where seen.insert(e.key).inserted {
                let t = translated[e.key]
                let marked = t?.comment?.hasPrefix(LocalizationFolder.needsTranslationMarker) == true
                units.append(
                    XLIFFUnit(
                        id: e.key, source: e.value, target: marked ? nil : t?.value,
                        state: t == nil || marked ? nil : "translated", note: e.comment))
            }
            files.append(
                XLIFFFile(
                    original: original(folder, table, dev, "strings"), sourceLanguage: dev, targetLanguage: language,
                    units: units.reversed()))
        }
        return files
    }

    /// The `<file>`s of the `.stringsdict` tables (``StringsDictFormat``).
    static func stringsDictFiles(_ folder: LocalizationFolder, language: String) -> [XLIFFFile] {
        let dev = folder.developmentLanguage
        var files: [XLIFFFile] = []
        for table in folder.sourceDictTables.sorted() {
            let source = folder.sourceDictEntries(table)
            let translated = folder.stringsDicts[language]?[table]?.entries ?? [:]
            var units: [XLIFFUnit] = []
            for key in source.keys.sorted() {
                let s = source[key]!
                let t = translated[key]
                let marked = t?.comment?.hasPrefix(LocalizationFolder.needsTranslationMarker) == true
                if let f = s.formatKey {
                    let target = marked ? nil : t?.formatKey
                    units.append(
                        XLIFFUnit(
                            id: "/\(key):dict/NSStringLocalizedFormatKey:dict/:string", source: f, target: target,
                            state: target == nil ? nil : "translated", note: s.comment))
                }
                // The translation's own variables when it has them (it may name them differently: `v1` for the
                // source's `v0`, matched by the argument they take), else the source's.
                let own = marked ? nil : t
                let sourcePositions = LocalizationFolder.variablePositions(s)
                let positions = own.map(LocalizationFolder.variablePositions) ?? [:]
                for name in (own ?? s).variables.keys.sorted() {
                    let sourceName =
                        s.variables[name] != nil ? name : sourcePositions.first { $0.value == positions[name] }?.key
                    let sv =
                        sourceName.flatMap { s.variables[$0] } ?? s.variables.values.min { $0.name < $1.name }
                        ?? PluralVariable(name: name, forms: [:])
                    // Offer every category the target language needs, with the source's "other" as source text.
                    let needed = PluralRulesCache.categories(for: language).map(\.rawValue)
                    let categories = pluralCategoryNames.filter {
                        needed.contains($0) || sv.forms[$0] != nil && $0 == "zero"
                            || own?.variables[name]?.forms[$0] != nil
                    }
                    for category in categories {
                        let target = own?.variables[name]?.forms[category]
                        units.append(
                            XLIFFUnit(
                                id: "/\(key):dict/\(name):dict/\(category):dict/:string",
                                source: sv.forms[category] ?? sv.forms["other"] ?? "", target: target,
                                state: target == nil ? nil : "translated", note: s.comment))
                    }
                }
            }
            files.append(
                XLIFFFile(
                    original: original(folder, table, dev, "stringsdict"), sourceLanguage: dev,
                    targetLanguage: language, units: units))
        }
        return files
    }

    /// The units a translator edits for each catalog key. Their shape is the translation's own when it
    /// has one (it may use a plural substitution where the source uses a plural variation, or other
    /// substitution names), else the source's; the source text of each unit is the closest source form.
    static func catalogUnits(_ cat: XCStringsDocument, language: String) -> [XLIFFUnit] {
        var units: [XLIFFUnit] = []
        let needed = PluralRulesCache.categories(for: language).map(\.rawValue)
        func categories(_ present: [String: XCStringsDocument.Localization]?) -> [String] {
            pluralCategoryNames.filter { needed.contains($0) || present?[$0] != nil }
        }
        for entry in cat.entries where entry.shouldTranslate && !entry.isEmptyLiteral {
            let src = entry.localizations[cat.sourceLanguage]
            let tgt = entry.localizations[language]
            func unit(_ suffix: String, _ s: String, _ t: XCStringsDocument.Localization?) {
                units.append(
                    XLIFFUnit(
                        id: entry.key + (suffix.isEmpty ? "" : separator + suffix), source: s, target: t?.value,
                        state: xliffState(t?.state), note: entry.comment))
            }
            let root = src?.value ?? src?.device["other"]?.value ?? src?.plural["other"]?.value ?? entry.key
            func sourcePlural(_ c: String) -> String {
                src?.plural[c]?.value ?? src?.plural["other"]?.value ?? src?.value ?? entry.key
            }
            let shape = hasContent(tgt) ? tgt! : (src ?? XCStringsDocument.Localization())
            if !shape.plural.isEmpty {
                for c in categories(tgt?.plural) { unit("plural.\(c)", sourcePlural(c), tgt?.plural[c]) }
            } else if !shape.device.isEmpty {
                for d in shape.device.keys.sorted() {
                    let sd = src?.device[d]
                    if let dp = shape.device[d], !dp.plural.isEmpty {
                        for c in categories(tgt?.device[d]?.plural) {
                            unit(
                                "device.\(d).plural.\(c)",
                                sd?.plural[c]?.value ?? sd?.plural["other"]?.value ?? sd?.value ?? sourcePlural(c),
                                tgt?.device[d]?.plural[c])
                        }
                    } else {
                        unit("device.\(d)", sd?.value ?? root, tgt?.device[d])
                    }
                }
            } else {
                unit("", root, tgt)
            }
            // Substitutions: the translation's own, and the source's that the translation uses (all of them
            // while there is no translation yet).
            var names = Set(tgt.map { Array($0.substitutions.keys) } ?? [])
            let targetTexts = tgt.map(texts) ?? []
            for name in src.map({ Array($0.substitutions.keys) }) ?? []
            where !hasContent(tgt) || targetTexts.contains(where: { references($0, substitution: name) }) {
                names.insert(name)
            }
            for name in names.sorted() {
                // A substitution the source lacks (the translation renamed it): the source's for the same
                // argument, its `argNum` or else where the text uses it.
                let argument = Self.substitutionArgument(name, in: tgt)
                let s =
                    src?.substitutions[name]
                    ?? src?.substitutions.sorted(by: { $0.key < $1.key }).first(where: {
                        argument != nil && Self.substitutionArgument($0.key, in: src) == argument
                    })?.value ?? (src?.substitutions.count == 1 ? src?.substitutions.first?.value : nil)
                for c in categories(tgt?.substitutions[name]?.plural) {
                    unit(
                        "substitutions.\(name).plural.\(c)",
                        s?.plural[c]?.value ?? s?.plural["other"]?.value ?? sourcePlural(c),
                        tgt?.substitutions[name]?.plural[c])
                }
            }
        }
        return units
    }

    /// The argument a substitution of a localization takes: its `argNum`, else the place of its `%#@name@`
    /// among the arguments of the localization's text (`%#@a@ in %#@b@`: `b` takes 2).
    static func substitutionArgument(_ name: String, in loc: XCStringsDocument.Localization?) -> Int? {
        if let n = loc?.substitutions[name]?.argNum { return n }
        for text in loc.map(texts) ?? [] {
            if let found = ((try? PrintfFormat.arguments(of: text)) ?? []).first(where: {
                $0.specifier.variable == name
            }) {
                return found.index + 1
            }
        }
        return nil
    }

    /// The XLIFF 1.2 document for `language`, in Xcode's layout.
    public static func export(_ folder: LocalizationFolder, language: String) -> String {
        document(files(folder, language: language))
    }

    public static func document(_ files: [XLIFFFile]) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            version="1.2" xsi:schemaLocation="urn:oasis:names:tc:xliff:document:1.2 \
            http://docs.oasis-open.org/xliff/v1.2/os/xliff-core-1.2-strict.xsd">

            """
        for f in files {
            out +=
                "  <file original=\"\(escAttribute(f.original))\" source-language=\"\(escAttribute(f.sourceLanguage))\" "
                + "target-language=\"\(escAttribute(f.targetLanguage))\" datatype=\"plaintext\">\n"
            out +=
                "    <header>\n      <tool tool-id=\"contacts\" tool-name=\"contacts strings\" tool-version=\"1.0\"/>\n    </header>\n"
            out += "    <body>\n"
            for u in f.units {
                // Characters XML 1.0 cannot carry at all (most C0 controls, U+FFFE, U+FFFF) are written as
                // `\u{1}` (and `\` as `\\`) in every text of the unit, which is marked so that reading
                // restores them; other units are written exactly as Xcode writes them.
                let marked = ![u.id, u.source, u.target ?? "", u.note ?? ""].allSatisfy(representable)
                func text(_ s: String) -> String { marked ? escapeUnrepresentable(s) : s }
                out += "      <trans-unit id=\"\(escAttribute(text(u.id)))\""
                if marked { out += " \(escapeMarker)=\"yes\" xmlns:\(escapePrefix)=\"\(escapeNamespace)\"" }
                out += " xml:space=\"preserve\">\n"
                out += "        <source>\(esc(text(u.source)))</source>\n"
                if let t = u.target {
                    out +=
                        "        <target" + (u.state.map { " state=\"\(escAttribute($0))\"" } ?? "")
                        + ">\(esc(text(t)))</target>\n"
                }
                if let n = u.note { out += "        <note>\(esc(text(n)))</note>\n" }
                out += "      </trans-unit>\n"
            }
            out += "    </body>\n  </file>\n"
        }
        return out + "</xliff>\n"
    }
}
