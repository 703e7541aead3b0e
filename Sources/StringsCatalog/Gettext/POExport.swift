import Foundation

/// gettext `.po` export of a localizations folder: `<Table>/<lang>.po` for every language and
/// `<Table>/<Table>.pot`, built from the same units as the XLIFF export (``XLIFF/files(_:language:)``).
/// `msgctxt` is the key, `msgid` the development-language text, `msgstr` the translation; plural entries
/// have one `msgstr[n]` per category of the language's ``PluralForms``.
///
/// ```swift
/// let folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
/// for (path, po) in POExport.files(folder) { print(path, po.entries.count) }   // "Localizable/de.po 42"
/// ```
public enum POExport {
    /// The `.po` entry a group of XLIFF units becomes: one unit, or one per plural category.
    struct Group {
        var original: String
        var context: String
        /// category → unit; a single `nil` category for a plain entry.
        var units: [(category: String?, unit: XLIFFUnit)]
        var stale: Bool
        var isPlural: Bool { units.first?.category != nil }
    }

    /// The table name of an XLIFF `original` (`App/en.lproj/Localizable.strings` → `App/Localizable`).
    static func table(ofOriginal original: String) -> String {
        var parts = original.split(separator: "/").map(String.init)
        let last = parts.popLast() ?? original
        parts.removeAll { $0.hasSuffix(".lproj") }
        let name = last.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        return (parts + [name.isEmpty ? last : name]).joined(separator: "/")
    }

    /// table → groups, in the order of the XLIFF units.
    static func groups(_ folder: LocalizationFolder, language: String) -> [(table: String, groups: [Group])] {
        var out: [(table: String, groups: [Group])] = []
        for file in XLIFF.files(folder, language: language) {
            let table = table(ofOriginal: file.original)
            var groups: [Group] = []
            var index: [String: Int] = [:]
            let format = folder.format(ofOriginal: file.original)
            let entries = format?.gettextEntries(of: file) ?? file.units.map { ($0.id, nil) }
            for (u, (context, category)) in zip(file.units, entries) {
                if let i = index[context] {
                    groups[i].units.append((category, u))
                    continue
                }
                let stale = format?.isStale(unitID: u.id, table: table, in: folder) ?? false
                index[context] = groups.count
                groups.append(Group(original: file.original, context: context, units: [(category, u)], stale: stale))
            }
            if let i = out.firstIndex(where: { $0.table == table }) {
                out[i].groups += groups
            } else {
                out.append((table, groups))
            }
        }
        return out
    }

    /// For a `.stringsdict` file: key → how many plural variables it has.
    static func dictVariableCounts(_ file: XLIFFFile) -> [String: Int] {
        guard file.original.hasSuffix(".stringsdict") else { return [:] }
        var vars: [String: Set<String>] = [:]
        for u in file.units {
            if let (key, variable, _) = dictParts(u.id), let variable { vars[key, default: []].insert(variable) }
        }
        return vars.mapValues(\.count)
    }

    /// `/key:dict/var:dict/one:dict/:string` → (key, var, one); the format key unit → (key, nil, nil).
    static func dictParts(_ id: String) -> (String, String?, String?)? {
        guard id.hasPrefix("/"), id.hasSuffix(":dict/:string") else { return nil }
        let parts = id.dropFirst().dropLast(":dict/:string".count).components(separatedBy: ":dict/")
        if parts.count == 2, parts[1] == "NSStringLocalizedFormatKey" { return (parts[0], nil, nil) }
        guard parts.count >= 3, pluralCategoryNames.contains(parts[parts.count - 1]) else { return nil }
        return (parts.dropLast(2).joined(separator: ":dict/"), parts[parts.count - 2], parts[parts.count - 1])
    }

    /// The gettext language code of a BCP 47 tag (`pt-BR` → `pt_BR`).
    static func gettextLanguage(_ tag: String) -> String { tag.replacingOccurrences(of: "-", with: "_") }

    /// Writes ``files(_:languages:)`` into `directory` (`<Table>/<lang>.po`, `<Table>/<Table>.pot`, folders
    /// created as needed) and returns what it wrote, in order. Throws
    /// ``StringsCatalogError/io(path:message:)`` naming the file that could not be written.
    ///
    /// ```swift
    /// let folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
    /// for file in try POExport.write(folder, into: URL(fileURLWithPath: "po")) { print(file.url.path) }
    /// ```
    @discardableResult
    public static func write(
        _ folder: LocalizationFolder, languages: [String]? = nil, into directory: URL
    ) throws -> [ExportedFile] {
        var written: [ExportedFile] = []
        for (path, po) in files(folder, languages: languages) {
            let url = directory.appendingPathComponent(path)
            try TranslatorFiles.put(Data(po.text().utf8), url)
            let entries = po.entries.filter { !($0.msgid.isEmpty && $0.context == nil) }
            written.append(
                ExportedFile(
                    url: url, entries: po.entries.count - 1,
                    untranslated: entries.filter { $0.msgstr.allSatisfy(\.isEmpty) }.count))
        }
        return written
    }

