import Foundation
import Locales

/// Every localization file of a resources folder, loaded as editable documents: the translator
/// tools (lint, status, sync, XLIFF) work on this.
///
/// ```swift
/// let folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
/// folder.languages                       // ["de", "en", …]
/// folder.strings["de"]?["Localizable"]?["Cancel"]   // "Abbrechen"
/// ```
public struct LocalizationFolder: Sendable {
    public let directory: URL
    /// How paths are shown in diagnostics (the folder as the user named it).
    public let displayRoot: String
    public let developmentLanguage: String
    /// language → `.lproj` folder name as found on disk.
    public private(set) var folderNames: [String: String] = [:]
    /// "bundle/language" → `.lproj` folder name in that bundle (the folder holding the `.lproj` folders).
    private var bundleFolderNames: [String: String] = [:]
    /// language → table → document.
    public var strings: [String: [String: StringsDocument]] = [:]
    public var stringsDicts: [String: [String: StringsDictDocument]] = [:]
    /// table → catalog.
    public var catalogs: [String: XCStringsDocument] = [:]
    /// Where each loaded `.lproj` file is ("language/table.ext" → URL), so that it is written back to the
    /// same place even when subfolders name a language's folder differently (`English.lproj`, `en.lproj`).
    private var fileURLs: [String: URL] = [:]
    /// The formats the tools (save, XLIFF, `.po`, pseudolanguages) work through, in order: the built-in ones
    /// (``builtInFormats``), and any a caller adds.
    public var formats: [any LocalizationFormat] = LocalizationFolder.builtInFormats
    /// Files that could not be read at all (others are still loaded).
    public private(set) var loadErrors: [Diagnostic] = []

    /// Reads every localization file under `directory`, as deep as they sit (see ``Catalog``'s search);
    /// tables in subfolders are named with their folder (`App/Localizable`). A file that cannot be read becomes a ``loadErrors`` entry and
    /// the others are still loaded. Throws only when the folder cannot be listed.
    public init(directory: URL, displayRoot: String? = nil, developmentLanguage: String = "en") throws {
        self.directory = directory
        self.displayRoot = displayRoot ?? directory.path
        self.developmentLanguage = LocalePolicy.bcp47(fromLocalizationName: developmentLanguage)
        for file in try Catalog.scan(directory) {
            let display = displayPath(file.url)
            do {
                switch file.kind {
                case .strings:
                    let language = file.language!
                    noteFolder(file)
                    fileURLs["\(language)/\(file.qualifiedTable).strings"] = file.url
                    strings[language, default: [:]][file.qualifiedTable] = try StringsDocument(
                        contentsOf: file.url, file: display)
                case .stringsdict:
                    let language = file.language!
                    noteFolder(file)
                    fileURLs["\(language)/\(file.qualifiedTable).stringsdict"] = file.url
                    stringsDicts[language, default: [:]][file.qualifiedTable] = try StringsDictDocument(
                        contentsOf: file.url, file: display)
                case .xcstrings:
                    catalogs[file.qualifiedTable] = try XCStringsDocument(contentsOf: file.url, file: display)
                }
            } catch let error as StringsCatalogError {
                loadErrors.append(Catalog.diagnostic(for: error, file: display))
            }
        }
    }

    private mutating func noteFolder(_ file: Catalog.File) {
        let name = file.url.deletingLastPathComponent().lastPathComponent
        if folderNames[file.language!] == nil { folderNames[file.language!] = name }
        bundleFolderNames[file.folder + "/" + file.language!] = name
    }

