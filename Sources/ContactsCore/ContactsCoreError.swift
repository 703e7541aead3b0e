import Foundation

/// Everything that can go wrong in ContactsCore. Problems *inside* a vCard file are not errors: they are
/// ``VCardDiagnostic``s and the reader goes on; these cases are for what stops a whole operation.
///
/// ```swift
/// do { _ = try AddressBook(contentsOf: URL(fileURLWithPath: "missing.vcf")) }
/// catch let error as ContactsCoreError { print(error) }   // cannot read missing.vcf: …
/// ```
public enum ContactsCoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read (missing, a directory, permissions).
    case cannotRead(path: String, reason: String)
    /// There is no file at the path the user named.
    case noSuchFile(path: String)
    /// The path the user named as a file is a folder.
    case isDirectory(path: String)
    /// No vCard at all could be read from the source (`<stdin>` for `-`): its diagnostics say why.
    case nothingRead(source: String)
    /// A resource that ships with the package is missing from the bundle.
    case missingResource(String)
    /// A vCard version the writer cannot produce (it writes "4.0" and "3.0").
    case unsupportedVersion(String)
    /// An edit that cannot be made: `field` names the option or property, `message` what was expected.
    case invalidEdit(field: String, message: String)
    /// No contact has this id in the source.
    case noSuchContact(id: String, source: String)
    /// A file could not be written (nothing was changed).
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): return "cannot read \(path): \(reason)"
        case .noSuchFile(let path): return "no such file: \(path)"
        case .isDirectory(let path): return "\(path) is a directory"
        case .nothingRead(let source): return "no vCard could be read from \(source == "-" ? "<stdin>" : source)"
        case .missingResource(let name): return "resource \(name) is missing from the ContactsCore bundle"
        case .unsupportedVersion(let version):
            return "cannot write vCard version '\(version)' (expected 4.0 or 3.0)"
        case .invalidEdit(let field, let message): return "\(field): \(message)"
        case .noSuchContact(let id, let source): return "no contact with id '\(id)' in \(source)"
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        }
    }
}
