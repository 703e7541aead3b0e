import Support

// MARK: - Byte constants

let cr: UInt8 = 0x0D
let lf: UInt8 = 0x0A
let space: UInt8 = 0x20
let tab: UInt8 = 0x09
let colon: UInt8 = 0x3A
let semicolon: UInt8 = 0x3B
let comma: UInt8 = 0x2C
let equals: UInt8 = 0x3D
let dot: UInt8 = 0x2E
let quote: UInt8 = 0x22
let backslash: UInt8 = 0x5C
let caret: UInt8 = 0x5E

@inline(__always) func upper(_ b: UInt8) -> UInt8 { (b >= 0x61 && b <= 0x7A) ? b - 0x20 : b }
@inline(__always) func isNameByte(_ b: UInt8) -> Bool {
    (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
}

/// `line` from `i`, at most 40 bytes of it, for a diagnostic.
func linePreview(_ line: CheckedBuffer<UInt8>, from i: Int) -> String {
    let end = min(line.count, i + 40)
    var text = String(decoding: line.extracting(i..<end), as: UTF8.self)
    if end < line.count { text += "…" }
    return text
}

/// The properties the model names, recognized from the name bytes once per line.
enum PropertyKind: UInt8 {
    case other, version, uid, fn, n, nickname, phoneticFirst, phoneticLast, org, title, tel, email, url, adr, bday
    case anniversary, abDate, note, photo, categories, lang, kind, abKind, member, abMember
}

extension PropertyKind {
    /// The kind of the upper-cased property name `name`.
    static func of(name: UnsafeBufferPointer<UInt8>) -> PropertyKind {
        switch name.count {
        case 1: return name[0] == 0x4E ? .n : .other
        case 2: return equalsKeyword(name, "FN") ? .fn : .other
        case 3:
            if equalsKeyword(name, "TEL") { return .tel }
            if equalsKeyword(name, "UID") { return .uid }
            if equalsKeyword(name, "ORG") { return .org }
            if equalsKeyword(name, "URL") { return .url }
            if equalsKeyword(name, "ADR") { return .adr }
        case 4:
            if equalsKeyword(name, "NOTE") { return .note }
            if equalsKeyword(name, "BDAY") { return .bday }
            if equalsKeyword(name, "LANG") { return .lang }
            if equalsKeyword(name, "KIND") { return .kind }
        case 5:
            if equalsKeyword(name, "EMAIL") { return .email }
            if equalsKeyword(name, "TITLE") { return .title }
            if equalsKeyword(name, "PHOTO") { return .photo }
        case 6: return equalsKeyword(name, "MEMBER") ? .member : .other
        case 7: return equalsKeyword(name, "VERSION") ? .version : .other
        case 8:
            if equalsKeyword(name, "NICKNAME") { return .nickname }
            if equalsKeyword(name, "X-ABDATE") { return .abDate }
        case 10: return equalsKeyword(name, "CATEGORIES") ? .categories : .other
        case 11: return equalsKeyword(name, "ANNIVERSARY") ? .anniversary : .other
        case 20: return equalsKeyword(name, "X-PHONETIC-LAST-NAME") ? .phoneticLast : .other
        case 21: return equalsKeyword(name, "X-PHONETIC-FIRST-NAME") ? .phoneticFirst : .other
        case 24: return equalsKeyword(name, "X-ADDRESSBOOKSERVER-KIND") ? .abKind : .other
        case 26: return equalsKeyword(name, "X-ADDRESSBOOKSERVER-MEMBER") ? .abMember : .other
        default: break
        }
        return .other
    }
}

/// Which properties a card's builder treats as its own.
/// What a read keeps of a card: `contact`, everything; `groupCard`, what a group card is; `listing`, what a
/// list's row and search use (names, organization, languages, emails, phones and their labels, the
/// addresses' countries) — the other values are only checked, so diagnostics are those of a full read.
enum ReadMode { case contact, groupCard, listing }

/// The TYPE values the model knows, as bits.
enum TypeFlags {
    static let home: UInt32 = 1, work: UInt32 = 2, cell: UInt32 = 4, fax: UInt32 = 8, pager: UInt32 = 16
    static let pref: UInt32 = 32, iphone: UInt32 = 64, main: UInt32 = 128, other: UInt32 = 256
    static let school: UInt32 = 512

    /// The flag of the TYPE value `value` (any case): 0 for a value the model ignores (VOICE, INTERNET, …),
    /// nil for one it does not know (a custom label).
    static func flag(of value: UnsafeBufferPointer<UInt8>) -> UInt32? {
        @inline(__always) func equals(_ keyword: StaticString) -> Bool { equalsIgnoringCase(value, keyword) }
        switch value.count {
        case 3:
            if equals("FAX") { return fax }
            if equals("MSG") { return 0 }
        case 4:
            if equals("HOME") { return home }
            if equals("WORK") { return work }
            if equals("CELL") { return cell }
            if equals("PREF") { return pref }
            if equals("MAIN") { return main }
            if equals("TEXT") || equals("X400") { return 0 }
        case 5:
            if equals("VOICE") { return 0 }
            if equals("PAGER") { return pager }
            if equals("OTHER") { return other }
        case 6:
            if equals("MOBILE") { return cell }
            if equals("IPHONE") { return iphone }
            if equals("SCHOOL") { return school }
        case 8: if equals("INTERNET") { return 0 }
        case 10: if equals("X-INTERNET") { return 0 }
        default: break
        }
        return nil
    }
}

/// Exact comparison of `bytes` (a read-only view of the caller's line) with an upper-case ASCII keyword.
@inline(__always) func equalsKeyword(_ bytes: UnsafeBufferPointer<UInt8>, _ keyword: StaticString) -> Bool {
    guard bytes.count == keyword.utf8CodeUnitCount else { return false }
    let k = keyword.utf8Start
    for i in 0..<bytes.count where bytes[i] != k[i] { return false }
    return true
}

/// Case-insensitive comparison of `bytes` with an upper-case ASCII keyword.
@inline(__always) func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ keyword: StaticString) -> Bool {
    guard bytes.count == keyword.utf8CodeUnitCount else { return false }
    let k = keyword.utf8Start
    for i in 0..<bytes.count where upper(bytes[i]) != k[i] { return false }
    return true
}
