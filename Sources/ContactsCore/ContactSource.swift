import Foundation

/// Where contacts are read from: a vCard file, standard input, or a vdir folder (one vCard per `.vcf` file,
/// as vdirsyncer writes and khard reads).
///
/// ```swift
/// let source = ContactSource(path: "~/contacts/family")   // a folder: .vdir, a file: .file, "-": stdin
/// let book = try source.read()
/// print(source, book.contacts.count)
/// ```
public enum ContactSource: Sendable, Hashable, CustomStringConvertible {
    /// A vCard file holding any number of cards.
    case file(String)
    /// Standard input, read to its end.
    case standardInput
    /// A vdir folder (``VDir``).
    case vdir(String)

    /// The source a command-line argument names: `-` is standard input, an existing folder a vdir, anything
    /// else a file (which need not exist yet: reading it then fails with the reason).
    public init(path: String) {
        if path == "-" {
            self = .standardInput
            return
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            self = .vdir(path)
        } else {
            self = .file(path)
        }
    }

    /// The path as given, or `<stdin>`: how diagnostics and listings name the source.
    public var description: String {
        switch self {
        case .file(let path), .vdir(let path): return path
        case .standardInput: return "<stdin>"
        }
    }

    /// The collection's name: a vdir's `displayname` metadata file (as vdirsyncer and `contacts sync` write
    /// it from the server's `DAV:displayname`, and khal shows it); nil for a file, standard input, or a vdir
    /// without one.
    public var displayName: String? {
        guard case .vdir(let path) = self else { return nil }
        return VDir(path: path).displayName
    }

    /// Reads the source into an address book (problems in cards are its ``AddressBook/diagnostics``).
    /// Throws ``ContactsCoreError/cannotRead(path:reason:)`` when the file or folder cannot be read.
    public func read() throws -> AddressBook {
        switch self {
        case .file(let path):
            return try AddressBook(contentsOf: URL(fileURLWithPath: path))
        case .standardInput:
            return AddressBook(data: FileHandle.standardInput.readDataToEndOfFile(), fileName: description)
        case .vdir(let path):
            return try VDir(path: path).read()
        }
    }
}
