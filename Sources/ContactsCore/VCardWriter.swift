import Foundation

/// Writes contacts and groups as vCard 4.0 (default) or 3.0: escaped values, lines folded at 75 octets
/// without splitting a UTF-8 sequence, CRLF line ends. Reading the output gives back equal contacts and
/// groups, unknown properties included.
///
/// ```swift
/// let text = try VCardWriter.string(for: book, version: .v4)
/// let again = AddressBook(data: Data(text.utf8), fileName: "out.vcf")   // again == book
/// ```
public enum VCardWriter {
    /// The versions the writer produces.
    public enum Version: String, Sendable, CaseIterable {
        case v4 = "4.0"
        case v3 = "3.0"

        /// "4.0" or "3.0"; throws ``ContactsCoreError/unsupportedVersion(_:)`` for anything else.
        public init(parsing text: String) throws {
            guard let v = Version(rawValue: text) else { throw ContactsCoreError.unsupportedVersion(text) }
            self = v
        }
    }

    /// The whole book: every contact, then every group card (category groups come from `CATEGORIES`).
    public static func data(for book: AddressBook, version: Version = .v4) -> Data {
        var out = LineWriter()
        for c in book.contacts { write(c, version: version, to: &out) }
        for g in book.groups where g.kind == .card { write(g, version: version, to: &out) }
        return Data(out.bytes)
    }

    /// Streams the whole book to `sink` in pieces of about 64 KiB (for writing large books to a file or a pipe
    /// without holding the whole output).
    ///
    /// ```swift
    /// VCardWriter.write(book, version: .v3) { FileHandle.standardOutput.write($0) }
    /// ```
    public static func write(_ book: AddressBook, version: Version = .v4, to sink: (Data) -> Void) {
        var out = LineWriter()
        func flushIfFull() {
            if out.bytes.count >= 1 << 16 {
                sink(Data(out.bytes))
                out.bytes.removeAll(keepingCapacity: true)
            }
        }
        for c in book.contacts {
            write(c, version: version, to: &out)
            flushIfFull()
        }
        for g in book.groups where g.kind == .card {
            write(g, version: version, to: &out)
            flushIfFull()
        }
        if !out.bytes.isEmpty { sink(Data(out.bytes)) }
    }

    /// The whole book as a string.
    public static func string(for book: AddressBook, version: Version = .v4) -> String {
        String(decoding: data(for: book, version: version), as: UTF8.self)
    }

