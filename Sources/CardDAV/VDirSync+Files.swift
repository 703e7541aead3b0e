import ContactsCore
import Foundation
import Support

/// The files a sync writes: cards, kept conflicts, metadata, the journal; every name made by
/// `SafeFileName`, so that nothing a server sends can place a file outside the folder.
extension VDirSync {
    func writeFile(_ file: String, _ bytes: [UInt8]) throws {
        // Made durable all at once, before the state is saved (``run(bookName:)``).
        try local { try AtomicFiles.replace(folder + "/" + file, with: bytes, durable: false) }
        writtenPaths.append(folder + "/" + file)
    }

    /// Keeps the local version of a conflicting card; returns its path relative to the folder.
    func keepConflict(_ file: String, _ bytes: [UInt8]) throws -> String {
        let dir = SyncState.conflictFolder(folder)
        let stamp = Self.now().replacingOccurrences(of: ":", with: "")
        let name = SafeFileName.make(file + "." + stamp, suffix: ".vcf")
        try local {
            try PrivateFiles.makeDirectories(dir)
            try AtomicFiles.replace(dir + "/" + name, with: bytes)
        }
        return SyncState.folderName + "/conflicts/" + name
    }

    /// Writes the metadata file `name` (`displayname`, `color`) with `value`, or removes it (nil); whether
    /// the file changed.
    @discardableResult
    func writeMetadata(_ name: String, _ value: String?) throws -> Bool {
        let path = folder + "/" + name
        guard
            VDir(path: folder).metadata(name) != value || (value == nil && FileManager.default.fileExists(atPath: path))
        else { return false }
        try local {
            if let value {
                try AtomicFiles.replace(path, with: Array((value + "\n").utf8))
            } else {
                try AtomicFiles.remove(path)
            }
        }
        return true
    }

    /// Notes a push before it is made (removed once the state is saved).
    func journal(_ line: String) throws {
        let path = SyncState.journal(folder)
        try local {
            try PrivateFiles.makeDirectories(SyncState.folder(folder))
            let fd = PrivateFiles.open(path, O_WRONLY | O_CREAT | O_APPEND)
            guard fd >= 0 else { throw CardDAVError.local(path: path, message: String(cString: strerror(errno))) }
            defer { close(fd) }
            try AtomicFiles.writeAll(fd, Array((line + "\n").utf8), path: path)
            _ = fsync(fd)
        }
    }

    /// The file name for a member new here: its href's last segment (made safe) when that is a `.vcf` name
    /// not taken, else its UID (or a fresh one; letters, digits and `-`, the rest `_`) with `.vcf`, then
    /// `-2`, `-3`… until one is free.
    func newFileName(for href: String, card: [UInt8], taken: Set<String>) -> String {
        let last = CardDAVClient.path(of: href).split(separator: "/").last.map(String.init) ?? ""
        let decoded = CardDAVClient.percentDecoded(last)
        if VDir.isCardFileName(decoded) {
            let safe = SafeFileName.make(String(decoded.dropLast(4)), suffix: ".vcf")
            if !taken.contains(safe) { return safe }
        }
        let uid = Self.uid(of: card) ?? UUID().uuidString.lowercased()
        let stem = String(uid.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
        var name = SafeFileName.make(stem, suffix: ".vcf")
        var n = 2
        while taken.contains(name) {
            name = SafeFileName.make(stem, suffix: "-\(n).vcf")
            n += 1
        }
        return name
    }

    func local(_ body: () throws -> Void) throws {
        do { try body() } catch let error as PrivateFilesError {
            throw CardDAVError.local(path: error.path, message: error.reason)
        } catch let error as ContactsCoreError {
            throw CardDAVError.local(path: folder, message: "\(error)")
        }
    }

    func reading<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ContactsCoreError {
            throw CardDAVError.local(path: folder, message: "\(error)")
        }
    }

    /// The UID of a card (a contact's or a group's), as written.
    static func uid(of card: [UInt8]) -> String? {
        let lines = CardLines(card[...])
        return lines.positions(of: "UID").first.map { lines.value($0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether `bytes` hold a vCard: `BEGIN:VCARD` first (after a byte-order mark and white space) and an
    /// `END:VCARD`.
    static func isVCard(_ bytes: [UInt8]) -> Bool {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count && [0x20, 0x09, 0x0D, 0x0A].contains(bytes[start]) { start += 1 }
        let head = bytes[start..<min(bytes.count, start + 11)].map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
        guard head == Array("BEGIN:VCARD".utf8) else { return false }
        let tail = String(decoding: bytes.suffix(64), as: UTF8.self).uppercased()
        return tail.contains("END:VCARD")
    }

    static func key(_ href: String) -> String {
        let p = CardDAVClient.path(of: href)
        return CardDAVClient.percentDecoded(p)
    }

    static func encode(_ name: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }

    static func withoutTrailingSlash(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }

    static func now() -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date())
    }
}
