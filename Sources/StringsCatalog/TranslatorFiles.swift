import Foundation

/// Where translator files (XLIFF, `.xcloc`, `.po`) go: the folders they need created and each file replaced
/// whole (`.atomic`), with the path in the error when either fails.
enum TranslatorFiles {
    static func makeFolder(_ url: URL) throws {
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw StringsCatalogError.io(path: url.path, message: "cannot create: \(error.localizedDescription)")
        }
    }

    static func put(_ data: Data, _ url: URL) throws {
        try makeFolder(url.deletingLastPathComponent())
        do { try data.write(to: url, options: .atomic) } catch {
            throw StringsCatalogError.io(path: url.path, message: "cannot write: \(error.localizedDescription)")
        }
    }
}

/// A translator file an export wrote: where, and how many entries (XLIFF units, `.po` entries) it holds,
/// how many of them without a translation.
public struct ExportedFile: Sendable, Hashable {
    public var url: URL
    public var entries: Int
    public var untranslated: Int

    public init(url: URL, entries: Int, untranslated: Int) {
        self.url = url
        self.entries = entries
        self.untranslated = untranslated
    }
}
