/// A gettext `.po` (or `.pot`) document: its entries in order, read with file:line:col diagnostics and
/// written in the layout msgfmt, Poedit and Weblate expect.
///
/// ```swift
/// var po = POFile()
/// po.entries.append(POFile.Entry(context: "Cancel", msgid: "Cancel", msgstr: ["Abbrechen"]))
/// let text = po.text()
/// let back = try POFile(parsing: text, file: "de.po")
/// back.entries[0].msgstr   // ["Abbrechen"]
/// ```
public struct POFile: Sendable, Hashable {
    /// One entry (`msgid ""` with the header fields is entry 0 of a written file).
    public struct Entry: Sendable, Hashable {
        public var translatorComments: [String] = []
        /// `#.` lines: the developer's comment.
        public var extractedComments: [String] = []
        /// `#,` flags (`fuzzy`, `c-format`, `objc-format`).
        public var flags: [String] = []
        public var context: String?
        public var msgid: String
        public var msgidPlural: String?
        /// One value, or `msgstr[0]`, `msgstr[1]`, … for a plural entry.
        public var msgstr: [String]
        /// An obsolete (`#~`) entry.
        public var obsolete = false
        /// The 1-based line of the entry's first keyword in the file it was read from (0 when built).
        public var line = 0

        public init(
            context: String?, msgid: String, msgidPlural: String? = nil, msgstr: [String], flags: [String] = [],
            extractedComments: [String] = [], obsolete: Bool = false
        ) {
            self.context = context
            self.msgid = msgid
            self.msgidPlural = msgidPlural
            self.msgstr = msgstr
            self.flags = flags
            self.extractedComments = extractedComments
            self.obsolete = obsolete
        }

        public var isFuzzy: Bool { flags.contains("fuzzy") }
    }

    public var entries: [Entry] = []
    /// Entries that could not be read (each with its line and column); the others are in ``entries``.
    public internal(set) var problems: [Diagnostic] = []

    public init() {}

    /// The header entry's fields (`Language`, `Plural-Forms`, …), from the entry with an empty msgid.
    public var header: [String: String] {
        guard let h = entries.first(where: { $0.msgid.isEmpty && $0.context == nil && !$0.obsolete }) else {
            return [:]
        }
        var out: [String: String] = [:]
        for line in (h.msgstr.first ?? "").split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            out[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return out
    }

    // MARK: Writing

    /// The document text (UTF-8), entries separated by blank lines.
    public func text() -> String {
        entries.map(Self.text(of:)).joined(separator: "\n")
    }

    static func text(of e: Entry) -> String {
        var out = ""
        for c in e.translatorComments { out += c.isEmpty ? "#\n" : "# \(c)\n" }
        for c in e.extractedComments { out += c.isEmpty ? "#.\n" : "#. \(c)\n" }
        if !e.flags.isEmpty { out += "#, " + e.flags.joined(separator: ", ") + "\n" }
        let prefix = e.obsolete ? "#~ " : ""
        if let c = e.context { out += field(prefix + "msgctxt", c, prefix) }
        out += field(prefix + "msgid", e.msgid, prefix)
        if let p = e.msgidPlural {
            out += field(prefix + "msgid_plural", p, prefix)
            for (i, s) in e.msgstr.enumerated() { out += field(prefix + "msgstr[\(i)]", s, prefix) }
        } else {
            out += field(prefix + "msgstr", e.msgstr.first ?? "", prefix)
        }
        return out
    }

    /// `keyword "value"`, or `keyword ""` and one quoted line per line of a multi-line value.
    static func field(_ keyword: String, _ value: String, _ prefix: String) -> String {
        let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count <= 1 || lines.count == 2 && lines[1].isEmpty {
            return "\(keyword) \"\(escape(value))\"\n"
        }
        var out = "\(keyword) \"\"\n"
        for (i, l) in lines.enumerated() where !(i == lines.count - 1 && l.isEmpty) {
            out += "\(prefix)\"\(escape(String(l)))\(i < lines.count - 1 ? "\\n" : "")\"\n"
        }
        return out
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{07}": out += "\\a"
            case "\u{08}": out += "\\b"
            case "\u{0B}": out += "\\v"
            case "\u{0C}": out += "\\f"
            case let c where c.value < 0x20 || c.value == 0x7F:
                let octal = String(c.value, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
