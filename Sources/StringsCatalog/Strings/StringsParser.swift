/// The `.strings` grammar of CoreFoundation's old-style property list parser, with recovery.
///
/// It reads the UTF-8 bytes of the text (every character the grammar looks for is ASCII, or U+2028/U+2029)
/// and gives entries and the text between them as byte ranges of that text; only keys, values and
/// diagnostics become Strings.
struct StringsParser {
    let source: SourceText
    let s: UnsafeBufferPointer<UInt8>
    let file: String
    var i = 0
    var entries: [StringsDocument.Entry] = []
    /// The text before each entry, then the text after the last one.
    var gaps: [Gap] = []
    var diagnostics: [Diagnostic] = []
    /// Byte offsets where lines start.
    private var lineStarts: [Int] = [0]
    /// All ASCII: columns are byte offsets.
    private let isASCII: Bool
    /// The last column counted (a line start, a byte offset on that line and the scalars before it), so
    /// that positions met in order along a long line are not counted from its start each time.
    private var columnCache: (lineStart: Int, offset: Int, scalars: Int) = (-1, 0, 0)
    private var triviaStart = 0
    /// The range of the last comment seen and whether only spaces and one newline follow it.
    private var lastComment: Range<Int>?
    private var braced = false
    private var closedBrace = false

    /// Parses `text` (which must be valid UTF-8).
    static func parse(_ text: SourceText, file: String) -> (
        entries: [StringsDocument.Entry], gaps: [Gap], diagnostics: [Diagnostic]
    ) {
        text.bytes.withUnsafeBufferPointer { buffer in
            var parser = StringsParser(source: text, bytes: buffer, file: file)
            parser.parse()
            return (parser.entries, parser.gaps, parser.diagnostics)
        }
    }

    private init(source: SourceText, bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.source = source
        s = bytes
        self.file = file
        var ascii = true
        var semicolons = 0
        var k = 0
        let n = bytes.count
        while k < n {
            let b = bytes[k]
            if b < 0x80 {
                if b == 0x0A || (b == 0x0D && (k + 1 >= n || bytes[k + 1] != 0x0A)) { lineStarts.append(k + 1) }
                if b == UInt8(ascii: ";") { semicolons += 1 }
                k += 1
            } else {
                ascii = false
                if b == 0xE2, k + 2 < n, bytes[k + 1] == 0x80, bytes[k + 2] == 0xA8 || bytes[k + 2] == 0xA9 {
                    lineStarts.append(k + 3)
                    k += 3
                } else {
                    k += 1
                }
            }
        }
        isASCII = ascii
        // Each entry ends with a ';': sized once instead of doubling (which leaves up to half unused), with
        // at most one entry per four bytes reserved whatever the values hold.
        let expected = min(semicolons, n / 4) + 1
        entries.reserveCapacity(expected)
        gaps.reserveCapacity(expected + 1)
    }

