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
    /// A resource that ships with the package is missing from the bundle.
    case missingResource(String)
    /// A vCard version the writer cannot produce (it writes "4.0" and "3.0").
    case unsupportedVersion(String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): return "cannot read \(path): \(reason)"
        case .missingResource(let name): return "resource \(name) is missing from the ContactsCore bundle"
        case .unsupportedVersion(let version):
            return "cannot write vCard version '\(version)' (expected 4.0 or 3.0)"
        }
    }
}
