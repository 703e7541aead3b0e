import Foundation

/// String Catalogs (`.xcstrings`, every language in one file) as a ``LocalizationFormat``: a unit per
/// string unit of a key (`key`, `key|==|plural.one`, `key|==|substitutions.n.plural.one`).
///
/// ```swift
/// let folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
/// XCStringsFormat().xliffFiles(folder, language: "de").map(\.original)   // ["Localizable.xcstrings"]
/// ```
public struct XCStringsFormat: LocalizationFormat {
    public init() {}

    public var fileExtension: String { "xcstrings" }

    /// A catalog keeps `needs_review` per string unit.
    public var recordsReviewState: Bool { true }

    public func documents(in folder: LocalizationFolder) throws -> [(data: Data, url: URL)] {
        folder.catalogs.map { table, cat in
            (cat.data(), folder.directory.appendingPathComponent("\(table).\(fileExtension)"))
        }
    }

    public func xliffFiles(_ folder: LocalizationFolder, language: String) -> [XLIFFFile] {
        folder.catalogs.sorted(by: { $0.key < $1.key }).map { table, cat in
            XLIFFFile(
                original: "\(table).\(fileExtension)", sourceLanguage: cat.sourceLanguage, targetLanguage: language,
                units: XLIFF.catalogUnits(cat, language: language))
        }
    }

    public func table(forOriginal original: String, in folder: LocalizationFolder) -> String? {
        XLIFF.table(forOriginal: original, ext: fileExtension, among: folder.catalogs.keys)
    }

    public func importUnit(
        _ unit: XLIFFUnit, target: String, table: String, language: String, into folder: inout LocalizationFolder
    ) -> Bool? {
        // Edited where it is stored, so that a unit costs what its entry costs, not a copy of the catalog.
        folder.catalogs[table]?.importUnit(unit, target: target, language: language)
    }

    /// The plural forms of a variation are one entry (`msgctxt` the key and the path above `plural`).
    public func gettextEntries(of file: XLIFFFile) -> [(context: String, category: String?)] {
        let sep = XLIFF.separator
        return file.units.map { u in
            let id = u.id
            if let r = id.range(of: sep, options: .backwards) {
                let path = id[r.upperBound...].split(separator: ".", omittingEmptySubsequences: false)
                if path.count >= 2, path[path.count - 2] == "plural", pluralCategoryNames.contains(String(path.last!)) {
                    let rest = path.dropLast(2).joined(separator: ".")
                    return (String(id[..<r.lowerBound]) + (rest.isEmpty ? "" : sep + rest), String(path.last!))
                }
            }
            return (id, nil)
        }
    }

    /// Keys Xcode marked `stale` (no longer in the source code).
    public func isStale(unitID: String, table: String, in folder: LocalizationFolder) -> Bool {
        guard let cat = folder.catalogs[table], let (key, _) = XLIFF.catalogID(unitID, in: cat) else { return false }
        return cat.entry(key)?.extractionState == "stale"
    }

    public func status(_ folder: LocalizationFolder) -> [LanguageStatus] { folder.catalogStatus() }

    public func sync(_ folder: inout LocalizationFolder, prune: Bool, report: inout SyncReport) {
        folder.pruneStaleCatalogKeys(prune: prune, report: &report)
    }

    public func pseudolocalize(
        _ folder: inout LocalizationFolder, with pseudo: Pseudolocalizer, into language: String
    ) -> Int {
        folder.pseudoCatalogs(pseudo, into: language)
    }
}
