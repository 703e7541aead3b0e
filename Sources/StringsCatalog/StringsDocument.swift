import Foundation

/// A `.strings` file as a lossless document: every comment, blank line, entry order, quoting style and
/// the original encoding are kept, so an unchanged document writes back byte for byte and editing one
/// value rewrites only that value.
///
/// The parser reads the full CoreFoundation old-style grammar (`/* */` and `//` comments anywhere, quoted
/// and unquoted keys, `"key";`, escapes `\n \t \r \" \\ \'`, `\Uxxxx` with surrogate pairs, octal, a
/// backslash before a newline, an optional `{ … }` around everything) and binary or XML property lists.
/// Where CoreFoundation would silently stop or reject the file, it records a ``Diagnostic`` with line and
/// column and keeps every readable entry.
///
/// ```swift
/// var doc = try StringsDocument(contentsOf: URL(fileURLWithPath: "de.lproj/Localizable.strings"))
/// doc["OK"]                           // "OK"
/// doc.setValue("Abbrechen", forKey: "Cancel")
/// try doc.write(to: url)              // only that value changed on disk
/// ```
public struct StringsDocument: Sendable, Hashable {
    /// One `key = value;` statement with the exact text it was written as.
    public struct Entry: Sendable, Hashable {
        public internal(set) var key: String
        public internal(set) var value: String
        /// The comment right before the entry (delimiters removed, trimmed), the translator comment.
        public internal(set) var comment: String?
        /// Where the key starts (1-based; columns count Unicode scalars).
        public internal(set) var line: Int
        public internal(set) var column: Int
        var rawKey: String
        /// From the end of the key up to the value (`" = "`, comments kept); empty for the short form.
        var rawMiddle: String
        /// The value as written (quotes and escapes); nil for the short form `"key";`.
        var rawValue: String?
        /// From the end of the value (or key) through the `;`; empty when the `;` was missing.
        var rawEnd: String

        /// Where the value starts (the key's position for the short form and for entries made in code).
        public internal(set) var valueLine: Int = 0
        public internal(set) var valueColumn: Int = 0

        /// True for the `"key";` short form, whose value is the key.
        public var isShortForm: Bool { rawValue == nil }
        /// The entry as it was written in the file.
        public var rawText: String { rawKey + rawMiddle + (rawValue ?? "") + rawEnd }
    }

    /// The document is a list of entries and the text between them (comments, blank lines, and any
    /// text the parser had to skip, kept verbatim).
    public enum Segment: Sendable, Hashable {
        case trivia(String)
        case entry(Entry)
    }

    /// How the file was stored.
    public enum Format: Sendable, Hashable {
        case text(TextEncoding)
        case binaryPropertyList
        case xmlPropertyList
    }

    public private(set) var segments: [Segment]
    public private(set) var format: Format
    /// Syntax findings (errors where CoreFoundation would truncate or reject the file; warnings for
    /// duplicates and odd escapes).
    public private(set) var diagnostics: [Diagnostic]
    /// The file name used in diagnostics.
    public var file: String
    private var original: [UInt8]?
    private var lossy: Bool

    /// An empty UTF-8 document.
    public init(file: String = "Localizable.strings", encoding: TextEncoding = .utf8(bom: false)) {
        segments = []
        format = .text(encoding)
        diagnostics = []
        self.file = file
        original = nil
        lossy = false
    }

