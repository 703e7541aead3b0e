import Foundation
import Support

/// The property parser: group, name and parameters of a content line as byte ranges in the line (folded into a
/// ``Head``), parameter values (quoted, multiple, vCard 2.1 bare ones, RFC 6868 caret escapes) and the
/// parameters as values for properties kept verbatim. It reads the lexer's current line in place and keeps
/// only ranges into it, so a line costs no allocation.
///
/// ```swift
/// var line = CheckedBuffer<UInt8>(capacity: 64)  // the lexer's current line
/// defer { line.deallocate() }
/// Array("item1.tel;type=cell:+1 555".utf8).withUnsafeBufferPointer { line.append(contentsOf: $0) }
/// var properties = VCardPropertyParser(line: line)
/// defer { properties.deallocate() }
/// let head = try properties.parse(line, from: 0)
/// print(properties.name(head), properties.materializedParameters().count)  // TEL 1
/// ```
struct VCardPropertyParser {
    /// A syntax error in a content line: the 1-based column and what was expected.
    struct Failure: Error {
        var column: Int
        var message: String
    }

    /// A parsed content line: group and name decoded, parameters summarized (their bytes stay in `line`, described by
    /// `paramSpans`), the value still bytes in `line`.
    /// Plain data (no references), so that passing it around costs no reference counting.
    struct Head {
        /// The group (`item1` of `item1.TEL`) as a byte range in `line`; `groupStart < 0` when absent.
        var groupStart: Int
        var groupEnd: Int
        var nameStart: Int
        var nameEnd: Int
        var kind: PropertyKind
        var valueStart: Int = 0
        var encoding: UInt8 = 0  // 0 none, 1 quoted-printable, 2 base64
        /// The last `CHARSET` value as a byte range in `line`; `charsetStart < 0` when absent.
        var charsetStart = -1
        var charsetEnd = -1
        var hasParameters = false
        var types: UInt32 = 0
        /// The first TYPE the model does not name, as a byte range in `line` (RFC 6868 escapes still in);
        /// `customStart < 0` when none.
        var customStart = -1
        var customEnd = -1
        var pref: Int?
        var valueIsText = false
        var omitYear: Int?
    }

    /// One parameter as byte ranges in `line`; its values are `valueSpans[valuesStart..<valuesEnd]` (none for a
    /// vCard 2.1 bare parameter).
    struct ParamSpan {
        var nameStart: Int
        var nameEnd: Int
        var valuesStart: Int
        var valuesEnd: Int
    }

    struct ValueSpan {
        var start: Int
        var end: Int
        var quoted: Bool
    }

    /// The content line being parsed: a view of the lexer's buffer (not owned), set by
    /// ``parse(_:from:)`` and valid until the lexer reads the next line. Its bytes may be rewritten in place.
    private(set) var line: CheckedBuffer<UInt8>
    /// The parameters of the current line, and their values (owned).
    private(set) var paramSpans = CheckedBuffer<ParamSpan>(capacity: 16)
    private(set) var valueSpans = CheckedBuffer<ValueSpan>(capacity: 32)

    /// A parser that will read `line`'s content lines (see ``line``).
    init(line: CheckedBuffer<UInt8>) { self.line = line }

    /// Frees the span buffers (not the line); the owner calls it once, and uses the parser no more.
    func deallocate() {
        paramSpans.deallocate()
        valueSpans.deallocate()
    }