    /// Every `.po` and `.pot` file of the folder: (relative path, document). `languages` defaults to every
    /// language other than the development language.
    public static func files(_ folder: LocalizationFolder, languages: [String]? = nil) -> [(
        path: String, document: POFile
    )] {
        let dev = folder.developmentLanguage
        let langs =
            languages?.map(folder.language(matching:)) ?? folder.allLanguages.filter { $0 != dev && $0 != "Base" }
        let devGroups = groups(folder, language: dev)
        let sources = sourceTexts(devGroups)
        var out: [(path: String, document: POFile)] = []
        for (table, gs) in devGroups {
            out.append(
                (
                    "\(table)/\(LocalizationFolder.split(table).name).pot",
                    document(table, gs, nil, sources[table] ?? [:], dev)
                ))
        }
        for language in langs {
            for (table, gs) in groups(folder, language: language) {
                out.append(
                    (
                        "\(table)/\(gettextLanguage(language)).po",
                        document(table, gs, language, sources[table] ?? [:], dev)
                    ))
            }
        }
        return out
    }

    /// Source texts (msgid, msgid_plural) per table and context, from the development language's own units.
    static func sourceTexts(_ devGroups: [(table: String, groups: [Group])]) -> [String: [String: (String, String?)]] {
        var sources: [String: [String: (String, String?)]] = [:]
        for (table, gs) in devGroups {
            for g in gs { sources[table, default: [:]][g.context] = msgids(g) }
        }
        return sources
    }

    /// msgid and msgid_plural of a group: the source's `one` (else first) and `other` (else last) forms.
    static func msgids(_ g: Group) -> (String, String?) {
        guard g.isPlural else { return (g.units[0].unit.source, nil) }
        let one = g.units.first { $0.category == "one" } ?? g.units.first!
        let other = g.units.first { $0.category == "other" } ?? g.units.last!
        return (one.unit.source, other.unit.source)
    }

    static func document(
        _ table: String, _ groups: [Group], _ language: String?, _ sources: [String: (String, String?)], _ dev: String
    ) -> POFile {
        var po = POFile()
        let forms = PluralForms(language: language ?? dev)
        let headerLines = [
            "Project-Id-Version: \(table)", "PO-Revision-Date: ", "Last-Translator: ", "Language-Team: ",
            "Language: \(language.map(gettextLanguage) ?? "")", "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=UTF-8", "Content-Transfer-Encoding: 8bit",
            "Plural-Forms: \(forms.header)", "X-Source-Language: \(gettextLanguage(dev))",
        ]
        po.entries.append(POFile.Entry(context: nil, msgid: "", msgstr: [headerLines.map { $0 + "\n" }.joined()]))
        for g in groups {
            let (msgid, plural) = sources[g.context] ?? msgids(g)
            var e = POFile.Entry(context: g.context, msgid: msgid, msgstr: [])
            if g.isPlural {
                e.msgidPlural = plural ?? msgid
                e.msgstr = forms.categories.map { c in
                    language == nil ? "" : g.units.first { $0.category == c }?.unit.target ?? ""
                }
            } else {
                e.msgstr = [language == nil ? "" : g.units[0].unit.target ?? ""]
            }
            if let note = g.units[0].unit.note, !note.isEmpty {
                e.extractedComments = note.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            }
            if language != nil, g.units.contains(where: { $0.unit.state == "needs-review-translation" }) {
                e.flags.append("fuzzy")
            }
            if let flag = formatFlag([msgid, plural ?? ""]) { e.flags.append(flag) }
            e.obsolete = g.stale
            po.entries.append(e)
        }
        return po
    }

    /// `objc-format` when a text has a `%@` (or `%1$@`) specifier, `c-format` for other printf specifiers.
    static func formatFlag(_ texts: [String]) -> String? {
        let specs = texts.flatMap { text in
            ((try? PrintfFormat.tokenize(text)) ?? []).compactMap { token -> FormatSpecifier? in
                if case .specifier(let s) = token { return s }
                return nil
            }
        }
        if specs.isEmpty { return nil }
        return specs.contains { $0.conversion == "@" } ? "objc-format" : "c-format"
    }
}
