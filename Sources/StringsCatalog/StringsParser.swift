/// The `.strings` grammar of CoreFoundation's old-style property list parser, with recovery.
struct StringsParser {
    let s: [Unicode.Scalar]
    let file: String
    var i = 0
    var segments: [StringsDocument.Segment] = []
    var diagnostics: [Diagnostic] = []
    private var lineStarts: [Int] = [0]
    private var triviaStart = 0
    /// The range of the last comment seen and whether only spaces and one newline follow it.
    private var lastComment: Range<Int>?
    private var braced = false
    private var closedBrace = false

    /// The text as UTF-8 and, per scalar index, its UTF-8 offset (so slices become Strings by copying bytes).
    /// ASCII text needs no table (scalar index and offset are the same); otherwise 32-bit offsets while
    /// the text allows them (a table of `Int` for 4 GiB and more).
    private let utf8: [UInt8]
    private var utf8Offsets32: [UInt32] = []
    private var utf8Offsets: [Int] = []

    init(text: String, file: String) {
        s = Array(text.unicodeScalars)
        utf8 = Array(text.utf8)
        if utf8.count != s.count {
            var offset = 0
            if utf8.count < Int(UInt32.max) {
                utf8Offsets32.reserveCapacity(s.count + 1)
                for c in s {
                    utf8Offsets32.append(UInt32(truncatingIfNeeded: offset))
                    offset += UTF8.width(c)
                }
                utf8Offsets32.append(UInt32(truncatingIfNeeded: offset))
            } else {
                utf8Offsets.reserveCapacity(s.count + 1)
                for c in s {
                    utf8Offsets.append(offset)
                    offset += UTF8.width(c)
                }
                utf8Offsets.append(offset)
            }
        }
        self.file = file
        for (k, c) in s.enumerated() {
            if c == "\n" || c == "\u{2028}" || c == "\u{2029}" || (c == "\r" && (k + 1 >= s.count || s[k + 1] != "\n"))
            {
                lineStarts.append(k + 1)
            }
        }
    }

