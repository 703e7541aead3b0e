import Foundation

/// The one rule for a file that a document names (a path in a CSV column): it is read only when the file
/// the path reaches — relative paths taken in the document's folder, `..` and every symbolic link followed
/// (`realpath(3)`) — lies inside one of the folders the user allowed. A name that climbs out (`../../x`),
/// an absolute path elsewhere (`/etc/hostname`) and a link that points out are refused alike.
///
/// ```swift
/// let real = try ContainedPath.resolve("files/plan.pdf", relativeTo: "/home/ada/mail", inside: ["/home/ada/mail"])
/// // "/home/ada/mail/files/plan.pdf"; "../../etc/passwd" throws .outside
/// ```
package enum ContainedPath {
    /// The file `path` reaches (relative to `base`), with no `.`, `..` or symbolic link left, when it lies
    /// inside one of `folders` (each resolved the same way; a folder that does not exist allows nothing).
    /// - Throws: `.cannotResolve` when the path (or a folder of it) does not exist or cannot be searched;
    ///   `.outside` when the file lies in none of the folders.
    package static func resolve(_ path: String, relativeTo base: String, inside folders: [String])
        throws(ContainedPathError) -> String
    {
        let joined = path.hasPrefix("/") ? path : (base.hasSuffix("/") ? base : base + "/") + path
        let real = try realPath(joined, named: joined)
        let roots = folders.compactMap { try? realPath($0, named: $0) }
        guard roots.contains(where: { isInside(real, $0) }) else {
            throw .outside(path: path, realPath: real, folders: roots)
        }
        return real
    }

    /// `path` with every `.`, `..` and symbolic link resolved (`realpath(3)`); errors name `name`.
    package static func realPath(_ path: String, named name: String) throws(ContainedPathError) -> String {
        guard let resolved = realpath(path, nil) else { throw .cannotResolve(path: name, code: errno) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether the resolved path `real` is `folder` itself or lies below it (both already resolved).
    package static func isInside(_ real: String, _ folder: String) -> Bool {
        if folder == "/" { return real.hasPrefix("/") }
        return real == folder || real.hasPrefix(folder + "/")
    }
}

/// Why a path named in a document is not read: it does not lead to a file, or the file lies outside the
/// allowed folders.
package enum ContainedPathError: Error, Equatable, CustomStringConvertible {
    /// The path, or a folder on the way, is missing or cannot be searched (`code`: `errno`).
    case cannotResolve(path: String, code: Int32)
    /// The path reaches `realPath`, which lies in none of `folders` (resolved).
    case outside(path: String, realPath: String, folders: [String])

    package var description: String {
        switch self {
        case .cannotResolve(let path, let code): return "\(path): cannot read it: \(String(cString: strerror(code)))"
        case .outside(let path, let real, let folders):
            let shown = real == path ? path : "\(path) (\(real))"
            return "\(shown): outside the folder\(folders.count == 1 ? "" : "s") files may be read from"
                + " (\(folders.joined(separator: ", ")))"
        }
    }
}