    /// One contact as a vCard.
    public static func string(for contact: Contact, version: Version = .v4) -> String {
        var out = LineWriter()
        write(contact, version: version, to: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    // MARK: Cards

    static func write(_ c: Contact, version: Version, to out: inout LineWriter) {
        let v4 = version == .v4
        out.line("BEGIN:VCARD")
        out.line("VERSION:" + version.rawValue)
        uid(c.id, version, &out)
        out.property("FN", value: escape(c.formattedName))
        let nameParts = [c.familyName, c.givenName, c.middleName, c.namePrefix, c.nameSuffix]
        if !v4 || nameParts.contains(where: { !$0.isEmpty }) || !c.sortAsComponents.isEmpty {
            var params: [VCardParameter] = []
            if !c.sortAsComponents.isEmpty {
                params.append(VCardParameter(name: "SORT-AS", values: c.sortAsComponents))
            }
            out.property("N", parameters: params, value: nameParts.map(escape).joined(separator: ";"))
        }
        if !c.nickname.isEmpty { out.property("NICKNAME", value: escape(c.nickname)) }
        // The readings are always written as X-PHONETIC-*, also when `SORT-AS` says the same: a 3.0 reader
        // (and many 4.0 ones) knows no SORT-AS, and a reading must not depend on it.
        if !c.phoneticGivenName.isEmpty {
            out.property("X-PHONETIC-FIRST-NAME", value: escape(c.phoneticGivenName))
        }
        if !c.phoneticFamilyName.isEmpty {
            out.property("X-PHONETIC-LAST-NAME", value: escape(c.phoneticFamilyName))
        }
        if !c.organization.isEmpty || !c.department.isEmpty {
            out.property(
                "ORG", value: escape(c.organization) + (c.department.isEmpty ? "" : ";" + escape(c.department)))
        }
        if !c.jobTitle.isEmpty { out.property("TITLE", value: escape(c.jobTitle)) }

        var groups = ItemGroups(taken: Set(c.unknownProperties.compactMap(\.group)))
        for p in c.phones { labeled("TEL", p.label, p.preference, escape(p.value), version, &groups, &out) }
        for e in c.emails { labeled("EMAIL", e.label, e.preference, escape(e.value), version, &groups, &out) }
        for a in c.addresses {
            let v = a.value
            let value = [v.poBox, v.extended, v.street, v.locality, v.region, v.postalCode, v.country]
                .map(escape).joined(separator: ";")
            labeled("ADR", a.label, a.preference, value, version, &groups, &out)
        }
        for u in c.urls { labeled("URL", u.label, u.preference, escape(u.value), version, &groups, &out) }
        if let b = c.birthday { date("BDAY", b, version, nil, &out) }
        var wroteAnniversary = false
        for d in c.dates {
            if d.label == .anniversary && v4 && !wroteAnniversary {
                wroteAnniversary = true
                date("ANNIVERSARY", d.value, version, nil, &out)
            } else if d.label == .unlabeled {
                date("X-ABDATE", d.value, version, nil, &out)
            } else {
                let g = groups.next()
                date("X-ABDATE", d.value, version, g, &out)
                out.property("X-ABLabel", group: g, value: escape(abLabel(d.label)))
            }
        }
        if !c.note.isEmpty { out.property("NOTE", value: escape(c.note)) }
        if let photo = c.photo { write(photo, version: version, to: &out) }
        if !c.categories.isEmpty { out.property("CATEGORIES", value: c.categories.map(escape).joined(separator: ",")) }
        for (k, lang) in c.languages.enumerated() {
            out.property(
                "LANG", parameters: v4 ? [VCardParameter(name: "PREF", values: [String(k + 1)])] : [],
                value: escape(lang))
        }
        for p in c.unknownProperties where !(v4 && isProfile(p.name)) {
            out.property(p.name, group: p.group, parameters: p.parameters, value: p.value, raw: true)
        }
        out.line("END:VCARD")
    }

    /// `PROFILE:VCARD` exists in vCard 3.0 only (RFC 2426 §2.1.1; gone from RFC 6350).
    static func isProfile(_ name: String) -> Bool { name.caseInsensitiveCompare("PROFILE") == .orderedSame }

    /// UID: in 4.0 its value is a URI unless marked `VALUE=text` (RFC 6350 §6.7.6): a UUID becomes
    /// `urn:uuid:…`, another id that is not a URI (`hash-…`, a 3.0 UID such as `1234-abcd`) is text.
    static func uid(_ id: String, _ version: Version, _ out: inout LineWriter) {
        if version == .v4 && UUID(uuidString: id) != nil {
            out.property("UID", value: "urn:uuid:" + id, raw: true)
        } else if version == .v4 && !isURI(id) {
            out.property(
                "UID", parameters: [VCardParameter(name: "VALUE", values: ["text"])], value: id, raw: true)
        } else {
            out.property("UID", value: id, raw: true)
        }
    }

    /// True for `scheme:rest` (RFC 3986: a letter, then letters, digits, '+', '-', '.').
    static func isURI(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":"), colon != s.startIndex, s.index(after: colon) != s.endIndex else {
            return false
        }
        let scheme = s[..<colon].unicodeScalars
        guard let first = scheme.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return scheme.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }

    static func write(_ g: Group, version: Version, to out: inout LineWriter) {
        out.line("BEGIN:VCARD")
        out.line("VERSION:" + version.rawValue)
        out.property(version == .v4 ? "KIND" : "X-ADDRESSBOOKSERVER-KIND", value: "group")
        uid(g.id, version, &out)
        out.property("FN", value: escape(g.name))
        for m in g.memberIDs {
            out.property(
                version == .v4 ? "MEMBER" : "X-ADDRESSBOOKSERVER-MEMBER",
                value: m.contains(":") ? m : "urn:uuid:" + m, raw: true)
        }
        for p in g.unknownProperties where !(version == .v4 && isProfile(p.name)) {
            out.property(p.name, group: p.group, parameters: p.parameters, value: p.value, raw: true)
        }
        out.line("END:VCARD")
    }

    private static func write(_ photo: ContactPhoto, version: Version, to out: inout LineWriter) {
        switch photo {
        case .uri(let uri):
            out.property(
                "PHOTO", parameters: version == .v4 ? [] : [VCardParameter(name: "VALUE", values: ["uri"])],
                value: uri)
        case .embedded(let data, let mediaType):
            if version == .v4 {
                out.property("PHOTO", value: "data:" + (mediaType ?? "") + ";base64," + data.base64EncodedString())
            } else {
                var params = [VCardParameter(name: "ENCODING", values: ["b"])]
                if let mediaType {
                    let type = mediaType.hasPrefix("image/") ? String(mediaType.dropFirst(6)).uppercased() : mediaType
                    params.append(VCardParameter(name: "TYPE", values: [type]))
                }
                out.property("PHOTO", parameters: params, value: data.base64EncodedString())
            }
        }
    }

    private static func date(
        _ name: String, _ d: ContactDate, _ version: Version, _ group: String?,
        _ out: inout LineWriter
    ) {
        if let text = d.text {
            out.property(
                name, group: group,
                parameters: version == .v4 ? [VCardParameter(name: "VALUE", values: ["text"])] : [],
                value: escape(text))
            return
        }
        var text = d.isoString
        if version == .v4 {
            text =
                text.hasPrefix("--")
                ? "--" + text.dropFirst(2).filter { $0 != "-" } : text.count == 10 ? text.filter { $0 != "-" } : text
        }
        out.property(name, group: group, value: text)
    }

    /// Writes a labelled property: standard labels as TYPE, the others as an Apple `X-ABLabel` in a group.
    private static func labeled(
        _ name: String, _ label: ContactLabel, _ preference: Int?, _ value: String,
        _ version: Version, _ groups: inout ItemGroups, _ out: inout LineWriter
    ) {
        var types: [String] = []
        var abLabelText: String?
        let isPhone = name == "TEL"
        switch label {
        case .unlabeled: break
        case .home: types = ["home"]
        case .work: types = ["work"]
        case .other: types = ["other"]
        case .mobile where isPhone: types = ["cell"]
        case .iPhone where isPhone: types = ["cell", "iphone"]
        case .main where isPhone: types = ["main"]
        case .homeFax where isPhone: types = ["home", "fax"]
        case .workFax where isPhone: types = ["work", "fax"]
        case .otherFax where isPhone: types = ["fax"]
        case .pager where isPhone: types = ["pager"]
        default: abLabelText = abLabel(label)
        }
        var params: [VCardParameter] = []
        if let preference {
            if version == .v4 {
                params.append(VCardParameter(name: "PREF", values: [String(preference)]))
            } else {
                types.append("pref")
            }
        }
        if !types.isEmpty { params.insert(VCardParameter(name: "TYPE", values: types), at: 0) }
        if let abLabelText {
            let g = groups.next()
            out.property(name, group: g, parameters: params, value: value)
            out.property("X-ABLabel", group: g, value: escape(abLabelText))
        } else {
            out.property(name, parameters: params, value: value)
        }
    }

    private static func abLabel(_ label: ContactLabel) -> String {
        switch label {
        case .custom(let text): return text
        case .unlabeled: return ""
        case .iPhone: return "iPhone"
        case .homePage: return "_$!<HomePage>!$_"
        case .homeFax: return "_$!<HomeFAX>!$_"
        case .workFax: return "_$!<WorkFAX>!$_"
        case .otherFax: return "_$!<OtherFAX>!$_"
        default:
            let id = label.identifier
            return "_$!<" + id.prefix(1).uppercased() + id.dropFirst() + ">!$_"
        }
    }

    /// Escapes text for a value: backslash, comma, semicolon and line breaks.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x2C || $0 == 0x3B || $0 == 0x0A || $0 == 0x0D }) else {
            return text
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        var previousCR = false
        for b in text.utf8 {
            switch b {
            case 0x5C: out += [0x5C, 0x5C]
            case 0x2C: out += [0x5C, 0x2C]
            case 0x3B: out += [0x5C, 0x3B]
            case 0x0D: out += [0x5C, 0x6E]
            case 0x0A: if !previousCR { out += [0x5C, 0x6E] }
            default: out.append(b)
            }
            previousCR = b == 0x0D
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Picks `itemN` group names that no unknown property of the card uses.
struct ItemGroups {
    var taken: Set<String>
    var counter = 0
    mutating func next() -> String {
        while true {
            counter += 1
            let name = "item\(counter)"
            if !taken.contains(name) { return name }
        }
    }
}

/// Accumulates content lines, folded at 75 octets, CRLF-terminated.
struct LineWriter {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1 << 14) }

    mutating func line(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    /// Writes `group.NAME;params:value`; `raw` values are written as they are except line breaks, which
    /// become `\n`.
    mutating func property(
        _ name: String, group: String? = nil, parameters: [VCardParameter] = [], value: String,
        raw: Bool = false
    ) {
        var lineBytes: [UInt8] = []
        lineBytes.reserveCapacity(name.utf8.count + value.utf8.count + 16)
        if let group, !group.isEmpty {
            lineBytes.append(contentsOf: group.utf8)
            lineBytes.append(0x2E)
        }
        lineBytes.append(contentsOf: name.utf8)
        for p in parameters {
            lineBytes.append(0x3B)
            lineBytes.append(contentsOf: p.name.utf8)
            lineBytes.append(0x3D)
            for (k, v) in p.values.enumerated() {
                if k > 0 { lineBytes.append(0x2C) }
                appendParameterValue(v, to: &lineBytes)
            }
        }
        lineBytes.append(0x3A)
        if raw {
            var previousCR = false
            for b in value.utf8 {
                if b == 0x0D {
                    lineBytes += [0x5C, 0x6E]
                } else if b == 0x0A {
                    if !previousCR { lineBytes += [0x5C, 0x6E] }
                } else {
                    lineBytes.append(b)
                }
                previousCR = b == 0x0D
            }
        } else {
            lineBytes.append(contentsOf: value.utf8)
        }
        fold(lineBytes)
    }

    /// Quotes a parameter value when it holds `:`, `;`, `,` or a quote; applies RFC 6868 `^` escapes.
    private func appendParameterValue(_ v: String, to out: inout [UInt8]) {
        let needsQuotes = v.utf8.contains { $0 == 0x3A || $0 == 0x3B || $0 == 0x2C || $0 == 0x22 || $0 == 0x0A }
        if needsQuotes { out.append(0x22) }
        for b in v.utf8 {
            switch b {
            case 0x5E: out += [0x5E, 0x5E]
            case 0x0A: out += [0x5E, 0x6E]
            case 0x22: out += [0x5E, 0x27]
            case 0x0D: break
            default: out.append(b)
            }
        }
        if needsQuotes { out.append(0x22) }
    }

    /// Folds at 75 octets (continuation lines: a space and up to 74 octets), never inside a UTF-8 sequence.
    private mutating func fold(_ line: [UInt8]) {
        var start = 0
        var limit = 75
        while line.count - start > limit {
            var cut = start + limit
            while cut > start && (line[cut] & 0xC0) == 0x80 { cut -= 1 }
            bytes.append(contentsOf: line[start..<cut])
            bytes += [0x0D, 0x0A, 0x20]
            start = cut
            limit = 74
        }
        bytes.append(contentsOf: line[start...])
        bytes += [0x0D, 0x0A]
    }
}
