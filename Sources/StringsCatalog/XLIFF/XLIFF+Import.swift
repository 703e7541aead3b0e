import Foundation
import Support

extension XLIFF {
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
            let language = folder.language(matching: f.targetLanguage)
            // The format whose table the file is, else a storyboard's or XIB's strings table.
            var owner: (format: any LocalizationFormat, table: String)?
            for format in folder.formats {
                if let table = format.table(forOriginal: f.original, in: folder) {
                    owner = (format, table)
                    break
                }
            }
            let interface = owner == nil ? interfaceTable(forOriginal: f.original, in: folder) : nil
            for u in f.units {
                // An empty target is a translation only when its state says so (a plural form left empty on
                // purpose); otherwise it is a unit nobody translated.
                guard let target = u.target, !target.isEmpty || isDeliberatelyEmpty(u) else { continue }
                let changed: Bool?
                if let (format, table) = owner {
                    changed = format.importUnit(u, target: target, table: table, language: language, into: &folder)
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

    /// True for a unit whose empty target was exported or confirmed as a translation (`translated`, `final`,
    /// `signed-off`), as Xcode writes a form its translator left empty.
    static func isDeliberatelyEmpty(_ u: XLIFFUnit) -> Bool {
        u.target?.isEmpty == true && ["translated", "final", "signed-off"].contains(u.state ?? "")
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
        let isNew = folder.strings[language]?[table] == nil
        var doc = folder.strings[language]?[table] ?? source
        if isNew {
            doc.file = folder.displayPath(folder.url(language: language, table: table, extension: "strings"))
        }
        let existing = doc.entry(forKey: u.id)
        if let existing, existing.value == target,
            existing.comment?.hasPrefix(LocalizationFolder.needsTranslationMarker) != true
        {
            // A new table is written even when each translation equals the source (en-GB, brand names), as
            // Xcode writes it.
            if isNew { folder.strings[language, default: [:]][table] = doc }
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
        // A new table starts as a copy of the development language's file, as for .strings (and is written
        // even when nothing in it differs from the source).
        let isNew = folder.stringsDicts[language]?[table] == nil
        var doc = folder.stringsDicts[language]?[table] ?? folder.sourceDict(table)
        if isNew {
            doc?.file = folder.displayPath(folder.url(language: language, table: table, extension: "stringsdict"))
            doc?.edited = true
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
            // A translation names its variable as it likes (`v1` for the source's `v0`): a copied entry's
            // variable that its format no longer uses takes the name.
            if doc.entries[key]?.variables[parts[1]] == nil { doc.renameUnusedVariable(key: key, to: parts[1]) }
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
}
