import Foundation
import ICUKit
import Support

/// Reads a parsed property's value into the card's fields: decodes it (quoted-printable, `CHARSET=` through
/// ICU converters, the UTF-8 check, base64 and `data:` photos) and sets the field the model has for it, or
/// keeps it verbatim as an unknown property. What it finds wrong it notes for the driver, which adds the line.
///
/// ```swift
/// var line = CheckedBuffer<UInt8>(capacity: 64)  // the lexer's current line
/// defer { line.deallocate() }
/// Array("FN:Ada Lovelace".utf8).withUnsafeBufferPointer { line.append(contentsOf: $0) }
/// var properties = VCardPropertyParser(line: line)
/// defer { properties.deallocate() }
/// var fields = VCardFieldReader(properties: properties)
/// defer { fields.deallocate() }
/// var card = CardBuilder()
/// fields.read(try properties.parse(line, from: 0), properties: properties, mode: .contact, into: &card)
/// print(card.contact.formattedName)  // Ada Lovelace
/// ```
struct VCardFieldReader {
    typealias Head = VCardPropertyParser.Head

    /// A problem with a value: the 1-based column in its content line and what was expected.
    struct Note {
        var column: Int
        var message: String
    }

    /// Room for a decoded value (quoted-printable). Owned (``deallocate()``).
    private var aux = CheckedBuffer<UInt8>(capacity: 4096)
    /// The property parser as of the current line (a view of its buffers, not owned: set again by every
    /// ``read(_:properties:mode:into:)``, since the parser's buffers may have grown).
    private var properties: VCardPropertyParser
    /// What ``read(_:properties:mode:into:)`` found wrong since the last ``takeNotes()``.
    private(set) var notes: [Note] = []

    /// A reader of the properties that `properties` parses (a view of it: the reader allocates no span
    /// buffers of its own).
    init(properties: VCardPropertyParser) { self.properties = properties }

    /// Frees the decoding buffer; the owner calls it once, and uses the reader no more.
    func deallocate() { aux.deallocate() }

    /// Reads the property `head` of the current line (as `properties` parsed it) into `card`.
    mutating func read(_ head: Head, properties: VCardPropertyParser, mode: ReadMode, into card: inout CardBuilder) {
        self.properties = properties
        handle(head, mode: mode, into: &card)
    }

    /// The notes so far, handed over; none are left.
    mutating func takeNotes() -> [Note] {
        var taken: [Note] = []
        swap(&taken, &notes)
        return taken
    }

    private mutating func diagnose(_ column: Int, _ message: String) {
        notes.append(Note(column: column, message: message))
    }

    // MARK: Values

    /// The decoded value bytes (quoted-printable and charset undone) passed to `body`, which sees UTF-8, as a
    /// read-only view valid during the call (of the line, the decoding buffer or a converted copy).
    mutating func withValue<R>(_ head: Head, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var bytes = properties.line.extracting(head.valueStart..<properties.line.count)
        if head.encoding == 1 {
            aux.removeAll()
            if let bad = VCardValueDecoder.decodeQuotedPrintable(bytes, into: &aux) {
                diagnose(
                    head.valueStart + 1 + bad,
                    "invalid quoted-printable sequence (expected '=' and two hex digits); kept as written")
            }
            bytes = aux.all
        }
        if head.charsetStart >= 0 && !properties.isUTF8Name(head.charsetStart, head.charsetEnd) {
            let charset = properties.text(head.charsetStart, head.charsetEnd)
            do {
                let text = try CharsetConverter.toUTF8(bytes, charset: charset, strict: true)
                return Array(text.utf8).withUnsafeBufferPointer { body($0) }
            } catch let ICUError.invalidBytes(_, offset) {
                diagnose(
                    head.valueStart + 1,
                    "\(properties.name(head)) value has bytes that are not valid \(charset) (at value byte \(offset + 1)); they were replaced with a substitution character"
                )
                if let text = try? CharsetConverter.toUTF8(bytes, charset: charset, strict: false) {
                    return Array(text.utf8).withUnsafeBufferPointer { body($0) }
                }
            } catch {
                diagnose(
                    head.valueStart + 1,
                    "unknown charset '\(charset)' on \(properties.name(head)) (expected a name such as UTF-8, ISO-8859-1, Windows-1252, Shift_JIS); value read as UTF-8"
                )
            }
        }
        if let bad = VCardValueDecoder.firstInvalidUTF8(bytes) {
            diagnose(
                head.encoding == 1 ? head.valueStart + 1 : head.valueStart + bad + 1,
                "invalid UTF-8 in the value of \(properties.name(head)) (value byte \(bad + 1)); replaced with U+FFFD")
            let repaired = Array(String(decoding: bytes, as: UTF8.self).utf8)
            return repaired.withUnsafeBufferPointer { body($0) }
        }
        return body(bytes)
    }

