import Foundation

/// The property parser: group, name and parameters of a content line as byte ranges, folded into a ``Head``.
extension VCardParser {
    /// A parsed content line: group and name decoded, parameters summarized (their bytes stay in `line`,
    /// described by `paramSpans`), the value still bytes in `line`.
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

    /// One parameter as byte ranges in `line`; its values are `st.pointee.valueSpans[valuesStart..<valuesEnd]` (none for a
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

    func parseHead(from start: Int) -> Head? {
        let n = lineLength
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
                diagnose(
                    lineNumber, i + 1,
                    "unexpected '\(shown)' in property name (expected ':' or ';' after '\(text(nameStart, i))'); line skipped"
                )
            } else if i == nameStart {
                diagnose(lineNumber, i + 1, "expected a property name, found '\(preview(from: start))'; line skipped")
            } else {
                diagnose(
                    lineNumber, i + 1, "expected ':' after the property name '\(text(nameStart, i))'; line skipped")
            }
            return nil
        }
        for k in nameStart..<i { line[k] = upper(line[k]) }
        var head = Head(
            groupStart: groupEnd >= 0 ? start : -1, groupEnd: groupEnd, nameStart: nameStart, nameEnd: i,
            kind: propertyKind(nameStart, i))
        st.pointee.paramSpans.removeAll()
        st.pointee.valueSpans.removeAll()
        while i < n && line[i] == semicolon {
            i += 1
            let pStart = i
            while i < n && line[i] != equals && line[i] != semicolon && line[i] != colon { i += 1 }
            var pEnd = i
            while pEnd > pStart && (line[pEnd - 1] == space || line[pEnd - 1] == tab) { pEnd -= 1 }
            for k in pStart..<pEnd { line[k] = upper(line[k]) }
            let valuesStart = st.pointee.valueSpans.count
            if i < n && line[i] == equals {
                i += 1
                while true {
                    if i < n && line[i] == quote {
                        let qStart = i + 1
                        i += 1
                        while i < n && line[i] != quote { i += 1 }
                        if i == n {
                            diagnose(
                                lineNumber, qStart,
                                "unterminated quoted value of parameter \(text(pStart, pEnd)) (expected '\"'); line skipped"
                            )
                            return nil
                        }
                        st.pointee.valueSpans.append(ValueSpan(start: qStart, end: i, quoted: true))
                        i += 1
                    } else {
                        let vStart = i
                        while i < n && line[i] != comma && line[i] != semicolon && line[i] != colon { i += 1 }
                        st.pointee.valueSpans.append(ValueSpan(start: vStart, end: i, quoted: false))
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
                nameStart: pStart, nameEnd: pEnd, valuesStart: valuesStart, valuesEnd: st.pointee.valueSpans.count)
            st.pointee.paramSpans.append(span)
            interpret(span, into: &head)
        }
        guard i < n && line[i] == colon else {
            diagnose(lineNumber, i + 1, "expected ':' before the value of \(name(head)); line skipped")
            return nil
        }
        head.hasParameters = !st.pointee.paramSpans.isEmpty
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

    func propertyKind(_ s: Int, _ e: Int) -> PropertyKind {
        switch e - s {
        case 1: return line[s] == 0x4E ? .n : .other
        case 2: return isKeyword(s, e, "FN") ? .fn : .other
        case 3:
            if isKeyword(s, e, "TEL") { return .tel }
            if isKeyword(s, e, "UID") { return .uid }
            if isKeyword(s, e, "ORG") { return .org }
            if isKeyword(s, e, "URL") { return .url }
            if isKeyword(s, e, "ADR") { return .adr }
        case 4:
            if isKeyword(s, e, "NOTE") { return .note }
            if isKeyword(s, e, "BDAY") { return .bday }
            if isKeyword(s, e, "LANG") { return .lang }
            if isKeyword(s, e, "KIND") { return .kind }
        case 5:
            if isKeyword(s, e, "EMAIL") { return .email }
            if isKeyword(s, e, "TITLE") { return .title }
            if isKeyword(s, e, "PHOTO") { return .photo }
        case 6: return isKeyword(s, e, "MEMBER") ? .member : .other
        case 7: return isKeyword(s, e, "VERSION") ? .version : .other
        case 8:
            if isKeyword(s, e, "NICKNAME") { return .nickname }
            if isKeyword(s, e, "X-ABDATE") { return .abDate }
        case 10: return isKeyword(s, e, "CATEGORIES") ? .categories : .other
        case 11: return isKeyword(s, e, "ANNIVERSARY") ? .anniversary : .other
        case 20: return isKeyword(s, e, "X-PHONETIC-LAST-NAME") ? .phoneticLast : .other
        case 21: return isKeyword(s, e, "X-PHONETIC-FIRST-NAME") ? .phoneticFirst : .other
        case 24: return isKeyword(s, e, "X-ADDRESSBOOKSERVER-KIND") ? .abKind : .other
        case 26: return isKeyword(s, e, "X-ADDRESSBOOKSERVER-MEMBER") ? .abMember : .other
        default: break
        }
        return .other
    }

    /// Exact comparison of `line[s..<e]` with an upper-case ASCII keyword.
    @inline(__always) func isKeyword(_ s: Int, _ e: Int, _ keyword: StaticString) -> Bool {
        guard e - s == keyword.utf8CodeUnitCount else { return false }
        let k = keyword.utf8Start
        for i in 0..<(e - s) where line[s + i] != k[i] { return false }
        return true
    }

    /// Case-insensitive comparison of `line[s..<e]` with an upper-case ASCII keyword.
    @inline(__always) func isKeywordIgnoringCase(_ s: Int, _ e: Int, _ keyword: StaticString) -> Bool {
        guard e - s == keyword.utf8CodeUnitCount else { return false }
        let k = keyword.utf8Start
        for i in 0..<(e - s) where upper(line[s + i]) != k[i] { return false }
        return true
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
        let first = st.pointee.valueSpans[p.valuesStart]
        if isKeyword(s, e, "TYPE") {
            for v in st.pointee.valueSpans.extracting(p.valuesStart..<p.valuesEnd) {
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

    func addType(_ s: Int, _ e: Int, to head: inout Head) {
        switch e - s {
        case 0: return
        case 3:
            if isKeywordIgnoringCase(s, e, "FAX") {
                head.types |= TypeFlags.fax
                return
            }
            if isKeywordIgnoringCase(s, e, "MSG") { return }
        case 4:
            if isKeywordIgnoringCase(s, e, "HOME") {
                head.types |= TypeFlags.home
                return
            }
            if isKeywordIgnoringCase(s, e, "WORK") {
                head.types |= TypeFlags.work
                return
            }
            if isKeywordIgnoringCase(s, e, "CELL") {
                head.types |= TypeFlags.cell
                return
            }
            if isKeywordIgnoringCase(s, e, "PREF") {
                head.types |= TypeFlags.pref
                return
            }
            if isKeywordIgnoringCase(s, e, "MAIN") {
                head.types |= TypeFlags.main
                return
            }
            if isKeywordIgnoringCase(s, e, "TEXT") || isKeywordIgnoringCase(s, e, "X400") { return }
        case 5:
            if isKeywordIgnoringCase(s, e, "VOICE") { return }
            if isKeywordIgnoringCase(s, e, "PAGER") {
                head.types |= TypeFlags.pager
                return
            }
            if isKeywordIgnoringCase(s, e, "OTHER") {
                head.types |= TypeFlags.other
                return
            }
        case 6:
            if isKeywordIgnoringCase(s, e, "MOBILE") {
                head.types |= TypeFlags.cell
                return
            }
            if isKeywordIgnoringCase(s, e, "IPHONE") {
                head.types |= TypeFlags.iphone
                return
            }
            if isKeywordIgnoringCase(s, e, "SCHOOL") {
                head.types |= TypeFlags.school
                return
            }
        case 8:
            if isKeywordIgnoringCase(s, e, "INTERNET") { return }
        case 10:
            if isKeywordIgnoringCase(s, e, "X-INTERNET") { return }
        default: break
        }
        if head.customStart < 0 {
            head.customStart = s
            head.customEnd = e
        }
    }
}
