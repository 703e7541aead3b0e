import Foundation

extension XLIFF {
    /// Writes the translator file of `language` into `directory` (created when missing):
    /// `<language>.xliff`, or with `bundle` the Xcode localization catalog `<language>.xcloc`
    /// (``XCLocBundle/write(_:language:into:)``). Throws ``StringsCatalogError/io(path:message:)`` naming the
    /// file that could not be written.
    ///
    /// ```swift
    /// let folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
    /// let file = try XLIFF.write(folder, language: "de", into: URL(fileURLWithPath: "xliff"))
    /// print(file.url.lastPathComponent, file.entries, file.untranslated)   // de.xliff 120 3
    /// ```
    @discardableResult
    public static func write(
        _ folder: LocalizationFolder, language: String, into directory: URL, bundle: Bool = false
    ) throws -> ExportedFile {
        let files = files(folder, language: language)
        let url: URL
        if bundle {
            url = try XCLocBundle.write(folder, language: language, files: files, into: directory)
        } else {
            url = directory.appendingPathComponent("\(language).xliff")
            try TranslatorFiles.put(Data(document(files).utf8), url)
        }
        let units = files.flatMap(\.units)
        return ExportedFile(url: url, entries: units.count, untranslated: units.filter { $0.target == nil }.count)
    }
}

extension XLIFF {
    /// Writes one XLIFF file (or with `bundle` one `.xcloc`) per language into `directory`, made first: every
    /// language of the folder but the development language when `languages` is empty. A folder with no other
    /// language is ``StringsCatalogError/invalidArgument(_:)``.
    ///
    /// ```swift
    /// let folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
    /// let written = try XLIFF.write(folder, languages: [], into: URL(fileURLWithPath: "xliff"))
    /// ```
    public static func write(
        _ folder: LocalizationFolder, languages: [String], into directory: URL, bundle: Bool = false
    ) throws -> [ExportedFile] {
        let languages =
            languages.isEmpty ? folder.allLanguages.filter { $0 != folder.developmentLanguage } : languages
        if languages.isEmpty {
            throw StringsCatalogError.invalidArgument(
                "\(folder.displayRoot) has no language besides \(folder.developmentLanguage) to export")
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StringsCatalogError.invalidArgument(
                "cannot create \(directory.relativePath): \(error.localizedDescription)")
        }
        return try languages.map { try write(folder, language: $0, into: directory, bundle: bundle) }
    }
}
