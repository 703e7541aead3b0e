import Foundation

/// One kind of localization file the translator tools work on (`.strings`, `.stringsdict`, `.xcstrings`):
/// what a format contributes to saving a ``LocalizationFolder``, to `status` and `sync`, to the XLIFF and
/// `.po` exports and imports, and to a pseudolanguage. The tools iterate a folder's ``LocalizationFolder/formats`` instead of switching
/// on file extensions, so a further format implements these requirements in a file of its own and is added
/// to the folder's formats.
///
/// ```swift
/// let folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
/// for format in folder.formats {
///     print(format.fileExtension, format.xliffFiles(folder, language: "de").count)
/// }
/// ```
public protocol LocalizationFormat: Sendable {
    /// The extension of the format's files, without the dot (`strings`).
    var fileExtension: String { get }

    /// True when a translation can be stored as needing review (a `.po` `#, fuzzy` entry is then imported
    /// as such); false when a fuzzy entry is left out unless the user asks for it.
    var recordsReviewState: Bool { get }

    /// Every document of the format in `folder` that is to be written back: its bytes and where they go
    /// (``LocalizationFolder/save()`` writes those whose bytes differ from the disk).
    func documents(in folder: LocalizationFolder) throws -> [(data: Data, url: URL)]

    /// The XLIFF `<file>`s of the format for `language` (a language of the folder): every source table with
    /// the current translations as targets.
    func xliffFiles(_ folder: LocalizationFolder, language: String) -> [XLIFFFile]

    /// The table of the format that an XLIFF `original` names, nil when it names none of this format's.
    func table(forOriginal original: String, in folder: LocalizationFolder) -> String?

    /// Applies one translated XLIFF unit of `table`: true when it changed the folder, false when the folder
    /// already said so, nil when the unit's id does not fit the table.
    func importUnit(
        _ unit: XLIFFUnit, target: String, table: String, language: String, into folder: inout LocalizationFolder
    ) -> Bool?

    /// The `.po` entry of each unit of an XLIFF file made by ``xliffFiles(_:language:)``: its `msgctxt` and,
    /// for a plural form, its category (units of one entry share the context).
    func gettextEntries(of file: XLIFFFile) -> [(context: String, category: String?)]

    /// True when the key behind a unit of `table` is no longer used by the sources (exported as an obsolete
    /// `.po` entry).
    func isStale(unitID: String, table: String, in folder: LocalizationFolder) -> Bool

    /// The coverage of the format's source keys per language (``LocalizationFolder/status()`` adds up the
    /// formats' rows).
    func status(_ folder: LocalizationFolder) -> [LanguageStatus]

    /// Adds the source keys each language lacks (value copied, comment prefixed with
    /// ``LocalizationFolder/needsTranslationMarker``) and, with `prune`, removes those the source no longer
    /// has, in memory; each key in `report` (``LocalizationFolder/sync(prune:)`` runs the formats in order).
    func sync(_ folder: inout LocalizationFolder, prune: Bool, report: inout SyncReport)

    /// Writes the pseudolanguage `language` of the format's tables into `folder` (in memory) and returns how
    /// many values, entries or keys it made.
    func pseudolocalize(_ folder: inout LocalizationFolder, with pseudo: Pseudolocalizer, into language: String) -> Int
}

extension LocalizationFormat {
    public var recordsReviewState: Bool { false }

    public func gettextEntries(of file: XLIFFFile) -> [(context: String, category: String?)] {
        file.units.map { ($0.id, nil) }
    }

    public func isStale(unitID: String, table: String, in folder: LocalizationFolder) -> Bool { false }

    /// True when an XLIFF `original` is a file of this format.
    func names(_ original: String) -> Bool { original.hasSuffix("." + fileExtension) }
}

extension LocalizationFolder {
    /// The formats a folder starts with, in the order the tools export them: `.strings`, `.stringsdict`,
    /// `.xcstrings`.
    public static let builtInFormats: [any LocalizationFormat] = [
        StringsFormat(), StringsDictFormat(), XCStringsFormat(),
    ]

    /// The format of a file named by an XLIFF `original` (its extension), nil for another file.
    func format(ofOriginal original: String) -> (any LocalizationFormat)? {
        formats.first { $0.names(original) }
    }
}
