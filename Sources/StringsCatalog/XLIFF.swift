import Foundation
import Support

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One translation unit of an XLIFF 1.2 file.
public struct XLIFFUnit: Sendable, Hashable {
    /// Xcode's id: the key for `.strings`; `/key:dict/var:dict/one:dict/:string` for `.stringsdict`;
    /// `key|==|plural.one`, `key|==|device.mac`, `key|==|substitutions.name.plural.one` for catalogs.
    public var id: String
    public var source: String
    public var target: String?
    /// XLIFF `state` of the target (`translated`, `new`, `needs-review-translation`).
    public var state: String?
    public var note: String?
}

/// One `<file>` of an XLIFF document: the strings of one table for one language pair.
public struct XLIFFFile: Sendable, Hashable {
    /// The source file path as Xcode writes it (`en.lproj/Localizable.strings`, `Localizable.xcstrings`).
    public var original: String
    public var sourceLanguage: String
    public var targetLanguage: String
    public var units: [XLIFFUnit]
}

/// XLIFF 1.2 as Xcode exports it for translators, and back: export a folder for one language, import a
/// translated file into the `.strings`, `.stringsdict` and `.xcstrings` it came from (in place, lossless).
///
/// ```swift
/// var folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
/// let xml = XLIFF.export(folder, language: "de")              // de.xliff text
/// let files = try XLIFF.parse(Data(xml.utf8), file: "de.xliff")
/// let report = XLIFF.importFiles(files, into: &folder)        // then folder.save()
/// ```
public enum XLIFF {
    static let separator = "|==|"

