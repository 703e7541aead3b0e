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