    /// Parses the content line `line` (a view of the lexer's buffer, read from `start`, where its name or
    /// group begins): upper-cases the property and parameter names in place and records the parameters.
    /// Throws the column and message of the first syntax error (then the line is skipped).
    mutating func parse(_ line: CheckedBuffer<UInt8>, from start: Int) throws(Failure) -> Head {
        self.line = line
        let n = line.count
        var i = start
        var groupEnd = -1
        while i < n {
            let b = line[i]
            if isNameByte(b) {
                i += 1
                continue
            }
            if b == dot && groupEnd < 0 && i > start {
                groupEnd = i
                i += 1
                continue
            }
            break
        }
        let nameStart = groupEnd >= 0 ? groupEnd + 1 : start
        if i == nameStart || i == n || (line[i] != colon && line[i] != semicolon) {
            if i < n && i > nameStart && line[i] != colon && line[i] != semicolon {
                let shown = String(decoding: line.extracting(i..<i + 1), as: UTF8.self)
                throw Failure(
                    column: i + 1,
                    message:
                        "unexpected '\(shown)' in property name (expected ':' or ';' after '\(text(nameStart, i))'); line skipped"
                )
            } else if i == nameStart {
                throw Failure(
                    column: i + 1,
                    message: "expected a property name, found '\(linePreview(line, from: start))'; line skipped")
            } else {
                throw Failure(
                    column: i + 1, message: "expected ':' after the property name '\(text(nameStart, i))'; line skipped"
                )
            }
        }
        for k in nameStart..<i { line[k] = upper(line[k]) }
        var head = Head(
            groupStart: groupEnd >= 0 ? start : -1, groupEnd: groupEnd, nameStart: nameStart, nameEnd: i,
            kind: propertyKind(nameStart, i))
        paramSpans.removeAll()
        valueSpans.removeAll()
        while i < n && line[i] == semicolon {
            i += 1
            let pStart = i
            while i < n && line[i] != equals && line[i] != semicolon && line[i] != colon { i += 1 }
            var pEnd = i
            while pEnd > pStart && (line[pEnd - 1] == space || line[pEnd - 1] == tab) { pEnd -= 1 }
            for k in pStart..<pEnd { line[k] = upper(line[k]) }
            let valuesStart = valueSpans.count
            if i < n && line[i] == equals {
                i += 1
                while true {
                    if i < n && line[i] == quote {
                        let qStart = i + 1
                        i += 1
                        while i < n && line[i] != quote { i += 1 }
                        if i == n {
                            throw Failure(
                                column: qStart,
                                message:
                                    "unterminated quoted value of parameter \(text(pStart, pEnd)) (expected '\"'); line skipped"
                            )
                        }
                        valueSpans.append(ValueSpan(start: qStart, end: i, quoted: true))
                        i += 1
                    } else {
                        let vStart = i
                        while i < n && line[i] != comma && line[i] != semicolon && line[i] != colon { i += 1 }
                        valueSpans.append(ValueSpan(start: vStart, end: i, quoted: false))
                    }
                    if i < n && line[i] == comma {
                        i += 1
                        continue
                    }
                    break
                }
            } else if pEnd == pStart {
                continue
            }
            let span = ParamSpan(
                nameStart: pStart, nameEnd: pEnd, valuesStart: valuesStart, valuesEnd: valueSpans.count)
            paramSpans.append(span)
            interpret(span, into: &head)
        }
        guard i < n && line[i] == colon else {
            throw Failure(column: i + 1, message: "expected ':' before the value of \(name(head)); line skipped")
        }
        head.hasParameters = !paramSpans.isEmpty
        head.valueStart = i + 1
        return head
    }

    /// The property group of the current line (`item1`), nil when it has none.
    func group(_ head: Head) -> String? {
        head.groupStart < 0 ? nil : text(head.groupStart, head.groupEnd)
    }

    /// The property name of the current line (upper-cased).
    func name(_ head: Head) -> String { text(head.nameStart, head.nameEnd) }

    @inline(__always) func text(_ s: Int, _ e: Int) -> String {
        String(decoding: line.extracting(s..<e), as: UTF8.self)
    }

    func propertyKind(_ s: Int, _ e: Int) -> PropertyKind { PropertyKind.of(name: line.extracting(s..<e)) }

    /// Exact comparison of `line[s..<e]` with an upper-case ASCII keyword.
    @inline(__always) func isKeyword(_ s: Int, _ e: Int, _ keyword: StaticString) -> Bool {
        equalsKeyword(line.extracting(s..<e), keyword)
    }

    /// Case-insensitive comparison of `line[s..<e]` with an upper-case ASCII keyword.
    @inline(__always) func isKeywordIgnoringCase(_ s: Int, _ e: Int, _ keyword: StaticString) -> Bool {
        equalsIgnoringCase(line.extracting(s..<e), keyword)
    }