    func position(_ index: Int) -> (line: Int, column: Int) {
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= index { lo = mid } else { hi = mid - 1 }
        }
        return (lo + 1, index - lineStarts[lo] + 1)
    }

    mutating func diag(
        _ at: Int, _ severity: Diagnostic.Severity = .error, _ code: String = "syntax", _ message: String
    ) {
        let p = position(at)
        diagnostics.append(
            Diagnostic(file: file, line: p.line, column: p.column, severity: severity, code: code, message: message))
    }

    func text(_ r: Range<Int>) -> String {
        String(decoding: utf8[utf8Offset(r.lowerBound)..<utf8Offset(r.upperBound)], as: UTF8.self)
    }

    @inline(__always) func utf8Offset(_ scalarIndex: Int) -> Int {
        if !utf8Offsets32.isEmpty { return Int(utf8Offsets32[scalarIndex]) }
        if !utf8Offsets.isEmpty { return utf8Offsets[scalarIndex] }
        return scalarIndex
    }

    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        (c.value >= 9 && c.value <= 13) || c == " " || c == "\u{2028}" || c == "\u{2029}"
    }

    static func isUnquoted(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "$", "/", ":", ".", "-": return true
        default: return false
        }
    }

    /// Skips whitespace and comments. Returns false on an unterminated `/*` (reported; the rest of the
    /// file is then trivia).
    mutating func skipSpace() -> Bool {
        while i < s.count {
            let c = s[i]
            if Self.isSpace(c) {
                i += 1
                continue
            }
            if c == "/", i + 1 < s.count, s[i + 1] == "*" {
                let start = i
                i += 2
                var closed = false
                while i + 1 < s.count {
                    if s[i] == "*" && s[i + 1] == "/" {
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
            if c == "/", i + 1 < s.count, s[i + 1] == "/" {
                let start = i
                while i < s.count, s[i] != "\n", s[i] != "\r", s[i] != "\u{2028}", s[i] != "\u{2029}" { i += 1 }
                lastComment = start..<i
                continue
            }
            return true
        }
        return true
    }

    /// The comment text for an entry starting at `entryStart`, when a comment ends right before it
    /// (with at most one line break between).
    func attachedComment(before entryStart: Int) -> String? {
        guard let r = lastComment, r.upperBound <= entryStart, r.lowerBound >= triviaStart else { return nil }
        var newlines = 0
        for k in r.upperBound..<entryStart {
            if s[k] == "\n" || (s[k] == "\r" && (k + 1 >= s.count || s[k + 1] != "\n")) { newlines += 1 }
        }
        guard newlines <= 1 else { return nil }
        var body = text(r)
        if body.hasPrefix("/*") {
            body = String(body.dropFirst(2).dropLast(2))
        } else {
            body = String(body.dropFirst(2))
        }
        // Trimmed of White_Space (the set of `.whitespacesAndNewlines`), without a Foundation round trip.
        let scalars = body.unicodeScalars
        var lo = scalars.startIndex
        var hi = scalars.endIndex
        while lo < hi && scalars[lo].properties.isWhitespace { lo = scalars.index(after: lo) }
        while hi > lo && scalars[scalars.index(before: hi)].properties.isWhitespace { hi = scalars.index(before: hi) }
        return String(scalars[lo..<hi])
    }

    /// Parses a quoted or unquoted string at `i`. Returns nil (and reports) on an unterminated quote.
    mutating func parseString() -> String? {
        if s[i] == "\"" || s[i] == "'" {
            let quote = s[i]
            let start = i
            i += 1
            // Fast path: no escape before the closing quote.
            var j = i
            while j < s.count, s[j] != quote, s[j] != "\\" { j += 1 }
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
                if c == "\\" {
                    let escAt = i
                    i += 1
                    guard i < s.count else { break }
                    let e = s[i]
                    i += 1
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
                        while n < 3, i < s.count, s[i].value >= 0x30, s[i].value <= 0x37 {
                            v = v * 8 + (s[i].value - 0x30)
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
                out.append(c)
                i += 1
            }
            diag(start, .error, "syntax", "unterminated string (missing closing \(quote == "\"" ? "\"" : "'"))")
            i = start
            return nil
        }
        let start = i
        while i < s.count, Self.isUnquoted(s[i]) { i += 1 }
        return text(start..<i)
    }

    func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 0x30
        case "a"..."f": return c.value - 0x61 + 10
        case "A"..."F": return c.value - 0x41 + 10
        default: return nil
        }
    }

    mutating func flushTrivia(upTo end: Int) {
        if end > triviaStart { segments.append(.trivia(text(triviaStart..<end))) }
        triviaStart = end
    }

    /// Skips to the start of the next line (recovery).
    mutating func skipLine() {
        while i < s.count, s[i] != "\n", s[i] != "\r" { i += 1 }
    }

    static func describe(_ c: Unicode.Scalar) -> String {
        let code = String(format: "U+%04X", c.value)
        if c.value >= 0x21 && c.value < 0x7F { return "'\(Character(c))'" }
        let name = c.properties.name.map { " \($0)" } ?? ""
        return code + name
    }

    mutating func parse() {
        guard skipSpace() else { return finish() }
        if i < s.count, s[i] == "{" {
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
            if c == "\"" || c == "'" || Self.isUnquoted(c) {
                parseEntry()
                continue
            }
            if c == "}" && braced {
                closedBrace = true
                i += 1
                continue
            }
            // A stray character: CoreFoundation stops reading here (or rejects the file).
            switch c {
            case ";":
                diag(i, .error, "syntax", "stray ';' (an empty statement; CoreFoundation stops reading here)")
                i += 1
            case "}", "{", ")", "(", ",", "=":
                diag(
                    i, .error, "syntax",
                    "unexpected \(Self.describe(c)) between entries (CoreFoundation stops reading here)")
                i += 1
            default:
                if c.properties.isWhitespace || c == "\u{FEFF}" {
                    diag(
                        i, .error, "syntax",
                        "\(Self.describe(c)) is not whitespace to the strings parser (CoreFoundation stops reading here)"
                    )
                    i += 1
                } else {
                    diag(
                        i, .error, "syntax",
                        "unexpected \(Self.describe(c)) between entries (expected a key; CoreFoundation stops reading here); "
                            + "skipped to the end of the line")
                    skipLine()
                }
            }
        }
        if braced && !closedBrace {
            diag(max(s.count - 1, 0), .error, "syntax", "missing closing '}'")
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
        let keyIsQuoted = s[entryStart] == "\"" || s[entryStart] == "'"
        guard skipSpace(), i < s.count else {
            diag(afterKey, .error, "syntax", "expected '=' or ';' after key \"\(key)\" but the file ended")
            return
        }
        if s[i] == ";" {
            i += 1
            flushTrivia(upTo: entryStart)
            segments.append(
                .entry(
                    StringsDocument.Entry(
                        key: key, value: key, comment: comment, line: line, column: column,
                        rawKey: text(entryStart..<afterKey), rawMiddle: "", rawValue: nil, rawEnd: text(afterKey..<i))))
            triviaStart = i
            lastComment = nil
            return
        }
        guard s[i] == "=" else {
            let what =
                keyIsQuoted ? "expected '=' or ';' after key \"\(key)\"" : "expected '=' after unquoted key \"\(key)\""
            diag(i, .error, "syntax", "\(what), found \(Self.describe(s[i])) (CoreFoundation rejects the whole file)")
            skipLine()
            return
        }
        i += 1
        guard skipSpace(), i < s.count else {
            diag(i, .error, "syntax", "expected a value after '=' for key \"\(key)\" but the file ended")
            return
        }
        let valueStart = i
        guard s[i] == "\"" || s[i] == "'" || Self.isUnquoted(s[i]) else {
            diag(
                i, .error, "syntax",
                "expected a string value for key \"\(key)\", found \(Self.describe(s[i])) (CoreFoundation rejects the whole file)"
            )
            skipLine()
            return
        }
        guard let value = parseString() else {
            skipLine()
            return
        }
        let afterValue = i
        var rawEnd = ""
        let commentsClosed = skipSpace()
        if commentsClosed, i < s.count, s[i] == ";" {
            i += 1
            rawEnd = text(afterValue..<i)
        } else if !commentsClosed {
            i = s.count
        } else {
            let found = i < s.count ? Self.describe(s[i]) : "the end of the file"
            diag(
                afterValue, .error, "syntax",
                "missing ';' after the value of \"\(key)\", found \(found) (CoreFoundation rejects the whole file)")
            i = afterValue
        }
        flushTrivia(upTo: entryStart)
        segments.append(
            .entry(
                StringsDocument.Entry(
                    key: key, value: value, comment: comment, line: line, column: column,
                    rawKey: text(entryStart..<afterKey), rawMiddle: text(afterKey..<valueStart),
                    rawValue: text(valueStart..<afterValue), rawEnd: rawEnd,
                    valueLine: position(valueStart).line, valueColumn: position(valueStart).column)))
        triviaStart = rawEnd.isEmpty ? afterValue : i
        lastComment = nil
    }
}