    // MARK: Properties

    private mutating func handle(_ head: Head, mode: ReadMode, into b: inout CardBuilder) {
        if head.kind == .version {
            let unsupported: String? = withValue(head) { v in
                // The three versions are ASCII, which no other bytes equal as a String: compared as bytes.
                let (s, e) = VCardValueDecoder.trimmedRange(v)
                if e - s == 3 && v[s + 1] == dot
                    && ((v[s] == 0x32 && v[s + 2] == 0x31) || (v[s] == 0x33 && v[s + 2] == 0x30)
                        || (v[s] == 0x34 && v[s + 2] == 0x30))
                {
                    return nil
                }
                let text = VCardValueDecoder.trimmedString(v)
                return text != "2.1" && text != "3.0" && text != "4.0" ? text : nil
            }
            if let unsupported {
                diagnose(
                    head.valueStart + 1,
                    "unsupported vCard version '\(unsupported)' (expected 2.1, 3.0 or 4.0); read as best as possible")
            }
            return
        }
        if mode == .groupCard {
            switch head.kind {
            case .uid: b.uid = withValue(head) { VCardValueDecoder.idString($0) }
            case .fn where b.contact.formattedName.isEmpty:
                b.contact.formattedName = withValue(head) { VCardValueDecoder.unescape($0) }
            case .kind, .abKind: break
            case .member, .abMember: b.members.append(withValue(head) { VCardValueDecoder.idString($0) })
            default: b.contact.unknownProperties.append(unknown(head))
            }
            return
        }
        if mode == .listing && readForListing(head, into: &b) { return }
        switch head.kind {
        case .uid where b.uid == nil:
            b.uid = withValue(head) { VCardValueDecoder.idString($0) }
        case .fn where b.contact.formattedName.isEmpty:
            b.contact.formattedName = withValue(head) { VCardValueDecoder.unescape($0) }
        case .n where !b.hasN:
            b.hasN = true
            withValue(head) { v in
                var k = 0
                VCardValueDecoder.forEachComponent(v, separator: semicolon) { s, e in
                    switch k {
                    case 0: b.contact.familyName = VCardValueDecoder.unescape(v, from: s, to: e)
                    case 1: b.contact.givenName = VCardValueDecoder.unescape(v, from: s, to: e)
                    case 2: b.contact.middleName = VCardValueDecoder.unescape(v, from: s, to: e)
                    case 3: b.contact.namePrefix = VCardValueDecoder.unescape(v, from: s, to: e)
                    case 4: b.contact.nameSuffix = VCardValueDecoder.unescape(v, from: s, to: e)
                    default: break
                    }
                    k += 1
                }
            }
            if head.hasParameters && properties.hasParameter("SORT-AS") {
                properties.appendSortAs(to: &b.contact.sortAsComponents)
            }
        case .nickname where b.contact.nickname.isEmpty:
            b.contact.nickname = withValue(head) { VCardValueDecoder.unescape($0) }
        case .phoneticFirst where b.contact.phoneticGivenName.isEmpty:
            b.contact.phoneticGivenName = withValue(head) { VCardValueDecoder.unescape($0) }
        case .phoneticLast where b.contact.phoneticFamilyName.isEmpty:
            b.contact.phoneticFamilyName = withValue(head) { VCardValueDecoder.unescape($0) }
        case .org where !b.hasOrg:
            b.hasOrg = true
            withValue(head) { v in
                var k = 0
                VCardValueDecoder.forEachComponent(v, separator: semicolon) { s, e in
                    if k == 0 {
                        b.contact.organization = VCardValueDecoder.unescape(v, from: s, to: e)
                    } else if e > s {
                        let part = VCardValueDecoder.unescape(v, from: s, to: e)
                        b.contact.department += b.contact.department.isEmpty ? part : ", " + part
                    }
                    k += 1
                }
            }
        case .title where b.contact.jobTitle.isEmpty:
            b.contact.jobTitle = withValue(head) { VCardValueDecoder.unescape($0) }
        case .tel:
            let value = withValue(head) { v in
                // A `tel:` URI loses its scheme; stripped on the bytes when what follows is ASCII (then the
                // String prefix test below would agree), so no String is made twice.
                if v.count >= 4 && v[0] == 0x74 && v[1] == 0x65 && v[2] == 0x6C && v[3] == colon
                    && (v.count == 4 || v[4] < 0x80)
                {
                    return VCardValueDecoder.unescape(v, from: 4, to: v.count)
                }
                var text = VCardValueDecoder.unescape(v)
                if text.hasPrefix("tel:") { text.removeFirst(4) }
                return text
            }
            b.note(properties.group(head), kind: .phone, index: b.contact.phones.count)
            if b.contact.phones.isEmpty { b.contact.phones.reserveCapacity(2) }
            b.contact.phones.append(LabeledValue(label: label(head), value: value, preference: preference(head)))
        case .email:
            b.note(properties.group(head), kind: .email, index: b.contact.emails.count)
            if b.contact.emails.isEmpty { b.contact.emails.reserveCapacity(2) }
            b.contact.emails.append(
                LabeledValue(
                    label: label(head), value: withValue(head) { VCardValueDecoder.unescapeTrimmed($0) },
                    preference: preference(head)))
        case .url:
            b.note(properties.group(head), kind: .url, index: b.contact.urls.count)
            b.contact.urls.append(
                LabeledValue(
                    label: label(head), value: withValue(head) { VCardValueDecoder.unescape($0) },
                    preference: preference(head)))
        case .adr:
            var a = PostalAddress()
            withValue(head) { v in
                var k = 0
                VCardValueDecoder.forEachComponent(v, separator: semicolon) { s, e in
                    if e > s {
                        let part = VCardValueDecoder.unescape(v, from: s, to: e)
                        switch k {
                        case 0: a.poBox = part
                        case 1: a.extended = part
                        case 2: a.street = part
                        case 3: a.locality = part
                        case 4: a.region = part
                        case 5: a.postalCode = part
                        case 6: a.country = part
                        default: break
                        }
                    }
                    k += 1
                }
            }
            b.note(properties.group(head), kind: .address, index: b.contact.addresses.count)
            b.contact.addresses.append(LabeledAddress(label: label(head), value: a, preference: preference(head)))
        case .bday where b.contact.birthday == nil:
            b.contact.birthday = date(head)
        case .anniversary:
            b.contact.dates.append(LabeledDate(label: .anniversary, value: date(head)))
        case .abDate:
            b.note(properties.group(head), kind: .date, index: b.contact.dates.count)
            b.contact.dates.append(LabeledDate(label: .unlabeled, value: date(head)))
        case .note where b.contact.note.isEmpty:
            b.contact.note = withValue(head) { VCardValueDecoder.unescape($0) }
        case .photo where b.contact.photo == nil:
            if let photo = photo(head) {
                b.contact.photo = photo
            } else {
                b.contact.unknownProperties.append(unknown(head))
            }
        case .categories:
            withValue(head) { v in
                if b.contact.categories.isEmpty {
                    // Room for every component at once (at most one per unescaped comma, plus one).
                    var parts = 0
                    VCardValueDecoder.forEachComponent(v, separator: comma) { _, _ in parts += 1 }
                    if parts > 1 { b.contact.categories.reserveCapacity(parts) }
                }
                VCardValueDecoder.forEachComponent(v, separator: comma) { s, e in
                    var s = s
                    var e = e
                    while s < e && (v[s] == space || v[s] == tab) { s += 1 }
                    while e > s && (v[e - 1] == space || v[e - 1] == tab) { e -= 1 }
                    guard e > s else { return }
                    let cat = VCardValueDecoder.unescape(v, from: s, to: e)
                    b.contact.categories.append(cat)
                }
            }
        case .lang:
            let value = withValue(head) { VCardValueDecoder.unescape($0) }
            b.addLanguage(value, preference: head.pref ?? Int.max)
        case .kind where withValue(head, { VCardValueDecoder.isGroupKind($0) }):
            b.isGroupCard = true
        case .abKind where withValue(head, { VCardValueDecoder.isGroupKind($0) }):
            b.isGroupCard = true
        case .member, .abMember:
            b.members.append(withValue(head) { VCardValueDecoder.idString($0) })
        default:
            // Cards with one unknown property usually have a few more (PRODID, REV, X-…): room for 4 at once.
            if b.contact.unknownProperties.isEmpty { b.contact.unknownProperties.reserveCapacity(4) }
            b.contact.unknownProperties.append(unknown(head))
        }
    }

