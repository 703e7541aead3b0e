import Foundation

/// `.strings` tables in `<lang>.lproj` folders as a ``LocalizationFormat``: one document per language and
/// table, a unit per key.
///
/// ```swift
/// let folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
/// StringsFormat().xliffFiles(folder, language: "de").map(\.original)   // ["en.lproj/Localizable.strings"]
/// ```
public struct StringsFormat: LocalizationFormat {
    public init() {}

    public var fileExtension: String { "strings" }

    public func documents(in folder: LocalizationFolder) throws -> [(data: Data, url: URL)] {
        var out: [(data: Data, url: URL)] = []
        for (language, tables) in folder.strings {
            for (table, doc) in tables {
                out.append((try doc.data(), folder.url(language: language, table: table, extension: fileExtension)))
            }
        }
        return out
    }

    public func xliffFiles(_ folder: LocalizationFolder, language: String) -> [XLIFFFile] {
        XLIFF.stringsFiles(folder, language: language)
    }

    public func table(forOriginal original: String, in folder: LocalizationFolder) -> String? {
        XLIFF.table(forOriginal: original, ext: fileExtension, among: folder.sourceStringsTables)
    }

    public func importUnit(
        _ unit: XLIFFUnit, target: String, table: String, language: String, into folder: inout LocalizationFolder
    ) -> Bool? {
        XLIFF.importStrings(unit, target: target, table: table, language: language, into: &folder)
    }

    public func status(_ folder: LocalizationFolder) -> [LanguageStatus] { folder.stringsStatus() }

    public func sync(_ folder: inout LocalizationFolder, prune: Bool, report: inout SyncReport) {
        folder.syncStrings(prune: prune, report: &report)
    }

    public func pseudolocalize(
        _ folder: inout LocalizationFolder, with pseudo: Pseudolocalizer, into language: String
    ) -> Int {
        folder.pseudoStrings(pseudo, into: language)
    }
}