    func integer(_ v: ValueSpan) -> Int? {
        guard v.end > v.start, v.end - v.start < 10 else { return nil }
        var n = 0
        for k in v.start..<v.end {
            let b = line[k]
            guard b >= 0x30 && b <= 0x39 else { return nil }
            n = n * 10 + Int(b - 0x30)
        }
        return n
    }

    /// Folds what the model needs from one parameter into `head`.
    func interpret(_ p: ParamSpan, into head: inout Head) {
        let s = p.nameStart
        let e = p.nameEnd
        if p.valuesStart == p.valuesEnd {
            // vCard 2.1 bare parameter: an encoding or a type.
            let kind = encodingKind(s, e)
            if kind != 0 {
                head.encoding = kind
            } else if !isKeyword(s, e, "8BIT") && !isKeyword(s, e, "7BIT") {
                addType(s, e, to: &head)
            }
            return
        }
        let first = valueSpans[p.valuesStart]
        if isKeyword(s, e, "TYPE") {
            for v in valueSpans.extracting(p.valuesStart..<p.valuesEnd) {
                if v.quoted {
                    var a = v.start
                    for k in v.start...v.end where k == v.end || line[k] == comma {
                        addType(a, k, to: &head)
                        a = k + 1
                    }
                } else {
                    addType(v.start, v.end, to: &head)
                }
            }
        } else if isKeyword(s, e, "PREF") {
            head.pref = integer(first)
        } else if isKeyword(s, e, "ENCODING") {
            head.encoding = encodingKind(first.start, first.end)
        } else if isKeyword(s, e, "CHARSET") {
            head.charsetStart = first.start
            head.charsetEnd = first.end
        } else if isKeyword(s, e, "VALUE") {
            head.valueIsText = isKeywordIgnoringCase(first.start, first.end, "TEXT")
        } else if isKeyword(s, e, "X-APPLE-OMIT-YEAR") {
            head.omitYear = integer(first)
        }
    }

    func encodingKind(_ s: Int, _ e: Int) -> UInt8 {
        if isKeywordIgnoringCase(s, e, "QUOTED-PRINTABLE") || isKeywordIgnoringCase(s, e, "QP") { return 1 }
        if isKeywordIgnoringCase(s, e, "B") || isKeywordIgnoringCase(s, e, "BASE64") { return 2 }
        return 0
    }

    /// Adds the TYPE value `line[s..<e]` to `head`: a flag, or the first custom label.
    func addType(_ s: Int, _ e: Int, to head: inout Head) {
        guard e > s else { return }
        if let flag = TypeFlags.flag(of: line.extracting(s..<e)) {
            head.types |= flag
        } else if head.customStart < 0 {
            head.customStart = s
            head.customEnd = e
        }
    }

    // MARK: Parameters as values

