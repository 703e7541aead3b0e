import Foundation
import ICUKit

/// One card read from a vCard file.
public enum VCardRecord: Sendable, Hashable {
    case contact(Contact)
    case group(Group)
}

/// The streaming vCard reader: 2.1, 3.0 and 4.0, card by card, on bytes.
///
/// It unfolds lines (space or tab), accepts CRLF, LF, CR and the doubled CR of some phone exports, reads
/// property groups (`item1.EMAIL`), parameters (2.1 bare types, quoted and multiple values, RFC 6868 `^`
/// escapes), value escapes and structured values, quoted-printable with soft line breaks, `CHARSET=` (through
/// ICU converters), base64 and `data:` photos. A bad line or a card without `END:VCARD` becomes a
/// ``VCardDiagnostic`` and reading goes on.
///
/// ```swift
/// let diagnostics = VCardReader.read(data: data, fileName: "big.vcf") { record in
///     if case .contact(let c) = record { print(c.displayName) }
/// }
/// ```
public enum VCardReader {
    /// Reads `data`, calling `body` for each card in file order; returns the diagnostics.
    public static func read(data: Data, fileName: String, _ body: (VCardRecord) -> Void) -> [VCardDiagnostic] {
        let parser = VCardParser(fileName: fileName)
        data.withUnsafeBytes { raw in
            parser.parse(raw.bindMemory(to: UInt8.self), emit: body)
        }
        return parser.diagnostics
    }
}

// MARK: - Byte constants

private let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A, space: UInt8 = 0x20, tab: UInt8 = 0x09
private let colon: UInt8 = 0x3A, semicolon: UInt8 = 0x3B, comma: UInt8 = 0x2C, equals: UInt8 = 0x3D
private let dot: UInt8 = 0x2E, quote: UInt8 = 0x22, backslash: UInt8 = 0x5C, caret: UInt8 = 0x5E