    /// Reads and parses a file; only I/O failures throw, syntax problems become ``diagnostics``.
    public init(contentsOf url: URL, file: String? = nil) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw StringsCatalogError.io(path: url.path, message: "cannot read file: \(error.localizedDescription)")
        }
        self.init(parsing: data, file: file ?? url.path)
    }

    /// Parses bytes (text in any supported encoding, or a binary/XML property list).
    public init(parsing data: Data, file: String = "Localizable.strings") {
        self.init(parsing: [UInt8](data), file: file)
    }

    public init(parsing bytes: [UInt8], file: String = "Localizable.strings") {
        self.file = file
        original = bytes
        diagnostics = []
        segments = []
        lossy = false
        if bytes.starts(with: Array("bplist00".utf8)) {
            format = .binaryPropertyList
            loadPropertyList(bytes)
            return
        }
        let decoded = TextEncoding.decode(bytes)
        format = .text(decoded.encoding)
        if let bad = decoded.firstInvalidByte {
            lossy = true
            diagnostics.append(
                Diagnostic(
                    file: file, line: 1, column: 1, severity: .error, code: "encoding",
                    message: "bytes are not valid \(decoded.encoding) (first bad byte at offset \(bad)); "
                        + "save the file as UTF-8 or UTF-16 with a BOM"))
        }
        switch decoded.encoding {
        case .utf16LE(bom: false), .utf16BE(bom: false), .utf32LE(bom: false), .utf32BE(bom: false):
            // CoreFoundation (the app at run time, plutil, Xcode) reads a strings file without a BOM as UTF-8
            // and rejects this one; it is read here so that it can be fixed, but it is an error.
            diagnostics.append(
                Diagnostic(
                    file: file, line: 1, column: 1, severity: .error, code: "encoding",
                    message: "\(decoded.encoding) without a byte order mark: CoreFoundation reads the file as "
                        + "UTF-8 and rejects it (the app would show the keys); save it as UTF-8 or as UTF-16 with a BOM"
                ))
        default: break
        }
        let head = decoded.text.drop(while: { $0.isWhitespace })
        if head.hasPrefix("<?xml") || head.hasPrefix("<!DOCTYPE plist") || head.hasPrefix("<plist") {
            format = .xmlPropertyList
            loadPropertyList(bytes)
            return
        }
        var parser = StringsParser(text: decoded.text, file: file)
        parser.parse()
        segments = parser.segments
        diagnostics += parser.diagnostics
        diagnostics += Self.duplicateDiagnostics(entries: entries, file: file)
    }

    private mutating func loadPropertyList(_ bytes: [UInt8]) {
        do {
            let plist = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
            guard let dict = plist as? [String: Any] else {
                diagnostics.append(
                    Diagnostic(
                        file: file, line: 1, column: 1, severity: .error, code: "syntax",
                        message: "property list is not a dictionary of strings"))
                return
            }
            for key in dict.keys.sorted() {
                guard let value = dict[key] as? String else {
                    diagnostics.append(
                        Diagnostic(
                            file: file, line: 1, column: 1, severity: .error, code: "syntax",
                            message: "value of \"\(key)\" is not a string"))
                    continue
                }
                let e = Entry(
                    key: key, value: value, comment: nil, line: 1, column: 1, rawKey: StringsDocument.quote(key),
                    rawMiddle: " = ", rawValue: StringsDocument.quote(value), rawEnd: ";")
                segments.append(.entry(e))
                segments.append(.trivia("\n"))
            }
        } catch {
            diagnostics.append(
                Diagnostic(
                    file: file, line: 1, column: 1, severity: .error, code: "syntax",
                    message: "unreadable property list: \(error.localizedDescription)"))
        }
    }

    static func duplicateDiagnostics(entries: [Entry], file: String) -> [Diagnostic] {
        var firstLine: [String: Int] = [:]
        firstLine.reserveCapacity(entries.count)
        var result: [Diagnostic] = []
        for e in entries {
            if let line = firstLine[e.key] {
                result.append(
                    Diagnostic(
                        file: file, line: e.line, column: e.column, severity: .warning, code: "duplicate-key",
                        message: "duplicate key \"\(e.key)\" (first at line \(line)); the last value wins"))
            } else {
                firstLine[e.key] = e.line
            }
        }
        return result
    }

    // MARK: Reading

    /// The entries in file order (duplicates included).
    public var entries: [Entry] {
        segments.compactMap { if case .entry(let e) = $0 { return e } else { return nil } }
    }

    /// Key → value, the last duplicate winning (what a lookup sees).
    public var dictionary: [String: String] {
        var d: [String: String] = [:]
        for e in entries { d[e.key] = e.value }
        return d
    }

    /// Keys in file order, each once.
    public var keys: [String] {
        var seen = Set<String>()
        return entries.map(\.key).filter { seen.insert($0).inserted }
    }

    /// The value of `key` (the last duplicate wins).
    public subscript(key: String) -> String? {
        entries.last(where: { $0.key == key })?.value
    }

    /// The translator comment of `key`.
    public func comment(forKey key: String) -> String? {
        entries.last(where: { $0.key == key })?.comment
    }

    /// True when any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    // MARK: Editing

    /// Sets the value of `key`. An existing entry (the last duplicate) keeps its key text, comment and
    /// surroundings and only its value is rewritten; a new key is appended with its comment.
    public mutating func setValue(_ value: String, forKey key: String, comment: String? = nil) {
        if let index = segments.lastIndex(where: {
            if case .entry(let e) = $0 { return e.key == key } else { return false }
        }),
            case .entry(var e) = segments[index]
        {
            if e.value == value && (!e.isShortForm || value == key) { return }
            if e.isShortForm {
                e.rawMiddle = " = "
                e.rawEnd = ";"
            }
            e.value = value
            e.rawValue = Self.quote(value)
            segments[index] = .entry(e)
            original = nil
            return
        }
        let text = self.text
        // New lines follow the file's own line ending.
        let nl = text.contains("\r\n") ? "\r\n" : "\n"
        let endsWithNewline = text.unicodeScalars.last == "\n" || text.unicodeScalars.last == "\r"
        if !text.isEmpty && !endsWithNewline { segments.append(.trivia(nl)) }
        if !text.isEmpty { segments.append(.trivia(nl)) }
        if let comment { segments.append(.trivia("/* \(comment.replacingOccurrences(of: "*/", with: "* /")) */" + nl)) }
        let line = self.text.unicodeScalars.filter { $0 == "\n" }.count + 1
        segments.append(
            .entry(
                Entry(
                    key: key, value: value, comment: comment, line: line, column: 1, rawKey: Self.quote(key),
                    rawMiddle: " = ", rawValue: Self.quote(value), rawEnd: ";")))
        segments.append(.trivia(nl))
        original = nil
    }

    /// Removes every entry of `key`, with the translator comment right before it and the rest of its
    /// line when that is only whitespace. Returns whether anything was removed.
    @discardableResult
    public mutating func removeEntry(forKey key: String) -> Bool {
        var removed = false
        var i = 0
        while i < segments.count {
            guard case .entry(let e) = segments[i], e.key == key else {
                i += 1
                continue
            }
            removed = true
            // Trailing whitespace up to and including the newline.
            if i + 1 < segments.count, case .trivia(let after) = segments[i + 1] {
                let scalars = Array(after.unicodeScalars)
                var j = 0
                while j < scalars.count, scalars[j] == " " || scalars[j] == "\t" { j += 1 }
                if j < scalars.count, scalars[j] == "\n" { j += 1 }
                if j == 0 || j == scalars.count || scalars[j - 1] == "\n" {
                    segments[i + 1] = .trivia(String(String.UnicodeScalarView(scalars[j...])))
                }
            }
            // A comment directly before it (only spaces and one newline in between).
            if i > 0, case .trivia(let before) = segments[i - 1], e.comment != nil {
                segments[i - 1] = .trivia(Self.dropTrailingComment(before))
            }
            segments.remove(at: i)
        }
        if removed { original = nil }
        return removed
    }

    /// Removes a trailing comment (and the blank line before it) from trivia text.
    static func dropTrailingComment(_ text: String) -> String {
        var s = Substring(text)
        while let last = s.last, last == " " || last == "\t" || last == "\n" || last == "\r" { s = s.dropLast() }
        if s.hasSuffix("*/"), let start = s.range(of: "/*", options: .backwards) {
            s = s[..<start.lowerBound]
        } else if let lineStart = s.lastIndex(of: "\n").map({ s.index(after: $0) }) ?? Optional(s.startIndex),
            s[lineStart...].trimmingCharacters(in: .whitespaces).hasPrefix("//")
        {
            s = s[..<lineStart]
        } else {
            return text
        }
        // Keep the text up to the end of the previous line.
        while let last = s.last, last == " " || last == "\t" || last == "\n" || last == "\r" { s = s.dropLast() }
        let startsWithNewline = text.first == "\n" || text.first == "\r\n" || text.first == "\r"
        return s.isEmpty && !startsWithNewline ? "" : String(s) + "\n"
    }

    // MARK: Writing

    /// The document as text (for text formats, exactly the decoded file when unchanged).
    public var text: String {
        var out = ""
        for seg in segments {
            switch seg {
            case .trivia(let t): out += t
            case .entry(let e): out += e.rawText
            }
        }
        return out
    }

    /// The bytes to write: the original bytes when nothing changed, else the text in the original encoding
    /// (or the property list in its original format).
    public func data() throws -> Data {
        if let original { return Data(original) }
        if lossy {
            throw StringsCatalogError.wouldLoseData(
                file: file, message: "the file was not valid text; writing it back would replace bytes with U+FFFD")
        }
        switch format {
        case .text(let encoding):
            return Data(encoding.encode(text))
        case .binaryPropertyList, .xmlPropertyList:
            do {
                return try PropertyListSerialization.data(
                    fromPropertyList: dictionary, format: format == .binaryPropertyList ? .binary : .xml, options: 0)
            } catch {
                throw StringsCatalogError.io(path: file, message: "cannot encode property list: \(error)")
            }
        }
    }

    /// Writes the document atomically.
    public func write(to url: URL) throws {
        let bytes = try data()
        do { try bytes.write(to: url, options: .atomic) } catch {
            throw StringsCatalogError.io(path: url.path, message: "cannot write: \(error.localizedDescription)")
        }
    }

    /// A value as a quoted `.strings` literal (`"` and `\` escaped, newlines as `\n`).
    public static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    out += "\\U" + String(format: "%04X", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
