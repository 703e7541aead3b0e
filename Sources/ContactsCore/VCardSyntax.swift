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

/// The properties the model names, recognized from the name bytes once per line.
enum PropertyKind: UInt8 {
    case other, version, uid, fn, n, nickname, phoneticFirst, phoneticLast, org, title, tel, email, url, adr, bday
    case anniversary, abDate, note, photo, categories, lang, kind, abKind, member, abMember
}

/// Which properties a card's builder treats as its own.
enum ReadMode { case contact, groupCard }

/// The TYPE values the model knows, as bits.
enum TypeFlags {
    static let home: UInt32 = 1, work: UInt32 = 2, cell: UInt32 = 4, fax: UInt32 = 8, pager: UInt32 = 16
    static let pref: UInt32 = 32, iphone: UInt32 = 64, main: UInt32 = 128, other: UInt32 = 256
    static let school: UInt32 = 512
}