    /// The XLIFF `<file>`s for `language`: every source table with the current translations as targets.
    public static func files(_ folder: LocalizationFolder, language: String) -> [XLIFFFile] {
        let dev = folder.developmentLanguage
        var files: [XLIFFFile] = []
        let stringsTables = Set((folder.strings[dev] ?? [:]).keys).union((folder.strings["Base"] ?? [:]).keys)
        for table in stringsTables.sorted() {
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
        let dictTables = Set((folder.stringsDicts[dev] ?? [:]).keys).union((folder.stringsDicts["Base"] ?? [:]).keys)
        for table in dictTables.sorted() {
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
                for name in s.variables.keys.sorted() {
                    let sv = s.variables[name]!
                    // Offer every category the target language needs, with the source's "other" as source text.
                    let needed = PluralRulesCache.categories(for: language).map(\.rawValue)
                    let categories = pluralCategoryNames.filter {
                        needed.contains($0) || sv.forms[$0] != nil && $0 == "zero"
                            || t?.variables[name]?.forms[$0] != nil
                    }
                    for category in categories {
                        let target = marked ? nil : t?.variables[name]?.forms[category]
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
        for (table, cat) in folder.catalogs.sorted(by: { $0.key < $1.key }) {
            files.append(
                XLIFFFile(
                    original: "\(table).xcstrings", sourceLanguage: cat.sourceLanguage, targetLanguage: language,
                    units: catalogUnits(cat, language: language)))
        }
        return files
    }

    /// `App/en.lproj/Localizable.strings` for the table `App/Localizable`: the development language's file
    /// (its `.lproj` named as on disk), relative to the folder.
    static func original(_ folder: LocalizationFolder, _ table: String, _ language: String, _ ext: String) -> String {
        let url = folder.url(language: language, table: table, extension: ext)
        let (sub, name) = LocalizationFolder.split(table)
        return (sub.isEmpty ? "" : sub + "/") + url.deletingLastPathComponent().lastPathComponent + "/\(name).\(ext)"
    }

    /// The folder's table named by an XLIFF `original`: the path without its `.lproj` component and
    /// extension, matched exactly, else the one table whose path ends the same way (an `original`
    /// relative to a project root above the folder, or a folder below it).
    static func table(forOriginal original: String, ext: String, among tables: some Collection<String>) -> String? {
        var parts = original.split(separator: "/").map(String.init)
        guard let last = parts.popLast(), last.hasSuffix("." + ext) else { return nil }
        parts.removeAll { $0.hasSuffix(".lproj") || $0 == "." }
        let wanted = (parts + [String(last.dropLast(ext.count + 1))]).joined(separator: "/")
        if tables.contains(wanted) { return wanted }
        let matches = tables.filter { wanted.hasSuffix("/" + $0) || $0.hasSuffix("/" + wanted) }
        return matches.count == 1 ? matches.first : nil
    }

    /// XLIFF 1.2 target state → String Catalog state (a target without state counts as translated).
    static func catalogState(_ s: String?) -> String {
        switch s {
        case let s? where s.hasPrefix("needs-review"): return "needs_review"
        case "new"?, "needs-translation"?, "needs-adaptation"?, "needs-l10n"?: return "new"
        default: return "translated"
        }
    }

    static func xliffState(_ s: String?) -> String? {
        switch s {
        case nil: return nil
        case "translated": return "translated"
        case "needs_review": return "needs-review-translation"
        default: return "new"
        }
    }

    /// Every text of a localization (string unit, plural and device forms), for finding `%#@name@` uses.
    static func texts(_ loc: XCStringsDocument.Localization) -> [String] {
        var out = loc.value.map { [$0] } ?? []
        for p in loc.plural.values { out += texts(p) }
        for d in loc.device.values { out += texts(d) }
        return out
    }

    /// True when `text` uses the substitution `name` (`%#@name@` or a positional `%2$#@name@`).
    static func references(_ text: String, substitution name: String) -> Bool {
        text.contains("#@\(name)@")
    }

    /// True when a localization has any content of its own.
    static func hasContent(_ loc: XCStringsDocument.Localization?) -> Bool {
        guard let loc else { return false }
        return loc.value != nil || !loc.plural.isEmpty || !loc.device.isEmpty || !loc.substitutions.isEmpty
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
        for entry in cat.entries where entry.shouldTranslate && !entry.key.isEmpty {
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
                // A substitution the source lacks: the source's for the same argument.
                let argNum = tgt?.substitutions[name]?.argNum
                let s =
                    src?.substitutions[name]
                    ?? src?.substitutions.sorted(by: { $0.key < $1.key }).first(where: {
                        $0.value.argNum == argNum || src?.substitutions.count == 1
                    })?.value
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

    static let escapePrefix = "contacts"
    static let escapeMarker = "contacts:escaped"
    static let escapeNamespace = "urn:contacts-selection:xliff-escapes"

    /// True for a scalar XML 1.0 can carry (as itself or as a character reference).
    static func representable(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    static func representable(_ s: String) -> Bool { s.unicodeScalars.allSatisfy(representable) }

    /// `\` → `\\`, a scalar XML cannot carry → `\u{hex}`.
    static func escapeUnrepresentable(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            if u == "\\" {
                out += "\\\\"
            } else if representable(u) {
                out.unicodeScalars.append(u)
            } else {
                out += "\\u{\(String(u.value, radix: 16, uppercase: true))}"
            }
        }
        return out
    }

    /// The inverse of ``escapeUnrepresentable(_:)``; a backslash not starting an escape stays.
    static func unescapeUnrepresentable(_ s: String) -> String {
        let scalars = Array(s.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\\", i + 1 < scalars.count {
                if scalars[i + 1] == "\\" {
                    out.append("\\")
                    i += 2
                    continue
                }
                if scalars[i + 1] == "u", i + 2 < scalars.count, scalars[i + 2] == "{",
                    let close = scalars[(i + 3)...].prefix(9).firstIndex(of: "}"),
                    let v = UInt32(String(String.UnicodeScalarView(scalars[(i + 3)..<close])), radix: 16),
                    let scalar = Unicode.Scalar(v)
                {
                    out.append(scalar)
                    i = close + 1
                    continue
                }
            }
            out.append(scalars[i])
            i += 1
        }
        return String(out)
    }

    /// Element text: markup characters and CR (which XML would turn into LF) as references.
    static func esc(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// Attribute values: also tab, LF and CR as references (written raw, XML reads them as spaces).
    static func escAttribute(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            default: out += esc(String(u))
            }
        }
        return out
    }

    /// Reads an XLIFF 1.2 document (UTF-8, UTF-16 or UTF-32, or a declared ISO-8859-1/Windows-1252/ASCII).
    /// Malformed XML, and bytes that are not valid in the document's encoding, throw with line and column.
    /// A `<file>` without `target-language` gets `language`, else the language of the file name
    /// (`de.xliff` → `de`), as Xcode's import does.
    ///
    /// ```swift
    /// let xml = #"<xliff version="1.2"><file original="en.lproj/Localizable.strings"></file></xliff>"#
    /// let files = try XLIFF.parse(Data(xml.utf8), file: "de.xliff")
    /// files[0].targetLanguage  // "de"
    /// ```
    public static func parse(_ data: Data, file: String, language: String? = nil) throws -> [XLIFFFile] {
        // Fed as a stream: libxml2 refuses a document of more than 10 MB given in one piece, as
        // `XMLParser(data:)` gives it ("huge input lookup"), and reads one of any size in chunks.
        let parser = XMLParser(stream: InputStream(data: try XMLInput.utf8(data, file: file, what: "XLIFF")))
        let delegate = XLIFFReader()
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let isTag = stem.range(of: #"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$"#, options: .regularExpression) != nil
        delegate.defaultLanguage = language ?? (isTag ? stem : nil)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        if !parser.parse() || delegate.failure != nil {
            let message =
                delegate.failure ?? parser.parserError.map { "malformed XML: \(XMLInput.describe($0))" }
                ?? "unreadable XML"
            // Where the first problem was seen (the parser may read on past it).
            let (line, column) = delegate.failurePosition ?? (parser.lineNumber, parser.columnNumber)
            throw StringsCatalogError.malformed(
                file: file, line: max(line, 1), column: max(column, 1), message: "XLIFF: \(message)")
        }
        return delegate.files
    }

    /// What an import did.
    public struct ImportReport: Sendable, Hashable, Codable {
        public var updated: Int = 0
        public var unchanged: Int = 0
        /// Units that could not be applied (unknown file, key or id form); the others were applied.
        public var problems: [String] = []
    }

    /// Applies the targets of `files` to the folder's documents (call ``LocalizationFolder/save()``).
    public static func importFiles(_ files: [XLIFFFile], into folder: inout LocalizationFolder) -> ImportReport {
        var report = ImportReport()
        for f in files {
            let language = LanguageMatcher.bcp47(fromLocalizationName: f.targetLanguage)
            let dev = folder.developmentLanguage
            let stringsTable = table(
                forOriginal: f.original, ext: "strings",
                among: Set((folder.strings[dev] ?? [:]).keys).union((folder.strings["Base"] ?? [:]).keys))
            let dictTable = table(
                forOriginal: f.original, ext: "stringsdict",
                among: Set((folder.stringsDicts[dev] ?? [:]).keys).union((folder.stringsDicts["Base"] ?? [:]).keys))
            let catalogTable = table(forOriginal: f.original, ext: "xcstrings", among: folder.catalogs.keys)
            let interface =
                stringsTable == nil && dictTable == nil && catalogTable == nil
                ? interfaceTable(forOriginal: f.original, in: folder) : nil
            for u in f.units {
                guard let target = u.target, !target.isEmpty else { continue }
                let changed: Bool?
                if let stringsTable {
                    changed = importStrings(u, target: target, table: stringsTable, language: language, into: &folder)
                } else if let dictTable {
                    changed = importDict(u, target: target, table: dictTable, language: language, into: &folder)
                } else if let catalogTable {
                    changed = importCatalog(u, target: target, table: catalogTable, language: language, into: &folder)
                } else if let interface {
                    changed = importInterface(u, target: target, table: interface, language: language, into: &folder)
                } else {
                    changed = nil
                }
                switch changed {
                case true?: report.updated += 1
                case false?: report.unchanged += 1
                case nil:
                    report.problems.append("\(f.original): trans-unit \"\(u.id)\" does not match the project; skipped")
                }
            }
        }
        return report
    }

    /// The extensions of files whose strings Xcode exports by object ID and localizes as `<name>.strings`.
    static let interfaceExtensions = ["storyboard", "xib", "intentdefinition"]

    /// The table of a storyboard, XIB or intent definition named by an XLIFF `original`
    /// (`App/Base.lproj/Main.storyboard` → `App/Main`): its translations go to `<lang>.lproj/Main.strings`
    /// beside its `.lproj` folder, as Xcode writes them. The file must be in the folder (at the `original`'s
    /// path or a tail of it, as for ``table(forOriginal:ext:among:)``); nil otherwise.
    static func interfaceTable(forOriginal original: String, in folder: LocalizationFolder) -> String? {
        let parts = original.split(separator: "/").map(String.init)
        guard parts.count >= 2, let last = parts.last, let dot = last.lastIndex(of: "."),
            interfaceExtensions.contains(String(last[last.index(after: dot)...])),
            parts[parts.count - 2].hasSuffix(".lproj")
        else {
            return nil
        }
        let name = String(last[..<dot])
        let above = Array(parts.dropLast(2))
        for start in 0...above.count {
            let sub = above[start...].joined(separator: "/")
            let file = (sub.isEmpty ? folder.directory : folder.directory.appendingPathComponent(sub))
                .appendingPathComponent(parts[parts.count - 2]).appendingPathComponent(last)
            if FileManager.default.fileExists(atPath: file.path) { return sub.isEmpty ? name : sub + "/" + name }
        }
        return nil
    }

    /// A storyboard, XIB or intent definition unit (`abc-12-def.text`) into `<lang>.lproj/<name>.strings`,
    /// its note (Xcode's `Class = "UILabel"; text = "…"; ObjectID = "…";`) as the comment of a new entry.
    static func importInterface(
        _ u: XLIFFUnit, target: String, table: String, language: String, into folder: inout LocalizationFolder
    ) -> Bool {
        var doc =
            folder.strings[language]?[table]
            ?? StringsDocument(
                file: folder.displayPath(folder.url(language: language, table: table, extension: "strings")))
        let existing = doc.entry(forKey: u.id)
        if existing?.value == target { return false }
        let note = u.note?.trimmingCharacters(in: .whitespacesAndNewlines)
        doc.setValue(target, forKey: u.id, comment: existing == nil && note?.isEmpty == false ? note : nil)
        folder.strings[language, default: [:]][table] = doc
        return true
    }

    static func importStrings(
        _ u: XLIFFUnit, target: String, table: String, language: String,
        into folder: inout LocalizationFolder
    ) -> Bool? {
        guard let source = folder.sourceStrings(table), source[u.id] != nil else { return nil }
        // A table the language does not have yet starts as the development language's file (its comments,
        // order and layout, as Xcode's import creates it); the keys not imported keep the source text.
        var doc = folder.strings[language]?[table] ?? source
        if folder.strings[language]?[table] == nil {
            doc.file = folder.displayPath(folder.url(language: language, table: table, extension: "strings"))
        }
        let existing = doc.entry(forKey: u.id)
        if let existing, existing.value == target,
            existing.comment?.hasPrefix(LocalizationFolder.needsTranslationMarker) != true
        {
            return false
        }
        doc.setValue(target, forKey: u.id, comment: existing == nil ? (u.note ?? source.comment(forKey: u.id)) : nil)
        folder.strings[language, default: [:]][table] = doc
        return true
    }

    static func importDict(
        _ u: XLIFFUnit, target: String, table: String, language: String,
        into folder: inout LocalizationFolder
    ) -> Bool? {
        // /key:dict/var:dict/category:dict/:string  or  /key:dict/NSStringLocalizedFormatKey:dict/:string
        // (read from the right: a key may itself contain ":dict/").
        guard u.id.hasPrefix("/"), u.id.hasSuffix(":dict/:string") else { return nil }
        let body = String(u.id.dropFirst().dropLast(":dict/:string".count))
        var parts = body.components(separatedBy: ":dict/")
        guard parts.count >= 2 else { return nil }
        let sources = folder.sourceDictEntries(table)
        if parts.last != "NSStringLocalizedFormatKey" || sources[parts.dropLast().joined(separator: ":dict/")] == nil,
            parts.count >= 3
        {
            parts = [parts.dropLast(2).joined(separator: ":dict/"), parts[parts.count - 2], parts[parts.count - 1]]
        } else {
            parts = [parts.dropLast().joined(separator: ":dict/"), parts[parts.count - 1]]
        }
        let key = parts[0]
        guard let sourceEntry = folder.sourceDictEntries(table)[key] else { return nil }
        // A new table starts as a copy of the development language's file, as for .strings.
        var doc = folder.stringsDicts[language]?[table] ?? folder.sourceDict(table)
        if folder.stringsDicts[language]?[table] == nil {
            doc?.file = folder.displayPath(folder.url(language: language, table: table, extension: "stringsdict"))
        }
        guard var doc else { return nil }
        if doc.entries[key] == nil { doc.addEntry(sourceEntry, comment: sourceEntry.comment) }
        let before = doc.data()
        let ok: Bool
        if parts.count == 2 {
            guard parts[1] == "NSStringLocalizedFormatKey" else { return nil }
            ok = doc.setFormatKey(target, key: key)
        } else {
            guard pluralCategoryNames.contains(parts[2]) else { return nil }
            ok = doc.setForm(target, key: key, variable: parts[1], category: parts[2])
        }
        guard ok else { return nil }
        folder.stringsDicts[language, default: [:]][table] = doc
        return doc.data() != before
    }

    /// Splits a catalog unit id (`key`, `key|==|plural.one`, …) into the key and the variation path. A key
    /// may itself contain the separator: the whole id is a key when the catalog has it, else the split is
    /// taken at the last separator whose left side is a key.
    static func catalogID(_ id: String, in cat: XCStringsDocument) -> (String, [String])? {
        if cat.entry(id) != nil { return (id, []) }
        var search = id.endIndex
        while let r = id.range(of: separator, options: .backwards, range: id.startIndex..<search) {
            let key = String(id[..<r.lowerBound])
            if cat.entry(key) != nil {
                return (
                    key, id[r.upperBound...].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                )
            }
            search = r.lowerBound
        }
        return nil
    }

    static func importCatalog(
        _ u: XLIFFUnit, target: String, table: String, language: String,
        into folder: inout LocalizationFolder
    ) -> Bool? {
        // Edited where it is stored, so that a unit costs what its entry costs, not a copy of the catalog.
        folder.catalogs[table]?.importUnit(u, target: target, language: language)
    }
}

extension XCStringsDocument {
    /// Applies one catalog unit of an XLIFF import: true when it changed the catalog, false when the
    /// catalog already said so, nil when the unit's id or shape does not fit the catalog.
    mutating func importUnit(_ u: XLIFFUnit, target: String, language: String) -> Bool? {
        guard let (key, path) = XLIFF.catalogID(u.id, in: self) else { return nil }
        // A unit must fit the shape the translation already has (a plural variation, device variations,
        // or a string unit with substitutions); otherwise it would add an entry nothing uses.
        if let loc = entry(key)?.localizations[language], XLIFF.hasContent(loc), let head = path.first {
            switch head {
            case "plural" where loc.value != nil || !loc.device.isEmpty: return nil
            case "device" where loc.value != nil || !loc.plural.isEmpty: return nil
            default: break
            }
        } else if let loc = entry(key)?.localizations[language], path.isEmpty,
            !loc.plural.isEmpty || !loc.device.isEmpty
        {
            return nil
        }
        return applyUnit(target, forKey: key, language: language, path: path, state: XLIFF.catalogState(u.state))
    }
}

/// SAX reader for XLIFF 1.2 (`file`, `trans-unit`, `source`, `target`, `note`).
private final class XLIFFReader: NSObject, XMLParserDelegate {
    var files: [XLIFFFile] = []
    var failure: String?
    /// The target language of a `<file>` that names none.
    var defaultLanguage: String?
    private var unit: XLIFFUnit?
    private var text: String?
    private var sawRoot = false
    private var open: [String] = []
    private var escaped = false

    /// Line and column of the first problem.
    var failurePosition: (Int, Int)?

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if failure == nil {
            failure = "malformed XML: \(XMLInput.describe(parseError))"
            failurePosition = (parser.lineNumber, parser.columnNumber)
        }
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        open.append(name)
        switch name {
        case "xliff":
            sawRoot = true
            if let v = attributes["version"], v != "1.2" { failure = "version \(v) is not supported (expected 1.2)" }
        case "file":
            guard let original = attributes["original"],
                let target = attributes["target-language"] ?? defaultLanguage
            else {
                failure =
                    "<file> needs original and target-language attributes, or --language (line \(parser.lineNumber))"
                parser.abortParsing()
                return
            }
            files.append(
                XLIFFFile(
                    original: original, sourceLanguage: attributes["source-language"] ?? "en",
                    targetLanguage: target, units: []))
        case "trans-unit":
            guard let id = attributes["id"] else {
                failure = "<trans-unit> without id (line \(parser.lineNumber))"
                parser.abortParsing()
                return
            }
            unit = XLIFFUnit(id: id, source: "", target: nil, state: nil, note: nil)
            escaped = attributes[XLIFF.escapeMarker] == "yes"
        case "source", "note":
            text = ""
        case "target":
            text = ""
            unit?.state = attributes["state"]
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text? += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if open.last == name {
            open.removeLast()
        } else if failure == nil {
            failure = "</\(name)> does not close <\(open.last ?? "nothing")> (line \(parser.lineNumber))"
            parser.abortParsing()
        }
        switch name {
        case "source":
            unit?.source = text ?? ""
            text = nil
        case "target":
            unit?.target = text ?? ""
            text = nil
        case "note":
            unit?.note = text
            text = nil
        case "trans-unit":
            if var unit, !files.isEmpty {
                if escaped {
                    unit.id = XLIFF.unescapeUnrepresentable(unit.id)
                    unit.source = XLIFF.unescapeUnrepresentable(unit.source)
                    unit.target = unit.target.map(XLIFF.unescapeUnrepresentable)
                    unit.note = unit.note.map(XLIFF.unescapeUnrepresentable)
                }
                files[files.count - 1].units.append(unit)
            }
            unit = nil
            escaped = false
        default: break
        }
    }

    func parserDidEndDocument(_ parser: XMLParser) {
        if !sawRoot && failure == nil { failure = "not an XLIFF document (no <xliff> root)" }
        if let unclosed = open.last, failure == nil { failure = "<\(unclosed)> is never closed" }
    }
}

extension XCStringsDocument {
    /// Sets a string unit at `path` below `localizations.<language>` (`[]`, `["plural","one"]`,
    /// `["device","mac"]`, `["substitutions","n","plural","one"]`), creating what is missing and copying a
    /// substitution's `argNum`/`formatSpecifier` from the source language. Returns false for a path that
    /// is not one of those forms.
    public mutating func setUnit(
        _ value: String, forKey key: String, language: String, path: [String], state: String = "translated"
    ) -> Bool {
        applyUnit(value, forKey: key, language: language, path: path, state: state) != nil
    }

    /// ``setUnit(_:forKey:language:path:state:)`` telling whether the catalog changed (nil: a path of
    /// another form). A key the catalog has is edited in place (``editEntry(_:_:)``).
    mutating func applyUnit(
        _ value: String, forKey key: String, language: String, path: [String], state: String
    ) -> Bool? {
        // Translate the XLIFF path into JSON member names.
        var json: [String] = []
        var k = 0
        var substitution: String?
        while k < path.count {
            switch path[k] {
            case "plural", "device":
                guard k + 1 < path.count else { return nil }
                json += ["variations", path[k], path[k + 1]]
                k += 2
            case "substitutions":
                guard k + 1 < path.count else { return nil }
                substitution = path[k + 1]
                json += ["substitutions", path[k + 1]]
                k += 2
            default:
                return nil
            }
        }
        func set(_ node: JSONValue, _ rest: ArraySlice<String>) -> JSONValue {
            var node = node.members == nil ? JSONValue.object([]) : node
            guard let head = rest.first else {
                var unit = node["stringUnit"] ?? .object([])
                if unit["value"]?.stringValue == value && unit["state"]?.stringValue == state { return node }
                unit.insertSorted("state", .string(state))
                unit.insertSorted("value", .string(value))
                node.insertSorted("stringUnit", unit)
                return node
            }
            node.insertSorted(head, set(node[head] ?? .object([]), rest.dropFirst()))
            return node
        }
        let sourceLanguage = self.sourceLanguage
        /// The entry with the unit set; nil when that changes nothing.
        func edited(_ entry: JSONValue) -> JSONValue? {
            var entry = entry
            var locs = entry["localizations"] ?? .object([])
            var loc = set(locs[language] ?? .object([]), json[...])
            if let substitution, let src = locs[sourceLanguage]?["substitutions"]?[substitution] {
                var sub = loc["substitutions"]?[substitution] ?? .object([])
                for field in ["argNum", "formatSpecifier"] where sub[field] == nil {
                    if let v = src[field] { sub.insertSorted(field, v) }
                }
                var subs = loc["substitutions"] ?? .object([])
                subs.insertSorted(substitution, sub)
                loc.insertSorted("substitutions", subs)
                if loc["stringUnit"] == nil, let srcUnit = locs[sourceLanguage]?["stringUnit"]?["value"]?.stringValue {
                    var unit = JSONValue.object([])
                    unit.insertSorted("state", .string("new"))
                    unit.insertSorted("value", .string(srcUnit))
                    loc.insertSorted("stringUnit", unit)
                }
            }
            if locs[language] == loc { return nil }
            locs.insertSorted(language, loc)
            entry.insertSorted("localizations", locs)
            return entry
        }
        let inPlace = editEntry(key) { entry in
            guard let new = edited(entry) else { return false }
            entry = new
            return true
        }
        if let inPlace { return inPlace }
        guard let entry = edited(.object([])) else { return false }
        var root = self.root
        var strings = root["strings"] ?? .object([])
        strings.insertSorted(key, entry)
        root.insertSorted("strings", strings)
        replaceRoot(root)
        return true
    }
}
