import Foundation
import Support

/// The addresses a campaign no longer mails: hard bounces and unsubscribes. A plain text file, one line
/// per address, that people can read, edit and add to by hand:
///
/// ```text
/// # address<TAB>reason<TAB>date (UTC): what `contacts bounces read` found; lines may be added by hand
/// anna@example.org	bounce 5.1.1 (550 5.1.1 user unknown)	2026-12-04T20:15:00Z
/// bob@example.org	unsubscribe	2026-12-04T20:16:02Z
/// carol@example.org
/// ```
///
/// Addresses are compared without regard to case. A line with just an address is valid (reason `manual`);
/// `#` starts a comment line; a line whose date does not parse is kept with no date and reported. The file
/// is written whole and atomically (``write(to:)``), new entries at the end, so what was there stays as it
/// was, comments included.
///
/// ```swift
/// var list = try SuppressionList(contentsOf: "campaign/suppressions.txt")
/// list.add(BounceNotice(address: "anna@example.org", kind: .hardBounce, status: "5.1.1"))
/// try list.write(to: "campaign/suppressions.txt")
/// list.contains("Anna@Example.org")   // true: compose skips her
/// ```
public struct SuppressionList: Sendable {
    public struct Entry: Sendable, Hashable {
        public var address: String
        public var reason: String
        /// When it was added (nil for a hand-written line without a date).
        public var date: Date?
        /// The line in the file (nil for an entry not yet written).
        public var line: Int?

        public init(address: String, reason: String, date: Date?, line: Int? = nil) {
            self.address = address
            self.reason = reason
            self.date = date
            self.line = line
        }
    }

    /// The entries, in file order (one per address: the first line for an address counts).
    public private(set) var entries: [Entry] = []
    /// Lines that could not be read fully (`file:line: message`); their addresses are still suppressed.
    public private(set) var diagnostics: [String] = []
    private var index: [String: Int] = [:]
    /// The file's text as read, kept byte for byte when written back.
    private var original = ""

    /// The header line a new file starts with.
    public static let header =
        "# address\treason\tdate (UTC): the addresses compose skips; lines may be added by hand\n"

    /// An empty list.
    public init() {}

    /// The list in `path`; a file that does not exist is an empty list.
    public init(contentsOf path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            self.init()
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ComposerError.io(path: path, message: "cannot read the suppression list")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ComposerError.io(path: path, message: "the suppression list is not UTF-8 text")
        }
        self.init(text: text, file: path)
    }

    /// The list in `text` (`file` names it in diagnostics).
    public init(text: String, file: String) {
        original = text
        for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = raw.split(separator: "\t", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let address = fields[0]
            guard address.contains("@"), !address.contains(" ") else {
                diagnostics.append("\(file):\(n + 1): '\(address)' is not an address; line ignored")
                continue
            }
            let reason = fields.count > 1 && !fields[1].isEmpty ? fields[1] : "manual"
            var date: Date?
            if fields.count > 2 && !fields[2].isEmpty {
                if case .success(let parsed) = ISODate.parse(fields[2]) {
                    date = Date(timeIntervalSince1970: parsed.millis / 1000)
                } else {
                    diagnostics.append("\(file):\(n + 1): '\(fields[2])' is not a date (expected 2026-12-04T20:15:00Z)")
                }
            }
            insert(Entry(address: address, reason: reason, date: date, line: n + 1))
        }
    }

    /// Whether `address` is suppressed (case does not count).
    public func contains(_ address: String) -> Bool { index[Self.key(address)] != nil }

    /// The entry of `address`, if any.
    public func entry(for address: String) -> Entry? { index[Self.key(address)].map { entries[$0] } }

    /// Adds `notice` when it suppresses (a hard bounce or an unsubscribe) and its address is not on the list
    /// yet; returns whether it was added.
    @discardableResult
    public mutating func add(_ notice: BounceNotice, date: Date = Date()) -> Bool {
        guard notice.suppresses else { return false }
        var reason = notice.kind.rawValue
        if let status = notice.status { reason += " \(status)" }
        if !notice.detail.isEmpty { reason += " (\(notice.detail))" }
        return add(Entry(address: notice.address, reason: reason, date: date))
    }

    /// Adds `entry` unless its address is on the list; returns whether it was added.
    @discardableResult
    public mutating func add(_ entry: Entry) -> Bool {
        guard !contains(entry.address) else { return false }
        var entry = entry
        entry.line = nil
        insert(entry)
        return true
    }

    /// The file's text: what was read, unchanged, then a line per new entry (tabs, line breaks and control
    /// characters in a reason become spaces).
    public var text: String {
        var out = original.isEmpty ? Self.header : original
        if !out.hasSuffix("\n") { out += "\n" }
        for entry in entries where entry.line == nil {
            let reason = String(
                entry.reason.map { $0.isNewline || $0 == "\t" || $0.asciiValue.map { $0 < 0x20 } == true ? " " : $0 })
            let date = entry.date.map { ISO8601DateFormatter().string(from: $0) } ?? ""
            out += "\(entry.address)\t\(reason)\t\(date)\n"
        }
        return out
    }

    /// Writes ``text`` to `path` atomically (a new file is owner-only).
    public func write(to path: String) throws {
        do { try AtomicFiles.replace(path, with: Array(text.utf8)) } catch {
            throw ComposerError.io(path: error.path, message: error.reason)
        }
    }

    private mutating func insert(_ entry: Entry) {
        let key = Self.key(entry.address)
        guard index[key] == nil else { return }
        index[key] = entries.count
        entries.append(entry)
    }

    private static func key(_ address: String) -> String {
        address.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
