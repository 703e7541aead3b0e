import Foundation
import Support

/// A vdir folder: one vCard per `.vcf` file, as vdirsyncer writes and khard reads. File names need not be
/// the contact's UID and are kept when a contact changes; files whose name starts with `.`, temporary
/// files (`.tmp`) and files without the `.vcf` extension are not contacts. The optional metadata files
/// `displayname`, `color` and `description` name and colour the collection.
///
/// ```swift
/// let folder = VDir(path: "contacts/family")
/// let contents = try folder.contents()
/// print(folder.displayName ?? folder.path, contents.book.contacts.count, contents.fileNames.first ?? "")
/// ```
public struct VDir: Sendable, Hashable {
    /// The folder as given.
    public let path: String

    public init(path: String) { self.path = path }

    /// A vdir read whole (a parent of several books: all of them, ``readCardFileNames()``): the contacts of
    /// every file as one book (diagnostics name `folder/file.vcf`) and, for each contact, the name of its
    /// file in the folder.
    public struct Contents: Sendable {
        public let book: AddressBook
        /// The file of `book.contacts[i]`, a name inside the folder.
        public let fileNames: [String]

        /// The file name of the contact with `id`, if the folder has it.
        public func fileName(of id: String) -> String? { book.position(of: id).map { fileNames[$0] } }
    }

    /// The file names of the contacts, in byte order of the names (the order of ``contents(progress:)``).
    public func cardFileNames() throws -> [String] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw ContactsCoreError.cannotRead(path: path, reason: AddressBook.reason(error))
        }
        return names.filter(Self.isCardFileName).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The card files a read of the folder takes, in its order: the folder's own (``cardFileNames()``) or,
    /// when it holds none, those of each folder in it that does (a parent of several books, as
    /// `contacts sync --all` and vdirsyncer's collections fill it) as `book/file.vcf`, books in byte order of
    /// their names; hidden folders are skipped, and only one level down is looked at.
    public func readCardFileNames() throws -> [String] {
        let own = try cardFileNames()
        guard own.isEmpty else { return own }
        let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var names: [String] = []
        for entry in entries.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) where !entry.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + entry, isDirectory: &isDirectory),
                isDirectory.boolValue
            else { continue }
            names += ((try? VDir(path: folder + "/" + entry).cardFileNames()) ?? []).map { entry + "/" + $0 }
        }
        return names
    }

    /// Whether a file of the folder is a contact: `.vcf` (any case), not hidden, not a temporary file.
    public static func isCardFileName(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.utf8.count > 4 && name.lowercased().hasSuffix(".vcf")
    }

    /// Reads every contact file (on all cores). A file that cannot be read stops the read with
    /// ``ContactsCoreError/cannotRead(path:reason:)``; problems inside files are diagnostics. `progress`,
    /// when given, expects the bytes of every contact file and is advanced by each file's bytes once read.
    public func contents(progress: WorkProgress? = nil) throws -> Contents {
        let names = try readCardFileNames()
        let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
        // Each file's bytes, measured before reading so that the bar's total is known from the start.
        let sizes: [Int] =
            progress == nil
            ? []
            : names.map {
                var info = stat()
                return stat(folder + "/" + $0, &info) == 0 ? Int(info.st_size) : 0
            }
        progress?.expect(sizes.reduce(0, +))
        let books = try ParallelWork.map(count: names.count) { k in
            let book = try AddressBook(
                contentsOf: URL(fileURLWithPath: folder + "/" + names[k]), fileName: folder + "/" + names[k])
            if let progress { progress.advance(by: sizes[k]) }
            return book
        }
        var fileNames: [String] = []
        for (k, book) in books.enumerated() { fileNames += repeatElement(names[k], count: book.contacts.count) }
        let book = AddressBook(merging: books, names: names.map { folder + "/" + $0 })
        return Contents(book: book, fileNames: fileNames)
    }

    /// The contacts of every file as one book (``contents(progress:)``).
    public func read() throws -> AddressBook { try contents().book }

    /// The contacts of every file as one book, `progress` advanced as the files are read
    /// (``contents(progress:)``).
    public func read(progress: WorkProgress?) throws -> AddressBook { try contents(progress: progress).book }

    /// The text of the metadata file `name` (`displayname`, `color`, `description`, `order`) without
    /// surrounding white space; nil when the file is absent or empty.
    public func metadata(_ name: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path + "/" + name) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// The collection's name from the `displayname` file.
    public var displayName: String? { metadata("displayname") }

    /// The collection's colour from the `color` file (`#RRGGBB` as vdirsyncer writes it).
    public var color: String? { metadata("color") }
}