    /// Line and column (1-based; columns count Unicode scalars) of the byte offset `index`.
    mutating func position(_ index: Int) -> (line: Int, column: Int) {
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= index { lo = mid } else { hi = mid - 1 }
        }
        let start = lineStarts[lo]
        if isASCII { return (lo + 1, index - start + 1) }
        var from = start
        var scalars = 0
        if columnCache.lineStart == start && columnCache.offset <= index {
            from = columnCache.offset
            scalars = columnCache.scalars
        }
        for k in from..<index where s[k] & 0xC0 != 0x80 { scalars += 1 }
        columnCache = (start, index, scalars)
        return (lo + 1, scalars + 1)
    }

    mutating func diag(
        _ at: Int, _ severity: Diagnostic.Severity = .error, _ code: String = "syntax", _ message: String
    ) {
        let p = position(at)
        diagnostics.append(
            Diagnostic(file: file, line: p.line, column: p.column, severity: severity, code: code, message: message))
    }

    func text(_ r: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: s[r]), as: UTF8.self)
    }

    /// The scalar starting at byte offset `k` and its length in bytes.
    @inline(__always) func scalar(at k: Int) -> (Unicode.Scalar, Int) {
        let b0 = UInt32(s[k])
        if b0 < 0x80 { return (Unicode.Scalar(UInt8(b0)), 1) }
        let width = b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4
        guard k + width <= s.count else { return ("\u{FFFD}", 1) }
        var v = b0 & (width == 2 ? 0x1F : width == 3 ? 0x0F : 0x07)
        for j in 1..<width { v = v << 6 | UInt32(s[k + j] & 0x3F) }
        return (Unicode.Scalar(v) ?? "\u{FFFD}", width)
    }

    /// The length of the white space (as the strings parser sees it) at `k`, 0 when there is none.
    @inline(__always) func spaceWidth(_ k: Int) -> Int {
        let c = s[k]
        if (c >= 9 && c <= 13) || c == 0x20 { return 1 }
        if c == 0xE2, k + 2 < s.count, s[k + 1] == 0x80, s[k + 2] == 0xA8 || s[k + 2] == 0xA9 { return 3 }
        return 0
    }

    /// U+2028 or U+2029 at `k`.
    @inline(__always) func isLineSeparator(_ k: Int) -> Bool {
        s[k] == 0xE2 && k + 2 < s.count && s[k + 1] == 0x80 && (s[k + 2] == 0xA8 || s[k + 2] == 0xA9)
    }

    static func isUnquoted(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"),
            UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default: return false
        }
    }

    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let star = UInt8(ascii: "*")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    /// Skips whitespace and comments. Returns false on an unterminated `/*` (reported; the rest of the
    /// file is then trivia).
    mutating func skipSpace() -> Bool {
        while i < s.count {
            let w = spaceWidth(i)
            if w > 0 {
                i += w
                continue
            }
            let c = s[i]
            if c == Self.slash, i + 1 < s.count, s[i + 1] == Self.star {
                let start = i
                i += 2
                var closed = false
                while i + 1 < s.count {
                    if s[i] == Self.star && s[i + 1] == Self.slash {
                        closed = true
                        break
                    }
                    i += 1
                }
                guard closed else {
                    i = s.count
                    diag(start, .error, "syntax", "unterminated /* comment (CoreFoundation rejects the whole file)")
                    return false
                }
                i += 2
                lastComment = start..<i
                continue
            }
            if c == Self.slash, i + 1 < s.count, s[i + 1] == Self.slash {
                let start = i
                while i < s.count, s[i] != Self.newline, s[i] != Self.carriageReturn, !isLineSeparator(i) { i += 1 }
                lastComment = start..<i
                continue
            }
            return true
        }
        return true
    }

    /// The comment text for an entry starting at `entryStart`, when a comment ends right before it
    /// (with at most one line break between): delimiters removed, trimmed of White_Space.
    func attachedComment(before entryStart: Int) -> TextSlice? {
        guard let r = lastComment, r.upperBound <= entryStart, r.lowerBound >= triviaStart else { return nil }
        var newlines = 0
        for k in r.upperBound..<entryStart {
            if s[k] == Self.newline || (s[k] == Self.carriageReturn && (k + 1 >= s.count || s[k + 1] != Self.newline)) {
                newlines += 1
            }
        }
        guard newlines <= 1 else { return nil }
        var lo = r.lowerBound + 2
        var hi = s[r.lowerBound + 1] == Self.star ? r.upperBound - 2 : r.upperBound
        while lo < hi {
            let (c, width) = scalar(at: lo)
            guard c.properties.isWhitespace else { break }
            lo += width
        }
        while hi > lo {
            var k = hi - 1
            while k > lo && s[k] & 0xC0 == 0x80 { k -= 1 }
            guard scalar(at: k).0.properties.isWhitespace else { break }
            hi = k
        }
        return TextSlice(source, lo..<hi)
    }

    /// Parses a quoted or unquoted string at `i`. Returns nil (and reports) on an unterminated quote.
    mutating func parseString() -> String? {
        if s[i] == Self.quote || s[i] == Self.apostrophe {
            let quote = s[i]
            let start = i
            i += 1
            // Fast path: no escape before the closing quote.
            var j = i
            while j < s.count, s[j] != quote, s[j] != Self.backslash { j += 1 }
            if j < s.count, s[j] == quote {
                let value = text(i..<j)
                i = j + 1
                return value
            }
            var out = String.UnicodeScalarView()
            var pendingHigh: (value: UInt32, at: Int)?
            func flushHigh(_ p: inout StringsParser, _ out: inout String.UnicodeScalarView) {
                if let h = pendingHigh {
                    p.diag(h.at, .warning, "escape", String(format: "lone surrogate \\U%04X becomes U+FFFD", h.value))
                    out.append("\u{FFFD}")
                    pendingHigh = nil
                }
            }
            while i < s.count {
                let c = s[i]
                if c == quote {
                    flushHigh(&self, &out)
                    i += 1
                    return String(out)
                }
                if c == Self.backslash {
                    let escAt = i
                    i += 1
                    guard i < s.count else { break }
                    let (e, width) = scalar(at: i)
                    i += width
                    if e == "U" {
                        var v: UInt32 = 0
                        var n = 0
                        while n < 4, i < s.count, let d = hexValue(s[i]) {
                            v = v * 16 + d
                            i += 1
                            n += 1
                        }
                        if n == 0 {
                            diag(escAt, .warning, "escape", "\\U without hex digits")
                        }
                        if v >= 0xD800 && v < 0xDC00 {
                            flushHigh(&self, &out)
                            pendingHigh = (v, escAt)
                            continue
                        }
                        if v >= 0xDC00 && v < 0xE000 {
                            if let h = pendingHigh {
                                let combined = 0x10000 + ((h.value - 0xD800) << 10) + (v - 0xDC00)
                                out.append(Unicode.Scalar(combined)!)
                                pendingHigh = nil
                            } else {
                                diag(
                                    escAt, .warning, "escape",
                                    String(format: "lone surrogate \\U%04X becomes U+FFFD", v))
                                out.append("\u{FFFD}")
                            }
                            continue
                        }
                        flushHigh(&self, &out)
                        out.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                        continue
                    }
                    flushHigh(&self, &out)
                    switch e {
                    case "0"..."7":
                        var v = e.value - 0x30
                        var n = 1
                        while n < 3, i < s.count, s[i] >= 0x30, s[i] <= 0x37 {
                            v = v * 8 + UInt32(s[i] - 0x30)
                            i += 1
                            n += 1
                        }
                        if v < 128 {
                            out.append(Unicode.Scalar(v)!)
                        } else {
                            diag(
                                escAt, .warning, "escape",
                                "octal escape above \\177 means a NeXTSTEP-encoded byte; write \\U followed by the code point instead"
                            )
                            out.append("\u{FFFD}")
                        }
                    case "a": out.append("\u{07}")
                    case "b": out.append("\u{08}")
                    case "f": out.append("\u{0C}")
                    case "n": out.append("\n")
                    case "r": out.append("\r")
                    case "t": out.append("\t")
                    case "v": out.append("\u{0B}")
                    default: out.append(e)  // \" \\ \' and a backslash before a real newline
                    }
                    continue
                }
                flushHigh(&self, &out)
                // The text up to the next quote or backslash, as it is.
                var j = i + 1
                while j < s.count, s[j] != quote, s[j] != Self.backslash { j += 1 }
                out.append(contentsOf: text(i..<j).unicodeScalars)
                i = j
            }
            diag(start, .error, "syntax", "unterminated string (missing closing \(quote == Self.quote ? "\"" : "'"))")
            i = start
            return nil
        }
        let start = i
        while i < s.count, Self.isUnquoted(s[i]) { i += 1 }
        return text(start..<i)
    }

    func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - 0x30)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - 0x61 + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - 0x41 + 10)
        default: return nil
        }
    }

    /// Ends the text before an entry (or after the last one) at `end`.
    mutating func flushTrivia(upTo end: Int) {
        gaps.append(.one(TextSlice(source, triviaStart..<max(end, triviaStart))))
        triviaStart = max(end, triviaStart)
    }

    /// Skips to the start of the next line (recovery).
    mutating func skipLine() {
        while i < s.count, s[i] != Self.newline, s[i] != Self.carriageReturn { i += 1 }
    }

    static func describe(_ c: Unicode.Scalar) -> String {
        let code = String(format: "U+%04X", c.value)
        if c.value >= 0x21 && c.value < 0x7F { return "'\(Character(c))'" }
        let name = c.properties.name.map { " \($0)" } ?? ""
        return code + name
    }

    /// The character at `k`, described for a message.
    func describe(at k: Int) -> String { Self.describe(scalar(at: k).0) }

    mutating func parse() {
        guard skipSpace() else { return finish() }
        if i < s.count, s[i] == UInt8(ascii: "{") {
            braced = true
            i += 1
        }
        while true {
            guard skipSpace() else { break }
            guard i < s.count else { break }
            let c = s[i]
            if closedBrace {
                diag(i, .error, "syntax", "text after the closing '}' (CoreFoundation ignores it)")
                i = s.count
                break
            }
            if c == Self.quote || c == Self.apostrophe || Self.isUnquoted(c) {
                parseEntry()
                continue
            }
            if c == UInt8(ascii: "}") && braced {
                closedBrace = true
                i += 1
                continue
            }
            // A stray character: CoreFoundation stops reading here (or rejects the file).
            switch c {
            case UInt8(ascii: ";"):
                diag(i, .error, "syntax", "stray ';' (an empty statement; CoreFoundation stops reading here)")
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "{"), UInt8(ascii: ")"), UInt8(ascii: "("), UInt8(ascii: ","),
                UInt8(ascii: "="):
                diag(
                    i, .error, "syntax",
                    "unexpected \(describe(at: i)) between entries (CoreFoundation stops reading here)")
                i += 1
            default:
                let (stray, width) = scalar(at: i)
                if stray.properties.isWhitespace || stray == "\u{FEFF}" {
                    diag(
                        i, .error, "syntax",
                        "\(Self.describe(stray)) is not whitespace to the strings parser (CoreFoundation stops reading here)"
                    )
                    i += width
                } else {
                    diag(
                        i, .error, "syntax",
                        "unexpected \(Self.describe(stray)) between entries (expected a key; CoreFoundation stops reading here); "
                            + "skipped to the end of the line")
                    skipLine()
                }
            }
        }
        if braced && !closedBrace {
            // At the last character.
            var last = max(s.count - 1, 0)
            while last > 0 && s[last] & 0xC0 == 0x80 { last -= 1 }
            diag(last, .error, "syntax", "missing closing '}'")
        }
        finish()
    }

    mutating func finish() {
        flushTrivia(upTo: s.count)
    }

    mutating func parseEntry() {
        let entryStart = i
        let (line, column) = position(entryStart)
        let comment = attachedComment(before: entryStart)
        guard let key = parseString() else {
            skipLine()
            return
        }
        let afterKey = i
        let keyIsQuoted = s[entryStart] == Self.quote || s[entryStart] == Self.apostrophe
        guard skipSpace(), i < s.count else {
            diag(afterKey, .error, "syntax", "expected '=' or ';' after key \"\(key)\" but the file ended")
            return
        }
        if s[i] == UInt8(ascii: ";") {
            i += 1
            flushTrivia(upTo: entryStart)
            entries.append(
                StringsDocument.Entry(
                    key: key, value: key, comment: comment, line: line, column: column,
                    raw: TextSlice(source, entryStart..<i), keyLength: afterKey - entryStart, valueRange: nil))
            triviaStart = i
            lastComment = nil
            return
        }
        guard s[i] == UInt8(ascii: "=") else {
            let what =
                keyIsQuoted ? "expected '=' or ';' after key \"\(key)\"" : "expected '=' after unquoted key \"\(key)\""
            diag(i, .error, "syntax", "\(what), found \(describe(at: i)) (CoreFoundation rejects the whole file)")
            skipLine()
            return
        }
        i += 1
        guard skipSpace(), i < s.count else {
            diag(i, .error, "syntax", "expected a value after '=' for key \"\(key)\" but the file ended")
            return
        }
        let valueStart = i
        guard s[i] == Self.quote || s[i] == Self.apostrophe || Self.isUnquoted(s[i]) else {
            diag(
                i, .error, "syntax",
                "expected a string value for key \"\(key)\", found \(describe(at: i)) (CoreFoundation rejects the whole file)"
            )
            skipLine()
            return
        }
        guard let value = parseString() else {
            skipLine()
            return
        }
        let afterValue = i
        var end = afterValue
        let commentsClosed = skipSpace()
        if commentsClosed, i < s.count, s[i] == UInt8(ascii: ";") {
            i += 1
            end = i
        } else if !commentsClosed {
            i = s.count
        } else {
            let found = i < s.count ? describe(at: i) : "the end of the file"
            diag(
                afterValue, .error, "syntax",
                "missing ';' after the value of \"\(key)\", found \(found) (CoreFoundation rejects the whole file)")
            i = afterValue
        }
        let valuePosition = position(valueStart)
        flushTrivia(upTo: entryStart)
        entries.append(
            StringsDocument.Entry(
                key: key, value: value, comment: comment, line: line, column: column,
                raw: TextSlice(source, entryStart..<end), keyLength: afterKey - entryStart,
                valueRange: (valueStart - entryStart)..<(afterValue - entryStart), valueLine: valuePosition.line,
                valueColumn: valuePosition.column))
        triviaStart = end
        lastComment = nil
    }
}
