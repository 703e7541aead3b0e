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
    ///
    /// The text is a range of the file's text (kept once by the document), not a copy; an edited entry has
    /// text of its own.
    public struct Entry: Sendable, Hashable {
        public internal(set) var key: String
        public internal(set) var value: String
        /// Where the key starts (1-based; columns count Unicode scalars).
        public internal(set) var line: Int
        public internal(set) var column: Int
        /// Where the value starts (the key's position for the short form and for entries made in code).
        public internal(set) var valueLine: Int = 0
        public internal(set) var valueColumn: Int = 0
        /// The entry as written, from the key through the `;` (or the value when the `;` was missing).
        var raw: TextSlice
        /// The key's length in `raw` (UTF-8 bytes).
        var keyLength: Int
        /// The value as written (quotes and escapes) within `raw`; nil for the short form `"key";`.
        var valueRange: Range<Int>?
        /// The translator comment's text (delimiters removed, trimmed).
        var commentText: TextSlice?

        /// An entry read from a file: its text is `raw`, a range of the file's text.
        init(
            key: String, value: String, comment: TextSlice?, line: Int, column: Int, raw: TextSlice, keyLength: Int,
            valueRange: Range<Int>?, valueLine: Int = 0, valueColumn: Int = 0
        ) {
            self.key = key
            self.value = value
            self.commentText = comment
            self.line = line
            self.column = column
            self.raw = raw
            self.keyLength = keyLength
            self.valueRange = valueRange
            self.valueLine = valueLine
            self.valueColumn = valueColumn
        }

        /// An entry made in code (or edited): text of its own.
        init(
            key: String, value: String, comment: String?, line: Int, column: Int, rawKey: String, rawMiddle: String,
            rawValue: String?, rawEnd: String
        ) {
            self.key = key
            self.value = value
            self.commentText = comment.map(TextSlice.init)
            self.line = line
            self.column = column
            (raw, keyLength, valueRange) = Self.raw(key: rawKey, middle: rawMiddle, value: rawValue, end: rawEnd)
        }

        static func raw(key: String, middle: String, value: String?, end: String) -> (TextSlice, Int, Range<Int>?) {
            let keyLength = key.utf8.count
            guard let value else { return (TextSlice(key + end), keyLength, nil) }
            let valueStart = keyLength + middle.utf8.count
            return (TextSlice(key + middle + value + end), keyLength, valueStart..<(valueStart + value.utf8.count))
        }

        /// The comment right before the entry (delimiters removed, trimmed), the translator comment.
        public var comment: String? { commentText?.string }
        /// True for the `"key";` short form, whose value is the key.
        public var isShortForm: Bool { valueRange == nil }
        /// The entry as it was written in the file.
        public var rawText: String { raw.string }

        var rawKey: String { raw[0..<keyLength].string }
        /// From the end of the key up to the value (`" = "`, comments kept); empty for the short form.
        var rawMiddle: String { valueRange.map { raw[keyLength..<$0.lowerBound].string } ?? "" }
        /// The value as written (quotes and escapes); nil for the short form `"key";`.
        var rawValue: String? { valueRange.map { raw[$0].string } }
        /// From the end of the value (or key) through the `;`; empty when the `;` was missing.
        var rawEnd: String { raw[(valueRange?.upperBound ?? keyLength)..<raw.count].string }
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

    /// The entries in file order (duplicates included).
    public private(set) var entries: [Entry]
    /// The text before each entry (`gaps[k]` before `entries[k]`) and, last, the text after the last entry:
    /// always one more than the entries.
    private var gaps: [Gap]
    public private(set) var format: Format
    /// Syntax findings (errors where CoreFoundation would truncate or reject the file; warnings for
    /// duplicates and odd escapes).
    public private(set) var diagnostics: [Diagnostic]
    /// The file name used in diagnostics.
    public var file: String
    /// The text of the file (UTF-8) while the document is unchanged; nil once edited.
    private var unchangedText: SourceText?
    /// The bytes read, kept only where the text cannot give them back: a property list, or bytes that were
    /// not valid text. Nil once edited.
    private var original: [UInt8]?
    private var lossy: Bool
    /// Key → index of its last entry (what a lookup sees), so that reading or setting a key is not a scan of
    /// every entry; derived from `entries`, so not part of equality.
    private var lastIndexByKey: [String: Int] = [:]

    public static func == (a: StringsDocument, b: StringsDocument) -> Bool {
        a.entries == b.entries && a.gaps == b.gaps && a.format == b.format && a.diagnostics == b.diagnostics
            && a.file == b.file && a.original == b.original && a.lossy == b.lossy
            && (a.unchangedText == nil) == (b.unchangedText == nil)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
        hasher.combine(gaps)
        hasher.combine(format)
        hasher.combine(diagnostics)
        hasher.combine(file)
        hasher.combine(original)
        hasher.combine(lossy)
    }

    /// An empty UTF-8 document.
    public init(file: String = "Localizable.strings", encoding: TextEncoding = .utf8(bom: false)) {
        entries = []
        gaps = [.empty]
        format = .text(encoding)
        diagnostics = []
        self.file = file
        unchangedText = nil
        original = nil
        lossy = false
    }

    /// Reads and parses a file; only I/O failures throw, syntax problems become ``diagnostics``.
    public init(contentsOf url: URL, file: String? = nil) throws {
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: url)) } catch {
            throw StringsCatalogError.io(path: url.path, message: "cannot read file: \(error.localizedDescription)")
        }
        self.init(parsing: bytes, file: file ?? url.path)
    }

    /// Parses bytes (text in any supported encoding, or a binary/XML property list).
    public init(parsing data: Data, file: String = "Localizable.strings") {
        self.init(parsing: [UInt8](data), file: file)
    }

    public init(parsing bytes: [UInt8], file: String = "Localizable.strings") {
        self.file = file
        entries = []
        gaps = [.empty]
        diagnostics = []
        unchangedText = nil
        original = nil
        lossy = false
        if bytes.starts(with: Array("bplist00".utf8)) {
            format = .binaryPropertyList
            original = bytes
            loadPropertyList(bytes)
            reindex()
            return
        }
        let decoded = TextEncoding.decodeToUTF8(bytes)
        format = .text(decoded.encoding)
        if let bad = decoded.firstInvalidByte {
            lossy = true
            original = bytes
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
        if Self.looksLikeXML(decoded.utf8) {
            format = .xmlPropertyList
            original = bytes
            loadPropertyList(bytes)
            reindex()
            return
        }
        let text = SourceText(decoded.utf8)
        let parsed = StringsParser.parse(text, file: file)
        entries = parsed.entries
        gaps = parsed.gaps
        unchangedText = text
        diagnostics += parsed.diagnostics
        diagnostics += Self.duplicateDiagnostics(entries: entries, file: file)
        reindex()
    }

    private mutating func reindex() {
        lastIndexByKey = [:]
        lastIndexByKey.reserveCapacity(entries.count)
        for k in entries.indices { lastIndexByKey[entries[k].key] = k }
    }

    /// True when the text, after leading white space, starts like an XML property list.
    static func looksLikeXML(_ utf8: [UInt8]) -> Bool {
        var it = utf8.makeIterator()
        var decoder = UTF8()
        var offset = 0
        loop: while true {
            switch decoder.decode(&it) {
            case .scalarValue(let c) where c.properties.isWhitespace: offset += UTF8.width(c)
            default: break loop
            }
        }
        let head = utf8[offset...]
        return ["<?xml", "<!DOCTYPE plist", "<plist"].contains { head.starts(with: Array($0.utf8)) }
    }

    private mutating func loadPropertyList(_ bytes: [UInt8]) {
        if let problem = XMLInput.propertyListProblem(bytes, file: file, what: "property list") {
            diagnostics.append(problem)
            return
        }
        do {
            let plist = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
            guard let dict = plist as? [String: Any] else {
                diagnostics.append(
                    Diagnostic(
                        file: file, line: 1, column: 1, severity: .error, code: "syntax",
                        message: "property list is not a dictionary of strings"))
                return
            }
            let newline = Gap.one(TextSlice("\n"))
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
                entries.append(e)
                gaps.append(newline)
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
        // By index: the key and line are read without copying each entry.
        for k in entries.indices {
            if let line = firstLine[entries[k].key] {
                let e = entries[k]
                result.append(
                    Diagnostic(
                        file: file, line: e.line, column: e.column, severity: .warning, code: "duplicate-key",
                        message: "duplicate key \"\(e.key)\" (first at line \(line)); the last value wins"))
            } else {
                firstLine[entries[k].key] = entries[k].line
            }
        }
        return result
    }

    // MARK: Reading

    /// The document as a list of entries and the text between them (built on each call; empty text
    /// between two entries is left out).
    public var segments: [Segment] {
        var out: [Segment] = []
        out.reserveCapacity(entries.count * 2 + 1)
        for (k, e) in entries.enumerated() {
            for piece in gaps[k].pieces where !piece.isEmpty { out.append(.trivia(piece.string)) }
            out.append(.entry(e))
        }
        for piece in gaps[entries.count].pieces where !piece.isEmpty { out.append(.trivia(piece.string)) }
        return out
    }

    /// Key → value, the last duplicate winning (what a lookup sees).
    public var dictionary: [String: String] {
        var d: [String: String] = [:]
        d.reserveCapacity(entries.count)
        for k in entries.indices { d[entries[k].key] = entries[k].value }
        return d
    }

    /// Keys in file order, each once.
    public var keys: [String] {
        var seen = Set<String>()
        seen.reserveCapacity(entries.count)
        var out: [String] = []
        out.reserveCapacity(entries.count)
        for k in entries.indices where seen.insert(entries[k].key).inserted { out.append(entries[k].key) }
        return out
    }

    /// The value of `key` (the last duplicate wins).
    public subscript(key: String) -> String? {
        entry(forKey: key)?.value
    }

    /// The translator comment of `key`.
    public func comment(forKey key: String) -> String? {
        entry(forKey: key)?.comment
    }

    /// The entry of `key` a lookup sees (the last duplicate).
    public func entry(forKey key: String) -> Entry? {
        lastIndexByKey[key].map { entries[$0] }
    }

    /// True when any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    // MARK: Editing

    /// Marks the document changed: it is written from its pieces from now on.
    private mutating func edited() {
        original = nil
        unchangedText = nil
    }

    /// Rewrites the value of entry `index` (its key text, comment and surroundings stay); false when it
    /// already has it.
    private mutating func replaceValue(at index: Int, with value: String) -> Bool {
        var e = entries[index]
        if e.value == value && (!e.isShortForm || value == e.key) { return false }
        let middle = e.isShortForm ? " = " : e.rawMiddle
        let end = e.isShortForm ? ";" : e.rawEnd
        (e.raw, e.keyLength, e.valueRange) = Entry.raw(
            key: e.rawKey, middle: middle, value: Self.quote(value), end: end)
        e.value = value
        entries[index] = e
        return true
    }

    /// Sets the value of every entry to `transform(entry)`, in one pass: each keeps its key text, comment and
    /// surroundings, as with ``setValue(_:forKey:comment:)``.
    mutating func rewriteValues(_ transform: (Entry) -> String) {
        var changed = false
        for i in entries.indices where replaceValue(at: i, with: transform(entries[i])) { changed = true }
        if changed { edited() }
    }

    /// Sets the value of `key`. An existing entry (the last duplicate) keeps its key text, comment and
    /// surroundings and only its value is rewritten; a new key is appended with its comment.
    public mutating func setValue(_ value: String, forKey key: String, comment: String? = nil) {
        if let index = lastIndexByKey[key] {
            if replaceValue(at: index, with: value) { edited() }
            return
        }
        let stats = textStatistics()
        // New lines follow the file's own line ending.
        let nl = stats.containsCRLF ? "\r\n" : "\n"
        var added: [String] = []
        if let last = stats.lastByte {
            if last != UInt8(ascii: "\n") && last != UInt8(ascii: "\r") { added.append(nl) }
            added.append(nl)
        }
        if let comment { added.append("/* \(comment.replacingOccurrences(of: "*/", with: "* /")) */" + nl) }
        gaps[gaps.count - 1] = Gap(gaps[gaps.count - 1].pieces + added.map(TextSlice.init))
        let line = stats.newlines + added.reduce(0) { $0 + $1.utf8.count(where: { $0 == UInt8(ascii: "\n") }) } + 1
        entries.append(
            Entry(
                key: key, value: value, comment: comment, line: line, column: 1, rawKey: Self.quote(key),
                rawMiddle: " = ", rawValue: Self.quote(value), rawEnd: ";"))
        lastIndexByKey[key] = entries.count - 1
        gaps.append(.one(TextSlice(nl)))
        edited()
    }

    /// Whether the text has a CRLF line ending, how many `\n` it has, and its last byte (nil when empty),
    /// read from the pieces without joining them.
    private func textStatistics() -> (containsCRLF: Bool, newlines: Int, lastByte: UInt8?) {
        var crlf = false
        var newlines = 0
        var previous: UInt8?
        func scan(_ slice: TextSlice) {
            slice.source.bytes.withUnsafeBufferPointer { buffer in
                for b in buffer[slice.range] {
                    if b == UInt8(ascii: "\n") {
                        newlines += 1
                        if previous == UInt8(ascii: "\r") { crlf = true }
                    }
                    previous = b
                }
            }
        }
        for (k, e) in entries.enumerated() {
            for piece in gaps[k].pieces { scan(piece) }
            scan(e.raw)
        }
        for piece in gaps[entries.count].pieces { scan(piece) }
        return (crlf, newlines, previous)
    }

    /// Removes every entry of `key`, with the translator comment right before it and the rest of its
    /// line when that is only whitespace. Returns whether anything was removed.
    @discardableResult
    public mutating func removeEntry(forKey key: String) -> Bool {
        var removed = false
        var i = 0
        while i < entries.count {
            guard entries[i].key == key else {
                i += 1
                continue
            }
            removed = true
            // Trailing whitespace up to and including the newline (in the piece of text right after it).
            var after = gaps[i + 1].pieces
            let next = after[0]
            var j = 0
            while j < next.count, next[j] == UInt8(ascii: " ") || next[j] == UInt8(ascii: "\t") { j += 1 }
            if j < next.count, next[j] == UInt8(ascii: "\n") { j += 1 }
            if j == 0 || j == next.count || next[j - 1] == UInt8(ascii: "\n") { after[0] = next[j..<next.count] }
            // A comment directly before it (only spaces and one newline in between), in the piece right before it.
            var before = gaps[i].pieces
            if entries[i].commentText != nil, let last = before.last, !last.isEmpty {
                let text = last.string
                let kept = Self.dropTrailingComment(text)
                if kept != text { before[before.count - 1] = TextSlice(kept) }
            }
            gaps[i] = Gap(before + after)
            gaps.remove(at: i + 1)
            entries.remove(at: i)
        }
        if removed {
            reindex()
            edited()
        }
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

    /// The text as UTF-8, joined from its pieces.
    private var textBytes: [UInt8] {
        if let unchangedText { return unchangedText.bytes }
        var out: [UInt8] = []
        out.reserveCapacity(gaps.reduce(0) { $0 + $1.count } + entries.reduce(0) { $0 + $1.raw.count })
        for (k, e) in entries.enumerated() {
            gaps[k].append(to: &out)
            e.raw.append(to: &out)
        }
        gaps[gaps.count - 1].append(to: &out)
        return out
    }

    /// The document as text (for text formats, exactly the decoded file when unchanged).
    public var text: String { String(decoding: textBytes, as: UTF8.self) }

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
            // Unchanged, the text is the file's text, so this gives back the bytes read.
            return Data(encoding.encode(utf8: textBytes))
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
