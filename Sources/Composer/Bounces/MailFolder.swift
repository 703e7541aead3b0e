import Foundation

/// The messages of a Maildir (its `new/` and `cur/` files) or an mbox file (messages after `From ` lines,
/// `>From ` unquoted), as bounce reading needs them. A message larger than ``maximumMessageBytes`` is
/// skipped and reported; the others are read.
///
/// ```swift
/// let folder = try MailFolder(path: "Mail/bounces")
/// try folder.eachMessage { name, bytes in print(name, bytes.count) }
/// ```
public struct MailFolder: Sendable {
    public enum Layout: Sendable, Hashable { case maildir, mbox }

    public static let maximumMessageBytes = 32 << 20
    public let path: String
    public let layout: Layout

    /// A Maildir when `path` is a folder with `cur/` or `new/`, an mbox when it is a file. Throws
    /// `ComposerError.io` otherwise.
    public init(path: String) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ComposerError.io(path: path, message: "no such Maildir or mbox")
        }
        if !isDirectory.boolValue {
            layout = .mbox
            return
        }
        let fm = FileManager.default
        guard fm.fileExists(atPath: path + "/cur") || fm.fileExists(atPath: path + "/new") else {
            throw ComposerError.io(path: path, message: "a folder without cur/ or new/ is not a Maildir")
        }
        layout = .maildir
    }

    /// Calls `body` with each message's name (`new/<file>`, or `message N` of an mbox) and bytes, in order;
    /// returns the problems met (a message too large, a file that cannot be read) as `path: message` texts.
    @discardableResult
    public func eachMessage(_ body: (String, [UInt8]) throws -> Void) throws -> [String] {
        var problems: [String] = []
        switch layout {
        case .maildir:
            for sub in ["new", "cur"] {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(path)/\(sub)")) ?? []
                for name in names.sorted() where !name.hasPrefix(".") {
                    let file = "\(path)/\(sub)/\(name)"
                    let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
                    if let size, size > Self.maximumMessageBytes {
                        problems.append("\(file): larger than \(Self.maximumMessageBytes >> 20) MiB; skipped")
                        continue
                    }
                    guard let data = FileManager.default.contents(atPath: file) else {
                        problems.append("\(file): cannot be read; skipped")
                        continue
                    }
                    try body("\(sub)/\(name)", [UInt8](data))
                }
            }
        case .mbox:
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) } catch {
                throw ComposerError.io(path: path, message: "cannot read the mbox")
            }
            let bytes = [UInt8](data)
            var number = 0
            var start: Int?
            var i = 0
            func finish(_ end: Int) throws {
                guard let s = start else { return }
                number += 1
                if end - s > Self.maximumMessageBytes {
                    problems.append(
                        "\(path): message \(number) is larger than \(Self.maximumMessageBytes >> 20) MiB; skipped")
                    return
                }
                try body("message \(number)", Self.unquoted(bytes[s..<end]))
            }
            let from = Array("From ".utf8)
            while i < bytes.count {
                let lineEnd = bytes[i...].firstIndex(of: 0x0A) ?? bytes.count
                if bytes[i..<lineEnd].starts(with: from) {
                    try finish(i)
                    start = lineEnd + 1
                }
                i = lineEnd + 1
            }
            try finish(bytes.count)
        }
        return problems
    }

    /// An mbox message with `>From ` (mboxrd: `>>From `…) lines unquoted one level.
    static func unquoted(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var atLineStart = true
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if atLineStart && bytes[i] == UInt8(ascii: ">") {
                var j = i
                while j < bytes.endIndex && bytes[j] == UInt8(ascii: ">") { j += 1 }
                if bytes[j...].starts(with: "From ".utf8) { i += 1 }
            }
            out.append(bytes[i])
            atLineStart = bytes[i] == 0x0A
            i += 1
        }
        return out
    }
}
