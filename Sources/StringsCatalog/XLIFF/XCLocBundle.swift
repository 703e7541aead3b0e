import Foundation
import Support

/// An Xcode localization catalog (`<lang>.xcloc`), the folder Xcode's Export Localizations writes and its
/// Import Localizations reads: `contents.json` (development region, target locale, tool),
/// `Localized Contents/<lang>.xliff` (the XLIFF of ``XLIFF/files(_:language:)``, states included:
/// `needs-review-translation` ↔ `needs_review`, `translated`, `new`), `Source Contents/` (the
/// development-language files the XLIFF was made from, at their `original` paths) and `Notes/`.
///
/// ```swift
/// var folder = try LocalizationFolder(directory: URL(fileURLWithPath: "Localizations"))
/// let bundle = try XCLocBundle.write(folder, language: "de", into: URL(fileURLWithPath: "export"))
/// // … translated in Xcode or a tool that reads .xcloc …
/// let report = XLIFF.importFiles(try XCLocBundle.read(bundle), into: &folder)
/// ```
public enum XCLocBundle {
    /// Writes `<directory>/<language>.xcloc` and returns its URL. Files of an existing bundle are replaced
    /// one by one; anything else in it (a translator's `Notes/`) is left as it is.
    @discardableResult
    public static func write(_ folder: LocalizationFolder, language: String, into directory: URL) throws -> URL {
        try write(folder, language: language, files: XLIFF.files(folder, language: language), into: directory)
    }

    /// ``write(_:language:into:)`` with the XLIFF files made already.
    static func write(
        _ folder: LocalizationFolder, language: String, files: [XLIFFFile], into directory: URL
    ) throws -> URL {
        let bundle = directory.appendingPathComponent("\(language).xcloc", isDirectory: true)
        let contents = JSONValue.object([
            JSONMember(key: "developmentRegion", value: .string(folder.developmentLanguage)),
            JSONMember(key: "project", value: .string(folder.directory.lastPathComponent)),
            JSONMember(key: "targetLocale", value: .string(language)),
            JSONMember(
                key: "toolInfo",
                value: .object([
                    JSONMember(key: "toolBuildNumber", value: .string("1")),
                    JSONMember(key: "toolID", value: .string("contacts")),
                    JSONMember(key: "toolName", value: .string("contacts strings")),
                    JSONMember(key: "toolVersion", value: .string("1.0")),
                ])),
            JSONMember(key: "version", value: .string("1.0")),
        ])
        try TranslatorFiles.put(
            Data((XcodeJSONWriter.write(contents) + "\n").utf8), bundle.appendingPathComponent("contents.json"))
        try TranslatorFiles.put(
            Data(XLIFF.document(files).utf8),
            bundle.appendingPathComponent("Localized Contents").appendingPathComponent("\(language).xliff"))
        for file in files {
            let source = folder.directory.appendingPathComponent(file.original)
            guard let data = FileManager.default.contents(atPath: source.path) else { continue }
            try TranslatorFiles.put(
                data, bundle.appendingPathComponent("Source Contents").appendingPathComponent(file.original))
        }
        try TranslatorFiles.makeFolder(bundle.appendingPathComponent("Notes", isDirectory: true))
        return bundle
    }

    /// The XLIFF files of a bundle's `Localized Contents/`: `<targetLocale>.xliff` (from `contents.json`),
    /// else its only `.xliff`. A `<file>` without `target-language` gets `language`, else `targetLocale`.
    public static func read(_ bundle: URL, language: String? = nil) throws -> [XLIFFFile] {
        let manifest = bundle.appendingPathComponent("contents.json")
        var target: String?
        if let data = FileManager.default.contents(atPath: manifest.path) {
            var reader = JSONReader([UInt8](data), file: manifest.path)
            do { target = try reader.document()["targetLocale"]?.stringValue } catch {
                throw StringsCatalogError.malformed(
                    file: error.file, line: error.line, column: error.column, message: error.message)
            }
        }
        let localized = bundle.appendingPathComponent("Localized Contents")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: localized.path)) ?? []
        let xliffs = names.filter { $0.hasSuffix(".xliff") }.sorted()
        guard
            let name = target.map({ "\($0).xliff" }).flatMap({ xliffs.contains($0) ? $0 : nil })
                ?? (xliffs.count == 1 ? xliffs[0] : nil)
        else {
            throw StringsCatalogError.io(
                path: localized.path,
                message: xliffs.isEmpty
                    ? "no .xliff file (an .xcloc holds Localized Contents/<language>.xliff)"
                    : "\(xliffs.count) .xliff files and contents.json names none of them")
        }
        let url = localized.appendingPathComponent(name)
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw StringsCatalogError.io(path: url.path, message: "cannot read: \(error.localizedDescription)")
        }
        return try XLIFF.parse(data, file: url.path, language: language ?? target)
    }
}