    /// In listing mode, reads what a list keeps of the values it does not use and returns true: nothing
    /// but the value's check (its diagnostics are a full read's), or of an address only its country
    /// (`Contact.addressRegion`). Returns false for a property read as in a full read.
    private mutating func readForListing(_ head: Head, into b: inout CardBuilder) -> Bool {
        switch head.kind {
        case .title, .url, .bday, .anniversary, .abDate, .note, .categories: break
        case .other where !properties.isKeyword(head.nameStart, head.nameEnd, "X-ABLABEL"): break
        case .adr:
            var a = PostalAddress()
            withValue(head) { v in
                var k = 0
                VCardValueDecoder.forEachComponent(v, separator: semicolon) { s, e in
                    if k == 6 && e > s { a.country = VCardValueDecoder.unescape(v, from: s, to: e) }
                    k += 1
                }
            }
            b.contact.addresses.append(LabeledAddress(label: .unlabeled, value: a, preference: nil))
        default: return false
        }
        if head.kind != .adr { withValue(head) { _ in } }
        b.valuesLeftOut = true
        return true
    }

    mutating func unknown(_ head: Head) -> VCardProperty {
        var parameters = head.hasParameters ? properties.materializedParameters() : []
        var value: String
        if head.encoding == 1 || head.charsetStart >= 0 {
            // Decoded to UTF-8: the encoding and charset no longer apply; line breaks become \n escapes.
            parameters.removeAll { $0.name == "CHARSET" || ($0.name == "ENCODING" && head.encoding == 1) }
            value = withValue(head) { VCardValueDecoder.rawString($0) }
            if value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                value = value.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
                    .replacingOccurrences(of: "\r", with: "\\n")
            }
        } else {
            value = withValue(head) { VCardValueDecoder.rawString($0) }
        }
        return VCardProperty(
            group: properties.group(head), name: properties.name(head), parameters: parameters, value: value)
    }

    mutating func date(_ head: Head) -> ContactDate {
        let text = withValue(head) { VCardValueDecoder.unescape($0) }
        if head.valueIsText { return ContactDate(text: text) }
        var d = ContactDate(parsing: text)
        if let omit = head.omitYear, d.year == omit { d.year = nil }
        return d
    }

    mutating func photo(_ head: Head) -> ContactPhoto? {
        let raw = withValue(head) { VCardValueDecoder.rawString($0) }
        var mediaType: String?
        for p in properties.materializedParameters() where p.name == "TYPE" || p.name == "MEDIATYPE" {
            if let v = p.values.first, !v.isEmpty {
                mediaType = v.contains("/") ? v.lowercased() : "image/" + v.lowercased()
            }
        }
        if head.encoding == 2 {
            guard let data = Data(base64Encoded: raw, options: .ignoreUnknownCharacters) else {
                diagnose(head.valueStart + 1, "PHOTO data is not valid base64; kept as an unknown property")
                return nil
            }
            return .embedded(data, mediaType: mediaType)
        }
        if raw.hasPrefix("data:") {
            guard let comma = raw.firstIndex(of: ",") else {
                diagnose(
                    head.valueStart + 1,
                    "PHOTO data: URI has no ',' before its data; kept as an unknown property")
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
                diagnose(
                    head.valueStart + 1,
                    "PHOTO data: URI payload does not decode; kept as an unknown property")
                return nil
            }
            return .embedded(data, mediaType: type.isEmpty ? nil : type.lowercased())
        }
        return .uri(raw)
    }

    @inline(__always) func preference(_ head: Head) -> Int? {
        head.pref ?? (head.types & TypeFlags.pref != 0 ? 1 : nil)
    }

    func label(_ head: Head) -> ContactLabel {
        let f = head.types
        if f & TypeFlags.iphone != 0 { return .iPhone }
        if f & TypeFlags.fax != 0 {
            return f & TypeFlags.home != 0 ? .homeFax : f & TypeFlags.work != 0 ? .workFax : .otherFax
        }
        if f & TypeFlags.cell != 0 { return .mobile }
        if f & TypeFlags.pager != 0 { return .pager }
        if f & TypeFlags.main != 0 { return .main }
        if f & TypeFlags.home != 0 { return .home }
        if f & TypeFlags.work != 0 { return .work }
        if f & TypeFlags.school != 0 { return .school }
        if f & TypeFlags.other != 0 { return .other }
        if head.customStart >= 0 { return .custom(properties.paramText(head.customStart, head.customEnd)) }
        return .unlabeled
    }

}