    /// The parameters of the current line as values (for properties kept verbatim and rare lookups).
    func materializedParameters() -> [VCardParameter] {
        var result: [VCardParameter] = []
        result.reserveCapacity(paramSpans.count)
        for p in paramSpans.all {
            let name = text(p.nameStart, p.nameEnd)
            if p.valuesStart == p.valuesEnd {
                let isEncoding = encodingKind(p.nameStart, p.nameEnd) != 0 || name == "8BIT" || name == "7BIT"
                result.append(VCardParameter(name: isEncoding ? "ENCODING" : "TYPE", values: [name]))
                continue
            }
            let splitQuoted = name == "TYPE" || name == "SORT-AS"
            var values: [String] = []
            for v in valueSpans.extracting(p.valuesStart..<p.valuesEnd) {
                let value = paramText(v.start, v.end)
                if v.quoted && splitQuoted && value.utf8.contains(comma) {
                    values.append(
                        contentsOf: value.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
                } else {
                    values.append(value)
                }
            }
            result.append(VCardParameter(name: name, values: values))
        }
        return result
    }

    /// The `SORT-AS` values of the current line, as ``materializedParameters()`` gives them (quoted values
    /// split at commas), without building the other parameters.
    func appendSortAs(to out: inout [String]) {
        if out.isEmpty {
            // Room for every value at once (at most one per comma of a quoted value, plus one per value).
            var parts = 0
            for p in paramSpans.all
            where p.valuesStart < p.valuesEnd && isKeyword(p.nameStart, p.nameEnd, "SORT-AS") {
                for v in valueSpans.extracting(p.valuesStart..<p.valuesEnd) {
                    parts += 1
                    if v.quoted { for k in v.start..<v.end where line[k] == comma { parts += 1 } }
                }
            }
            if parts > 1 { out.reserveCapacity(parts) }
        }
        for p in paramSpans.all
        where p.valuesStart < p.valuesEnd && isKeyword(p.nameStart, p.nameEnd, "SORT-AS") {
            for v in valueSpans.extracting(p.valuesStart..<p.valuesEnd) {
                var hasComma = false
                var asciiAround = true
                if v.quoted {
                    for k in v.start..<v.end where line[k] == comma {
                        hasComma = true
                        // A comma next to a non-ASCII character may be part of a larger Character (a combining
                        // mark after it, a prepended mark before it): then split as a String.
                        if asciiAround && !commaStandsAlone(at: k, in: v.start..<v.end) { asciiAround = false }
                    }
                }
                if hasComma && !asciiAround {
                    out.append(
                        contentsOf: paramText(v.start, v.end).split(separator: ",", omittingEmptySubsequences: false)
                            .map(String.init))
                } else if hasComma {
                    // RFC 6868 escapes never produce a comma, so splitting the bytes splits the decoded text.
                    var a = v.start
                    for k in v.start...v.end where k == v.end || line[k] == comma {
                        out.append(paramText(a, k))
                        a = k + 1
                    }
                } else {
                    out.append(paramText(v.start, v.end))
                }
            }
        }
    }

    /// Whether the comma at `line[k]` is a Character of its own within `line[range]` (as `String.split`
    /// sees it): true when its neighbours are ASCII, or when they do not join it into one grapheme.
    func commaStandsAlone(at k: Int, in range: Range<Int>) -> Bool {
        let before = k > range.lowerBound && line[k - 1] >= 0x80
        let after = k + 1 < range.upperBound && line[k + 1] >= 0x80
        if !before && !after { return true }
        var s = range.lowerBound
        var e = range.upperBound
        if before {
            // The character before: back over at most 3 continuation bytes to its lead byte.
            var a = k - 1
            while a > range.lowerBound && k - a < 4 && line[a] & 0xC0 == 0x80 { a -= 1 }
            s = a
        } else {
            s = k
        }
        if after {
            var z = k + 2
            while z < range.upperBound && z - k < 5 && line[z] & 0xC0 == 0x80 { z += 1 }
            e = z
        } else {
            e = k + 1
        }
        let text = String(decoding: line.extracting(s..<e), as: UTF8.self)
        // Split as String.split would: the comma stands alone when every piece around it has 1 Character.
        let expected = (before ? 1 : 0) + 1 + (after ? 1 : 0)
        return text.count == expected && text.unicodeScalars.count == expected
    }

    /// Parameter value text `line[s..<e]` with RFC 6868 escapes (^n, ^^, ^') decoded.
    func paramText(_ s: Int, _ e: Int) -> String { VCardValueDecoder.parameterText(line.extracting(s..<e)) }

    /// Whether the charset named by `line[s..<e]` is UTF-8 (or its ASCII subset).
    func isUTF8Name(_ s: Int, _ e: Int) -> Bool {
        var ascii = true
        for k in s..<e where line[k] >= 0x80 {
            ascii = false
            break
        }
        guard ascii else { return Self.isUTF8Name(text(s, e)) }
        return isKeywordIgnoringCase(s, e, "UTF-8") || isKeywordIgnoringCase(s, e, "UTF8")
            || isKeywordIgnoringCase(s, e, "US-ASCII") || isKeywordIgnoringCase(s, e, "ASCII")
    }

    static func isUTF8Name(_ charset: String) -> Bool {
        switch charset.uppercased() {
        case "UTF-8", "UTF8", "US-ASCII", "ASCII": return true
        default: return false
        }
    }

    /// Whether the current line has a parameter `name` (upper-case) with a value.
    func hasParameter(_ name: StaticString) -> Bool {
        paramSpans.all.contains { $0.valuesStart < $0.valuesEnd && isKeyword($0.nameStart, $0.nameEnd, name) }
    }
}