@inline(__always) private func upper(_ b: UInt8) -> UInt8 { (b >= 0x61 && b <= 0x7A) ? b - 0x20 : b }
@inline(__always) private func isNameByte(_ b: UInt8) -> Bool {
    (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
}

/// Which properties a card's builder treats as its own.
private enum ReadMode { case contact, groupCard }

/// A TYPE parameter summarized as bits, plus the first type the model does not know.
private struct TypeFlags {
    static let home: UInt32 = 1, work: UInt32 = 2, cell: UInt32 = 4, fax: UInt32 = 8, pager: UInt32 = 16
    static let pref: UInt32 = 32, iphone: UInt32 = 64, main: UInt32 = 128, other: UInt32 = 256
    static let school: UInt32 = 512
    var bits: UInt32 = 0
    var custom: String?
}

// MARK: - Parser

/// The parser owns two growable byte buffers (the unfolded content line and a decoding buffer), so it is a
/// class; it is created per read and never shared.
final class VCardParser {
    let fileName: String
    private(set) var diagnostics: [VCardDiagnostic] = []

    private var line: UnsafeMutablePointer<UInt8>
    private var lineCapacity = 4096
    private var lineLength = 0
    private var aux: UnsafeMutablePointer<UInt8>
    private var auxCapacity = 4096

    // Per card
    private var builder = CardBuilder()
    private var mode = ReadMode.contact
    private var base: UnsafePointer<UInt8>?
    /// In group-card mode: what the card said.
    private var groupResult: CardBuilder?
    private var inCard = false
    private var cardStartLine = 0
    private var cardStartOffset = 0
    private var junkReported = false
    private var lineNumber = 0
    private var seenIDs: [String: Int] = [:]

    init(fileName: String) {
        self.fileName = fileName
        line = .allocate(capacity: lineCapacity)
        aux = .allocate(capacity: auxCapacity)
    }

    deinit {
        line.deallocate()
        aux.deallocate()
    }

    func diagnose(_ line: Int, _ column: Int?, _ message: String) {
        diagnostics.append(VCardDiagnostic(file: fileName, line: line, column: column, message: message))
    }

    private func appendToLine(_ src: UnsafePointer<UInt8>, _ count: Int) {
        if lineLength + count > lineCapacity {
            var cap = lineCapacity * 2
            while cap < lineLength + count { cap *= 2 }
            let n = UnsafeMutablePointer<UInt8>.allocate(capacity: cap)
            n.update(from: line, count: lineLength)
            line.deallocate()
            line = n
            lineCapacity = cap
        }
        (line + lineLength).update(from: src, count: count)
        lineLength += count
    }

    private func reserveAux(_ count: Int) {
        if count > auxCapacity {
            var cap = auxCapacity * 2
            while cap < count { cap *= 2 }
            aux.deallocate()
            aux = .allocate(capacity: cap)
            auxCapacity = cap
        }
    }

    // MARK: Lines

    func parse(_ buf: UnsafeBufferPointer<UInt8>, emit: (VCardRecord) -> Void) {
        guard let base = buf.baseAddress, buf.count > 0 else {
            diagnose(1, nil, "no vCard found: the input is empty (expected BEGIN:VCARD)")
            return
        }
        let count = buf.count
        self.base = base
        var pos = 0
        // Skip a UTF-8 byte order mark.
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { pos = 3 }
        var sawCard = false

        /// The next physical line: [start, end) and the offset after its terminator.
        @inline(__always) func physical(_ from: Int) -> (start: Int, end: Int, next: Int) {
            var i = from
            while i < count {
                let b = base[i]
                if b == lf || b == cr { break }
                i += 1
            }
            let end = i
            if i < count && base[i] == cr {
                while i < count && base[i] == cr { i += 1 }
                if i < count && base[i] == lf { i += 1 }
            } else if i < count {
                i += 1
            }
            return (from, end, i)
        }

        var pending: (start: Int, end: Int, next: Int)? = pos < count ? physical(pos) : nil
        var pendingLine = 1
        while let cur = pending {
            let curLine = pendingLine
            pending = cur.next < count ? physical(cur.next) : nil
            pendingLine += 1
            if cur.start == cur.end { continue }
            lineLength = 0
            appendToLine(base + cur.start, cur.end - cur.start)
            // Unfold: continuation lines start with a space or a tab; quoted-printable soft breaks end with '='.
            while let p = pending {
                if p.end > p.start && (base[p.start] == space || base[p.start] == tab) {
                    appendToLine(base + p.start + 1, p.end - p.start - 1)
                } else if lineLength > 0 && line[lineLength - 1] == equals && p.end > p.start
                    && isQuotedPrintableLine() && !isCardBoundary(base + p.start, p.end - p.start)
                {
                    lineLength -= 1
                    appendToLine(base + p.start, p.end - p.start)
                } else {
                    break
                }
                pending = p.next < count ? physical(p.next) : nil
                pendingLine += 1
            }
            lineNumber = curLine
            if processLine(offset: cur.start, emit: emit) { sawCard = true }
        }
        if inCard {
            diagnose(cardStartLine, nil,
                     "card starting at line \(cardStartLine) has no END:VCARD (expected before the end of the input); its properties are kept")
            finishCard(endOffset: count, emit: emit)
        }
        if !sawCard && diagnostics.isEmpty {
            diagnose(1, nil, "no vCard found (expected BEGIN:VCARD)")
        }
    }

    private func isQuotedPrintableLine() -> Bool {
        // Look for QUOTED-PRINTABLE among the parameters (before the first ':' outside quotes).
        var inQuotes = false
        var i = 0
        let needle: [UInt8] = Array("QUOTED-PRINTABLE".utf8)
        while i < lineLength {
            let b = line[i]
            if b == quote { inQuotes.toggle() }
            else if b == colon && !inQuotes { return false }
            else if upper(b) == 0x51 && i + needle.count <= lineLength {
                var match = true
                for k in 0..<needle.count where upper(line[i + k]) != needle[k] {
                    match = false
                    break
                }
                if match { return true }
            }
            i += 1
        }
        return false
    }

    private func isCardBoundary(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        matchesKeyword(p, n, "END:VCARD") || matchesKeyword(p, n, "BEGIN:VCARD")
    }

    private func matchesKeyword(_ p: UnsafePointer<UInt8>, _ n: Int, _ keyword: StaticString) -> Bool {
        let k = keyword.utf8Start
        let kn = keyword.utf8CodeUnitCount
        guard n >= kn else { return false }
        for i in 0..<kn where upper(p[i]) != k[i] { return false }
        for i in kn..<n where p[i] != space && p[i] != tab { return false }
        return true
    }

    // MARK: Content lines

    /// Handles one unfolded content line; returns true when it began a card.
    private func processLine(offset: Int, emit: (VCardRecord) -> Void) -> Bool {
        let n = lineLength
        var i = 0
        while i < n && (line[i] == space || line[i] == tab) { i += 1 }
        if i == n { return false }
        if matchesKeyword(line + i, n - i, "BEGIN:VCARD") {
            if inCard {
                diagnose(cardStartLine, nil,
                         "card starting at line \(cardStartLine) has no END:VCARD (expected before BEGIN:VCARD at line \(lineNumber)); its properties are kept")
                finishCard(endOffset: offset, emit: emit)
            }
            inCard = true
            junkReported = false
            cardStartLine = lineNumber
            cardStartOffset = offset
            builder = CardBuilder()
            return true
        }
        if matchesKeyword(line + i, n - i, "END:VCARD") {
            if inCard {
                finishCard(endOffset: offset, emit: emit)
            } else {
                diagnose(lineNumber, i + 1, "END:VCARD without a BEGIN:VCARD before it")
            }
            return false
        }
        guard inCard else {
            if !junkReported {
                diagnose(lineNumber, i + 1, "expected BEGIN:VCARD, found '\(preview(from: i))'")
                junkReported = true
            }
            return false
        }
        if let property = parseHead(from: i) {
            handle(property, mode: mode, into: &builder)
        }
        return false
    }

    private func preview(from i: Int) -> String {
        let end = min(lineLength, i + 40)
        var text = String(decoding: UnsafeBufferPointer(start: line + i, count: end - i), as: UTF8.self)
        if end < lineLength { text += "…" }
        return text
    }

    /// A parsed content line: everything but the value is decoded; the value stays bytes in `line`.
    fileprivate struct Head {
        var group: String?
        var name: String
        var parameters: [VCardParameter]
        var valueStart: Int
        var encoding: UInt8  // 0 none, 1 quoted-printable, 2 base64
        var charset: String?
        var column: Int
    }

    private func parseHead(from start: Int) -> Head? {
        let n = lineLength
        var i = start
        var groupEnd = -1
        while i < n {
            let b = line[i]
            if isNameByte(b) { i += 1; continue }
            if b == dot && groupEnd < 0 && i > start { groupEnd = i; i += 1; continue }
            break
        }
        let nameStart = groupEnd >= 0 ? groupEnd + 1 : start
        if i == nameStart || i == n || (line[i] != colon && line[i] != semicolon) {
            if i < n && i > nameStart && line[i] != colon && line[i] != semicolon {
                let shown = String(decoding: UnsafeBufferPointer(start: line + i, count: 1), as: UTF8.self)
                diagnose(lineNumber, i + 1,
                         "unexpected '\(shown)' in property name (expected ':' or ';' after '\(String(decoding: UnsafeBufferPointer(start: line + nameStart, count: i - nameStart), as: UTF8.self))'); line skipped")
            } else if i == nameStart {
                diagnose(lineNumber, i + 1, "expected a property name, found '\(preview(from: start))'; line skipped")
            } else {
                diagnose(lineNumber, i + 1,
                         "expected ':' after the property name '\(String(decoding: UnsafeBufferPointer(start: line + nameStart, count: i - nameStart), as: UTF8.self))'; line skipped")
            }
            return nil
        }
        for k in nameStart..<i { line[k] = upper(line[k]) }
        let name = String(decoding: UnsafeBufferPointer(start: line + nameStart, count: i - nameStart), as: UTF8.self)
        let group = groupEnd >= 0
            ? String(decoding: UnsafeBufferPointer(start: line + start, count: groupEnd - start), as: UTF8.self) : nil
        var head = Head(group: group, name: name, parameters: [], valueStart: 0, encoding: 0, charset: nil,
                        column: start + 1)
        // Parameters
        while i < n && line[i] == semicolon {
            i += 1
            let pStart = i
            while i < n && line[i] != equals && line[i] != semicolon && line[i] != colon { i += 1 }
            var pEnd = i
            while pEnd > pStart && (line[pEnd - 1] == space || line[pEnd - 1] == tab) { pEnd -= 1 }
            for k in pStart..<pEnd { line[k] = upper(line[k]) }
            let pName = String(decoding: UnsafeBufferPointer(start: line + pStart, count: pEnd - pStart), as: UTF8.self)
            if i < n && line[i] == equals {
                i += 1
                var values: [String] = []
                let splitQuoted = pName == "TYPE" || pName == "SORT-AS"
                while true {
                    if i < n && line[i] == quote {
                        let qStart = i + 1
                        i += 1
                        while i < n && line[i] != quote { i += 1 }
                        if i == n {
                            diagnose(lineNumber, qStart, "unterminated quoted value of parameter \(pName) (expected '\"'); line skipped")
                            return nil
                        }
                        let text = paramText(qStart, i)
                        if splitQuoted && text.contains(",") {
                            values.append(contentsOf: text.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
                        } else {
                            values.append(text)
                        }
                        i += 1
                    } else {
                        let vStart = i
                        while i < n && line[i] != comma && line[i] != semicolon && line[i] != colon { i += 1 }
                        values.append(paramText(vStart, i))
                    }
                    if i < n && line[i] == comma { i += 1; continue }
                    break
                }
                head.parameters.append(VCardParameter(name: pName, values: values))
                if pName == "ENCODING", let v = values.first { head.encoding = encodingKind(v) }
                if pName == "CHARSET", let v = values.first { head.charset = v }
            } else if pName.isEmpty {
                continue
            } else {
                // vCard 2.1 bare parameter: an encoding or a type.
                let kind = encodingKind(pName)
                if kind != 0 || pName == "8BIT" || pName == "7BIT" {
                    head.parameters.append(VCardParameter(name: "ENCODING", values: [pName]))
                    head.encoding = kind
                } else {
                    head.parameters.append(VCardParameter(name: "TYPE", values: [pName]))
                }
            }
        }
        guard i < n && line[i] == colon else {
            diagnose(lineNumber, i + 1, "expected ':' before the value of \(name); line skipped")
            return nil
        }
        head.valueStart = i + 1
        return head
    }

    private func encodingKind(_ v: String) -> UInt8 {
        switch v.uppercased() {
        case "QUOTED-PRINTABLE", "QP": return 1
        case "B", "BASE64": return 2
        default: return 0
        }
    }

    /// Parameter value text with RFC 6868 escapes (^n, ^^, ^') decoded.
    private func paramText(_ s: Int, _ e: Int) -> String {
        var hasCaret = false
        for k in s..<e where line[k] == caret {
            hasCaret = true
            break
        }
        let raw = UnsafeBufferPointer(start: line + s, count: e - s)
        guard hasCaret else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(e - s)
        var k = s
        while k < e {
            let b = line[k]
            if b == caret && k + 1 < e {
                switch line[k + 1] {
                case 0x6E, 0x4E: out.append(lf); k += 2; continue
                case caret: out.append(caret); k += 2; continue
                case 0x27: out.append(quote); k += 2; continue
                default: break
                }
            }
            out.append(b)
            k += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Values

    /// The decoded value bytes (quoted-printable and charset undone) passed to `body`, which sees UTF-8.
    private func withValue<R>(_ head: Head, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let start = line + head.valueStart
        var count = lineLength - head.valueStart
        var bytes = UnsafeBufferPointer(start: start, count: count)
        if head.encoding == 1 {
            reserveAux(count)
            count = decodeQuotedPrintable(bytes, into: aux, column: head.valueStart + 1)
            bytes = UnsafeBufferPointer(start: aux, count: count)
        }
        if let charset = head.charset, !isUTF8Name(charset) {
            do {
                let text = try CharsetConverter.toUTF8(bytes, charset: charset, strict: true)
                return Array(text.utf8).withUnsafeBufferPointer { body($0) }
            } catch let ICUError.invalidBytes(_, offset) {
                diagnose(lineNumber, head.valueStart + 1,
                         "\(head.name) value has bytes that are not valid \(charset) (at value byte \(offset + 1)); they were replaced with U+FFFD")
                if let text = try? CharsetConverter.toUTF8(bytes, charset: charset, strict: false) {
                    return Array(text.utf8).withUnsafeBufferPointer { body($0) }
                }
            } catch {
                diagnose(lineNumber, head.valueStart + 1,
                         "unknown charset '\(charset)' on \(head.name) (expected a name such as UTF-8, ISO-8859-1, Windows-1252, Shift_JIS); value read as UTF-8")
            }
        }
        if let bad = firstInvalidUTF8(bytes) {
            diagnose(lineNumber, head.encoding == 1 ? head.valueStart + 1 : head.valueStart + bad + 1,
                     "invalid UTF-8 in the value of \(head.name) (value byte \(bad + 1)); replaced with U+FFFD")
            let repaired = Array(String(decoding: bytes, as: UTF8.self).utf8)
            return repaired.withUnsafeBufferPointer { body($0) }
        }
        return body(bytes)
    }

    private func isUTF8Name(_ charset: String) -> Bool {
        switch charset.uppercased() {
        case "UTF-8", "UTF8", "US-ASCII", "ASCII": return true
        default: return false
        }
    }

    private func decodeQuotedPrintable(_ src: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
                                       column: Int) -> Int {
        @inline(__always) func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x37
            case 0x61...0x66: return b - 0x57
            default: return nil
            }
        }
        var o = 0
        var i = 0
        var reported = false
        let n = src.count
        while i < n {
            let b = src[i]
            if b == equals {
                if i + 2 < n, let h = hex(src[i + 1]), let l = hex(src[i + 2]) {
                    out[o] = h << 4 | l
                    o += 1
                    i += 3
                    continue
                }
                if i == n - 1 { i += 1; continue }  // trailing soft break
                if !reported {
                    diagnose(lineNumber, column + i,
                             "invalid quoted-printable sequence (expected '=' and two hex digits); kept as written")
                    reported = true
                }
            }
            out[o] = b
            o += 1
            i += 1
        }
        return o
    }

    // MARK: Properties

    private func handle(_ head: Head, mode: ReadMode, into b: inout CardBuilder) {
        if head.name == "VERSION" {
            withValue(head) { v in
                let text = String(decoding: v, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                b.version = text
                if text != "2.1" && text != "3.0" && text != "4.0" {
                    diagnose(lineNumber, head.valueStart + 1,
                             "unsupported vCard version '\(text)' (expected 2.1, 3.0 or 4.0); read as best as possible")
                }
            }
            return
        }
        if mode == .groupCard {
            switch head.name {
            case "UID": b.uid = withValue(head) { stripURN(rawString($0)) }; return
            case "FN" where b.contact.formattedName.isEmpty:
                b.contact.formattedName = withValue(head) { unescape($0) }; return
            case "KIND", "X-ADDRESSBOOKSERVER-KIND": return
            case "MEMBER", "X-ADDRESSBOOKSERVER-MEMBER":
                b.members.append(withValue(head) { stripURN(rawString($0)) }); return
            default:
                b.contact.unknownProperties.append(unknown(head)); return
            }
        }
        switch head.name {
        case "UID" where b.uid == nil:
            b.uid = withValue(head) { stripURN(rawString($0)) }
        case "FN" where b.contact.formattedName.isEmpty:
            b.contact.formattedName = withValue(head) { unescape($0) }
        case "N" where !b.hasN:
            b.hasN = true
            let parts = withValue(head) { structured($0) }
            if parts.count > 0 { b.contact.familyName = parts[0] }
            if parts.count > 1 { b.contact.givenName = parts[1] }
            if parts.count > 2 { b.contact.middleName = parts[2] }
            if parts.count > 3 { b.contact.namePrefix = parts[3] }
            if parts.count > 4 { b.contact.nameSuffix = parts[4] }
            for p in head.parameters where p.name == "SORT-AS" { b.contact.sortAsComponents.append(contentsOf: p.values) }
        case "NICKNAME" where b.contact.nickname.isEmpty:
            b.contact.nickname = withValue(head) { unescape($0) }
        case "X-PHONETIC-FIRST-NAME" where b.contact.phoneticGivenName.isEmpty:
            b.contact.phoneticGivenName = withValue(head) { unescape($0) }
        case "X-PHONETIC-LAST-NAME" where b.contact.phoneticFamilyName.isEmpty:
            b.contact.phoneticFamilyName = withValue(head) { unescape($0) }
        case "ORG" where !b.hasOrg:
            b.hasOrg = true
            let parts = withValue(head) { structured($0) }
            b.contact.organization = parts.first ?? ""
            b.contact.department = parts.dropFirst().filter { !$0.isEmpty }.joined(separator: ", ")
        case "TITLE" where b.contact.jobTitle.isEmpty:
            b.contact.jobTitle = withValue(head) { unescape($0) }
        case "TEL":
            var value = withValue(head) { unescape($0) }
            if value.hasPrefix("tel:") { value.removeFirst(4) }
            let (label, pref) = labelAndPreference(head, phone: true)
            b.phones.append(LabeledValue(label: label, value: value, preference: pref))
            b.phoneGroups.append(head.group)
        case "EMAIL":
            let value = withValue(head) { unescape($0) }
            let (label, pref) = labelAndPreference(head, phone: false)
            b.emails.append(LabeledValue(label: label, value: value, preference: pref))
            b.emailGroups.append(head.group)
        case "URL":
            let value = withValue(head) { unescape($0) }
            let (label, pref) = labelAndPreference(head, phone: false)
            b.urls.append(LabeledValue(label: label, value: value, preference: pref))
            b.urlGroups.append(head.group)
        case "ADR":
            let parts = withValue(head) { structured($0) }
            func part(_ k: Int) -> String { k < parts.count ? parts[k] : "" }
            let address = PostalAddress(poBox: part(0), extended: part(1), street: part(2), locality: part(3),
                                        region: part(4), postalCode: part(5), country: part(6))
            let (label, pref) = labelAndPreference(head, phone: false)
            b.addresses.append(LabeledAddress(label: label, value: address, preference: pref))
            b.addressGroups.append(head.group)
        case "BDAY" where b.contact.birthday == nil:
            b.contact.birthday = date(head)
        case "ANNIVERSARY":
            b.dates.append(LabeledDate(label: .anniversary, value: date(head)))
            b.dateGroups.append(nil)
        case "X-ABDATE":
            b.dates.append(LabeledDate(label: .unlabeled, value: date(head)))
            b.dateGroups.append(head.group)
        case "NOTE" where b.contact.note.isEmpty:
            b.contact.note = withValue(head) { unescape($0) }
        case "PHOTO" where b.contact.photo == nil:
            if let photo = photo(head) { b.contact.photo = photo } else { b.contact.unknownProperties.append(unknown(head)) }
        case "CATEGORIES":
            for cat in withValue(head, { list($0) }) where !cat.isEmpty && !b.contact.categories.contains(cat) {
                b.contact.categories.append(cat)
            }
        case "LANG":
            let value = withValue(head) { unescape($0) }
            let pref = head.parameters.first { $0.name == "PREF" }?.values.first.flatMap { Int($0) }
            b.languages.append((value, pref ?? Int.max))
        case "KIND" where withValue(head, { rawString($0) }).lowercased() == "group":
            b.isGroupCard = true
        case "X-ADDRESSBOOKSERVER-KIND" where withValue(head, { rawString($0) }).lowercased() == "group":
            b.isGroupCard = true
        case "MEMBER", "X-ADDRESSBOOKSERVER-MEMBER":
            b.members.append(withValue(head) { stripURN(rawString($0)) })
        default:
            b.contact.unknownProperties.append(unknown(head))
        }
    }

    private func unknown(_ head: Head) -> VCardProperty {
        var parameters = head.parameters
        var value: String
        if head.encoding == 1 || head.charset != nil {
            // Decoded to UTF-8: the encoding and charset no longer apply; line breaks become \n escapes.
            parameters.removeAll { $0.name == "CHARSET" || ($0.name == "ENCODING" && head.encoding == 1) }
            value = withValue(head) { rawString($0) }
            if value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                value = value.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
                    .replacingOccurrences(of: "\r", with: "\\n")
            }
        } else {
            value = withValue(head) { rawString($0) }
        }
        return VCardProperty(group: head.group, name: head.name, parameters: parameters, value: value)
    }

    private func date(_ head: Head) -> ContactDate {
        let text = withValue(head) { unescape($0) }
        if head.parameters.contains(where: { $0.name == "VALUE" && $0.values.first?.lowercased() == "text" }) {
            return ContactDate(text: text)
        }
        var d = ContactDate(parsing: text)
        if let omit = head.parameters.first(where: { $0.name == "X-APPLE-OMIT-YEAR" })?.values.first,
           let y = Int(omit), d.year == y {
            d.year = nil
        }
        return d
    }

    private func photo(_ head: Head) -> ContactPhoto? {
        let raw = withValue(head) { rawString($0) }
        var mediaType: String?
        for p in head.parameters where p.name == "TYPE" || p.name == "MEDIATYPE" {
            if let v = p.values.first, !v.isEmpty {
                mediaType = v.contains("/") ? v.lowercased() : "image/" + v.lowercased()
            }
        }
        if head.encoding == 2 {
            guard let data = Data(base64Encoded: raw, options: .ignoreUnknownCharacters) else {
                diagnose(lineNumber, head.valueStart + 1, "PHOTO data is not valid base64; kept as an unknown property")
                return nil
            }
            return .embedded(data, mediaType: mediaType)
        }
        if raw.hasPrefix("data:") {
            guard let comma = raw.firstIndex(of: ",") else {
                diagnose(lineNumber, head.valueStart + 1, "PHOTO data: URI has no ',' before its data; kept as an unknown property")
                return nil
            }
            let meta = raw[raw.index(raw.startIndex, offsetBy: 5)..<comma]
            let payload = String(raw[raw.index(after: comma)...])
            let isBase64 = meta.hasSuffix(";base64")
            let type = String(isBase64 ? meta.dropLast(7) : meta).split(separator: ";").first.map(String.init) ?? ""
            let data: Data?
            if isBase64 {
                data = Data(base64Encoded: payload, options: .ignoreUnknownCharacters)
            } else {
                data = payload.removingPercentEncoding.map { Data($0.utf8) }
            }
            guard let data else {
                diagnose(lineNumber, head.valueStart + 1, "PHOTO data: URI payload does not decode; kept as an unknown property")
                return nil
            }
            return .embedded(data, mediaType: type.isEmpty ? nil : type.lowercased())
        }
        return .uri(raw)
    }

    private func labelAndPreference(_ head: Head, phone: Bool) -> (ContactLabel, Int?) {
        var flags = TypeFlags()
        var pref: Int?
        for p in head.parameters {
            if p.name == "TYPE" {
                for v in p.values { addType(v, to: &flags) }
            } else if p.name == "PREF", let v = p.values.first, let n = Int(v) {
                pref = n
            }
        }
        if pref == nil && flags.bits & TypeFlags.pref != 0 { pref = 1 }
        let f = flags.bits
        let label: ContactLabel
        if f & TypeFlags.iphone != 0 { label = .iPhone }
        else if f & TypeFlags.fax != 0 {
            label = f & TypeFlags.home != 0 ? .homeFax : f & TypeFlags.work != 0 ? .workFax : .otherFax
        } else if f & TypeFlags.cell != 0 { label = .mobile }
        else if f & TypeFlags.pager != 0 { label = .pager }
        else if f & TypeFlags.main != 0 { label = .main }
        else if f & TypeFlags.home != 0 { label = .home }
        else if f & TypeFlags.work != 0 { label = .work }
        else if f & TypeFlags.school != 0 { label = .school }
        else if f & TypeFlags.other != 0 { label = .other }
        else if let custom = flags.custom { label = .custom(custom) }
        else { label = .unlabeled }
        _ = phone
        return (label, pref)
    }

    private func addType(_ value: String, to flags: inout TypeFlags) {
        switch value.lowercased() {
        case "home": flags.bits |= TypeFlags.home
        case "work": flags.bits |= TypeFlags.work
        case "cell", "mobile": flags.bits |= TypeFlags.cell
        case "fax": flags.bits |= TypeFlags.fax
        case "pager": flags.bits |= TypeFlags.pager
        case "pref": flags.bits |= TypeFlags.pref
        case "iphone": flags.bits |= TypeFlags.iphone
        case "main": flags.bits |= TypeFlags.main
        case "other": flags.bits |= TypeFlags.other
        case "school": flags.bits |= TypeFlags.school
        case "voice", "internet", "x400", "x-internet", "text", "msg", "": break
        default: if flags.custom == nil { flags.custom = value }
        }
    }

    // MARK: Finishing a card

    private func finishCard(endOffset: Int, emit: (VCardRecord) -> Void) {
        inCard = false
        var b = builder
        builder = CardBuilder()
        if mode == .groupCard {
            groupResult = b
            return
        }
        var id = b.uid ?? ""
        if id.isEmpty {
            id = "hash-" + hashID(b)
        }
        if let firstLine = seenIDs[id] {
            var k = 2
            while seenIDs["\(id)-\(k)"] != nil { k += 1 }
            let newID = "\(id)-\(k)"
            diagnose(cardStartLine, nil,
                     b.uid != nil ? "duplicate UID '\(id)' (first used by the card at line \(firstLine)); this card's id is '\(newID)'"
                         : "card identical to the one at line \(firstLine); this card's id is '\(newID)'")
            id = newID
        }
        seenIDs[id] = cardStartLine
        if b.isGroupCard {
            var name = b.contact.formattedName
            if name.isEmpty { name = [b.contact.givenName, b.contact.familyName].filter { !$0.isEmpty }.joined(separator: " ") }
            if name.isEmpty { name = b.contact.organization }
            // Read the card again in group mode so that every property the group model does not name is kept.
            var unknowns = b.contact.unknownProperties
            if let base = self.base, endOffset > cardStartOffset {
                let again = VCardParser(fileName: fileName)
                again.mode = .groupCard
                again.parse(UnsafeBufferPointer(start: base + cardStartOffset, count: endOffset - cardStartOffset)) { _ in }
                if let g = again.groupResult {
                    unknowns = g.contact.unknownProperties
                    if !g.contact.formattedName.isEmpty { name = g.contact.formattedName }
                }
            }
            emit(.group(Group(id: id, name: name, memberIDs: b.members, kind: .card, unknownProperties: unknowns)))
            return
        }
        if !b.members.isEmpty {
            diagnose(cardStartLine, nil, "MEMBER in a card that is not a group (expected KIND:group); kept as an unknown property")
        }
        b.resolveLabels()
        var c = b.contact
        c.id = id
        c.phones = CardBuilder.ordered(b.phones)
        c.emails = CardBuilder.ordered(b.emails)
        c.urls = CardBuilder.ordered(b.urls)
        c.addresses = CardBuilder.orderedAddresses(b.addresses)
        c.dates = b.dates
        if !b.languages.isEmpty {
            c.languages = b.languages.enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }
                .map { $0.element.0 }
        }
        if c.phoneticFamilyName.isEmpty && c.phoneticGivenName.isEmpty && !c.sortAsComponents.isEmpty {
            c.phoneticFamilyName = c.sortAsComponents[0]
            if c.sortAsComponents.count > 1 { c.phoneticGivenName = c.sortAsComponents[1] }
        }
        for m in b.members {
            c.unknownProperties.append(VCardProperty(name: "MEMBER", value: "urn:uuid:" + m))
        }
        emit(.contact(c))
    }

    private func hashID(_ b: CardBuilder) -> String {
        // FNV-1a over what the card says, so the id survives re-folding and re-ordering of files.
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        @inline(__always) func mix(_ s: String) {
            for byte in s.utf8 {
                h ^= UInt64(byte)
                h = h &* 0x100_0000_01b3
            }
            h ^= 0x1F
            h = h &* 0x100_0000_01b3
        }
        let c = b.contact
        for s in [c.formattedName, c.familyName, c.givenName, c.middleName, c.namePrefix, c.nameSuffix, c.nickname,
                  c.organization, c.jobTitle, c.note] { mix(s) }
        for p in b.phones { mix(p.value) }
        for e in b.emails { mix(e.value) }
        for u in b.urls { mix(u.value) }
        for m in b.members { mix(m) }
        for p in c.unknownProperties { mix(p.name); mix(p.value) }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    // MARK: Value conversions (UTF-8 bytes → String)

    private func rawString(_ v: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: v, as: UTF8.self)
    }

    private func stripURN(_ s: String) -> String {
        let t = s.trimmingCharacters(in: .whitespaces)
        if t.count > 9 && t.prefix(9).lowercased() == "urn:uuid:" { return String(t.dropFirst(9)) }
        return t
    }

    /// Text with `\n`, `\,`, `\;`, `\:` and `\\` escapes undone (other backslashes kept); CRLF and CR
    /// become LF.
    private func unescape(_ v: UnsafeBufferPointer<UInt8>) -> String {
        unescape(v, from: 0, to: v.count)
    }

    private func unescape(_ v: UnsafeBufferPointer<UInt8>, from s: Int, to e: Int) -> String {
        var k = s
        while k < e && v[k] != backslash && v[k] != cr { k += 1 }
        if k == e { return String(decoding: UnsafeBufferPointer(rebasing: v[s..<e]), as: UTF8.self) }
        return String(unsafeUninitializedCapacity: e - s) { out in
            var o = 0
            var i = s
            while i < e {
                let b = v[i]
                if b == cr {  // decoded line breaks (quoted-printable =0D=0A) become LF
                    out[o] = lf
                    o += 1
                    i += (i + 1 < e && v[i + 1] == lf) ? 2 : 1
                    continue
                }
                if b == backslash && i + 1 < e {
                    let n = v[i + 1]
                    switch n {
                    case 0x6E, 0x4E: out[o] = lf; o += 1; i += 2; continue
                    case backslash, comma, semicolon, colon: out[o] = n; o += 1; i += 2; continue
                    default: break
                    }
                }
                out[o] = b
                o += 1
                i += 1
            }
            return o
        }
    }

    /// Components split at unescaped ';', each unescaped.
    private func structured(_ v: UnsafeBufferPointer<UInt8>) -> [String] {
        split(v, at: semicolon)
    }

    /// Values split at unescaped ',', each unescaped.
    private func list(_ v: UnsafeBufferPointer<UInt8>) -> [String] {
        split(v, at: comma).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    private func split(_ v: UnsafeBufferPointer<UInt8>, at separator: UInt8) -> [String] {
        var parts: [String] = []
        var s = 0
        var i = 0
        let n = v.count
        while i < n {
            let b = v[i]
            if b == backslash { i += 2; continue }
            if b == separator {
                parts.append(unescape(v, from: s, to: i))
                s = i + 1
            }
            i += 1
        }
        parts.append(unescape(v, from: s, to: min(n, max(s, n))))
        return parts
    }
}

/// The first invalid UTF-8 byte's offset, nil when `v` is valid.
func firstInvalidUTF8(_ v: UnsafeBufferPointer<UInt8>) -> Int? {
    let n = v.count
    var i = 0
    // ASCII fast path, 8 bytes at a time.
    if let base = v.baseAddress {
        let raw = UnsafeRawPointer(base)
        while i + 8 <= n {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            i += 8
        }
    }
    while i < n {
        let b = v[i]
        if b < 0x80 { i += 1; continue }
        var need = 0
        var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
        switch b {
        case 0xC2...0xDF: need = 1
        case 0xE0: need = 2; lo = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: need = 2
        case 0xED: need = 2; hi = 0x9F
        case 0xF0: need = 3; lo = 0x90
        case 0xF1...0xF3: need = 3
        case 0xF4: need = 3; hi = 0x8F
        default: return i
        }
        guard i + need < n else { return i }
        let c1 = v[i + 1]
        if c1 < lo || c1 > hi { return i }
        if need >= 2 { let c = v[i + 2]; if c < 0x80 || c > 0xBF { return i } }
        if need == 3 { let c = v[i + 3]; if c < 0x80 || c > 0xBF { return i } }
        i += need + 1
    }
    return nil
}

/// What one card has said so far.
struct CardBuilder {
    var contact = Contact(id: "")
    var version = ""
    var uid: String?
    var hasN = false
    var hasOrg = false
    var isGroupCard = false
    var members: [String] = []
    var phones: [LabeledValue] = []
    var phoneGroups: [String?] = []
    var emails: [LabeledValue] = []
    var emailGroups: [String?] = []
    var urls: [LabeledValue] = []
    var urlGroups: [String?] = []
    var addresses: [LabeledAddress] = []
    var addressGroups: [String?] = []
    var dates: [LabeledDate] = []
    var dateGroups: [String?] = []
    var languages: [(String, Int)] = []

    /// Applies Apple `X-ABLabel`s to the properties of their group and drops the labels that were used.
    mutating func resolveLabels() {
        guard contact.unknownProperties.contains(where: { $0.name == "X-ABLABEL" && $0.group != nil }) else { return }
        var used = Set<Int>()
        for (k, p) in contact.unknownProperties.enumerated() where p.name == "X-ABLABEL" {
            guard let g = p.group else { continue }
            let label = ContactLabel(abLabel: unescapeText(p.value))
            var hit = false
            for i in phoneGroups.indices where phoneGroups[i] == g { phones[i].label = label; hit = true }
            for i in emailGroups.indices where emailGroups[i] == g { emails[i].label = label; hit = true }
            for i in urlGroups.indices where urlGroups[i] == g { urls[i].label = label; hit = true }
            for i in addressGroups.indices where addressGroups[i] == g { addresses[i].label = label; hit = true }
            for i in dateGroups.indices where dateGroups[i] == g { dates[i].label = label; hit = true }
            if hit { used.insert(k) }
        }
        if !used.isEmpty {
            contact.unknownProperties = contact.unknownProperties.enumerated().filter { !used.contains($0.offset) }
                .map(\.element)
        }
    }

    static func ordered(_ values: [LabeledValue]) -> [LabeledValue] {
        guard values.count > 1, values.contains(where: { $0.preference != nil }) else { return values }
        return values.enumerated().sorted {
            ($0.element.preference ?? Int.max, $0.offset) < ($1.element.preference ?? Int.max, $1.offset)
        }.map(\.element)
    }

    static func orderedAddresses(_ values: [LabeledAddress]) -> [LabeledAddress] {
        guard values.count > 1, values.contains(where: { $0.preference != nil }) else { return values }
        return values.enumerated().sorted {
            ($0.element.preference ?? Int.max, $0.offset) < ($1.element.preference ?? Int.max, $1.offset)
        }.map(\.element)
    }
}

/// Undoes text escapes in a String (used for values kept raw, such as X-ABLabel).
func unescapeText(_ s: String) -> String {
    guard s.contains("\\") else { return s }
    var out = ""
    var it = s.makeIterator()
    while let ch = it.next() {
        if ch == "\\", let n = it.next() {
            switch n {
            case "n", "N": out.append("\n")
            case "\\", ",", ";", ":": out.append(n)
            default: out.append(ch); out.append(n)
            }
        } else {
            out.append(ch)
        }
    }
    return out
}
