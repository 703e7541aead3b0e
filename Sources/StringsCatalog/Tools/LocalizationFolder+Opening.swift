import Foundation

/// Where a translator tool reads its localizations: a folder the user named (or `./Localizations`), as a URL
/// and as the user wrote it (for messages).
///
/// ```swift
/// let place = try LocalizationPlace("Localizations")
/// let folder = try LocalizationFolder(at: place, developmentLanguage: "en", unreadable: .refuse)
/// ```
public struct LocalizationPlace: Sendable, Hashable {
    public var url: URL
    /// The path as the user gave it.
    public var display: String

    /// Checks that `path` (default: `Localizations`) is an existing folder.
    public init(_ path: String?) throws(StringsCatalogError) {
        let path = path ?? "Localizations"
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw .noSuchFolder(path)
        }
        guard isDir.boolValue else { throw .notAFolder(path) }
        (url, display) = (URL(fileURLWithPath: path), path)
    }
}

extension LocalizationFolder {
    /// What a tool does with files that could not be read at all.
    public enum UnreadableFiles: Sendable {
        /// Keep them as ``loadErrors`` (lint lists them among its findings).
        case keep
        /// Keep them; the caller reports them and goes on (status counts without them).
        case report
        /// Stop: ``StringsCatalogError/unreadableFiles(_:)`` before anything is written or exported.
        case refuse
    }

    /// Reads the folder at `place` as a tool does: a folder without any localization file is
    /// ``StringsCatalogError/noLocalizationFiles(_:)``, and with `unreadable` `.refuse` a file that could not
    /// be read is ``StringsCatalogError/unreadableFiles(_:)``.
    public init(at place: LocalizationPlace, developmentLanguage: String, unreadable: UnreadableFiles) throws {
        try self.init(directory: place.url, displayRoot: place.display, developmentLanguage: developmentLanguage)
        if isEmpty { throw StringsCatalogError.noLocalizationFiles(place.display) }
        if unreadable == .refuse && !loadErrors.isEmpty { throw StringsCatalogError.unreadableFiles(loadErrors) }
    }

    /// The line a tool prints when files could not be read and it went on without them (`status`).
    public var uncountedFilesNote: String? {
        let n = loadErrors.count
        guard n > 0 else { return nil }
        return "\(n) file\(n == 1 ? "" : "s") could not be read and \(n == 1 ? "is" : "are") not counted"
    }
}

extension Catalog {
    /// The catalog a rendering command reads its words from: a folder with no localization files, or one
    /// with a file that could not be read or has syntax errors, is refused
    /// (``StringsCatalogError/catalogErrors(_:folder:)`` carries each problem with its file, line and column):
    /// drafts made from a damaged catalog would say the wrong thing.
    public init(renderingFrom place: LocalizationPlace) throws(StringsCatalogError) {
        do {
            try self.init(directory: place.url)
        } catch {
            throw .cannotReadFolder(place.display, reason: "\(error)")
        }
        if files.isEmpty { throw .noLocalizationFiles(place.display) }
        let errors = diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else { throw .catalogErrors(errors, folder: place.display) }
    }
}
