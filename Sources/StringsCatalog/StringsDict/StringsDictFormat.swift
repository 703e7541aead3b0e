import Foundation

/// `.stringsdict` plural tables in `<lang>.lproj` folders as a ``LocalizationFormat``: a unit per format
/// key and per plural form of each variable.
///
/// ```swift
/// let folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
/// StringsDictFormat().xliffFiles(folder, language: "ru").first?.units.first?.id
/// // "/%d contacts:dict/NSStringLocalizedFormatKey:dict/:string"
/// ```
public struct StringsDictFormat: LocalizationFormat {
    public init() {}

    public var fileExtension: String { "stringsdict" }

    /// Only edited documents are written: an untouched property list stays byte for byte as it was.
    public func documents(in folder: LocalizationFolder) throws -> [(data: Data, url: URL)] {
        var out: [(data: Data, url: URL)] = []
        for (language, tables) in folder.stringsDicts {
            for (table, doc) in tables where doc.isEdited {
                out.append((doc.data(), folder.url(language: language, table: table, extension: fileExtension)))
            }
        }
        return out
    }

    public func xliffFiles(_ folder: LocalizationFolder, language: String) -> [XLIFFFile] {
        XLIFF.stringsDictFiles(folder, language: language)
    }

    public func table(forOriginal original: String, in folder: LocalizationFolder) -> String? {
        XLIFF.table(forOriginal: original, ext: fileExtension, among: folder.sourceDictTables)
    }

    public func importUnit(
        _ unit: XLIFFUnit, target: String, table: String, language: String, into folder: inout LocalizationFolder
    ) -> Bool? {
        XLIFF.importDict(unit, target: target, table: table, language: language, into: &folder)
    }

    /// A key with one plural variable is one entry (`msgctxt` the key); with more, one per variable
    /// (`key|==|variable`); the format key is an entry of its own (`key|==|NSStringLocalizedFormatKey`).
    public func gettextEntries(of file: XLIFFFile) -> [(context: String, category: String?)] {
        let variables = POExport.dictVariableCounts(file)
        let sep = XLIFF.separator
        return file.units.map { u in
            guard let (key, variable, category) = POExport.dictParts(u.id) else { return (u.id, nil) }
            guard let variable else { return (key + sep + "NSStringLocalizedFormatKey", nil) }
            return ((variables[key] ?? 1) == 1 ? key : key + sep + variable, category)
        }
    }

    public func status(_ folder: LocalizationFolder) -> [LanguageStatus] { folder.stringsDictStatus() }

    public func sync(_ folder: inout LocalizationFolder, prune: Bool, report: inout SyncReport) {
        folder.syncStringsDicts(prune: prune, report: &report)
    }

    public func pseudolocalize(
        _ folder: inout LocalizationFolder, with pseudo: Pseudolocalizer, into language: String
    ) -> Int {
        folder.pseudoStringsDicts(pseudo, into: language)
    }
}