    /// The folder's own name for a language given from outside (an XLIFF `target-language`, a `.po` header,
    /// `--language`): the language of a folder with the same code as the project spells it (`tl` for `fil`,
    /// `zh-Hans` for `zh-hans`), else the tag as `LocalePolicy.folderLanguage(_:)` (Locales) writes it.
    ///
    /// ```swift
    /// let project = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
    /// project.language(matching: "fil")   // "tl" in a project with tl.lproj
    /// ```
    public func language(matching tag: String) -> String {
        let all = Set(languages).union(allLanguages)
        let given = LocalePolicy.folderLanguage(tag)
        if all.contains(given) { return given }
        return all.sorted().first { LocalePolicy.sameLanguage($0, given) } ?? given
    }

    func displayPath(_ url: URL) -> String {
        let base = directory.standardizedFileURL.path
        let full = url.standardizedFileURL.path
        guard full.hasPrefix(base + "/") else { return full }
        let root = displayRoot.hasSuffix("/") ? String(displayRoot.dropLast()) : displayRoot
        return root + "/" + full.dropFirst(base.count + 1)
    }

    /// The URL of a language's table file (`table` may be qualified by its folder: `App/Localizable`).
    public func url(language: String, table: String, extension ext: String) -> URL {
        if let known = fileURLs["\(language)/\(table).\(ext)"] { return known }
        let (sub, name) = Self.split(table)
        let folder = bundleFolderNames[sub + "/" + language] ?? folderNames[language] ?? "\(language).lproj"
        let base = sub.isEmpty ? directory : directory.appendingPathComponent(sub)
        return base.appendingPathComponent(folder).appendingPathComponent("\(name).\(ext)")
    }

    /// A qualified table name split into its folder and its name (`App/Localizable` → `App`, `Localizable`).
    static func split(_ table: String) -> (folder: String, name: String) {
        guard let slash = table.lastIndex(of: "/") else { return ("", table) }
        return (String(table[..<slash]), String(table[table.index(after: slash)...]))
    }

    /// True when the search found no localization file at all (readable or not).
    public var isEmpty: Bool { strings.isEmpty && stringsDicts.isEmpty && catalogs.isEmpty && loadErrors.isEmpty }

    /// Languages with `.lproj` files, sorted (`Base` included when present).
    public var languages: [String] { Set(strings.keys).union(stringsDicts.keys).sorted() }

    /// All languages, `.xcstrings` ones included.
    public var allLanguages: [String] {
        var set = Set(languages)
        for c in catalogs.values { set.formUnion(c.languages) }
        set.remove("Base")
        return set.sorted()
    }

    /// The source (development-language) documents: the development language's own, else `Base`.
    func sourceStrings(_ table: String) -> StringsDocument? {
        strings[developmentLanguage]?[table] ?? strings["Base"]?[table]
    }

    func sourceDict(_ table: String) -> StringsDictDocument? {
        stringsDicts[developmentLanguage]?[table] ?? stringsDicts["Base"]?[table]
    }

    /// The `.strings` tables of the development language (or `Base`).
    var sourceStringsTables: Set<String> {
        Set((strings[developmentLanguage] ?? [:]).keys).union((strings["Base"] ?? [:]).keys)
    }

    /// The `.stringsdict` tables of the development language (or `Base`).
    var sourceDictTables: Set<String> {
        Set((stringsDicts[developmentLanguage] ?? [:]).keys).union((stringsDicts["Base"] ?? [:]).keys)
    }

    /// The translatable languages (not the development language, not Base).
    var targetLanguages: [String] { languages.filter { $0 != developmentLanguage && $0 != "Base" } }

    /// Writes every changed document back (only those whose bytes differ from disk).
    public func save() throws -> [URL] {
        var written: [URL] = []
        func put(_ data: Data, _ url: URL) throws {
            if let old = try? Data(contentsOf: url), old == data { return }
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            do { try data.write(to: url, options: .atomic) } catch {
                throw StringsCatalogError.io(path: url.path, message: "cannot write: \(error.localizedDescription)")
            }
            written.append(url)
        }
        for format in formats {
            for (data, url) in try format.documents(in: self) { try put(data, url) }
        }
        return written.sorted { $0.path < $1.path }
    }
}
