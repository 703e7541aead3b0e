import Foundation

/// The encoding a text strings file was stored in, so that it can be written back the same way.
///
/// ```swift
/// let decoded = TextEncoding.decode(bytes)
/// decoded.encoding == .utf16LE(bom: true)   // decoded.text is the text
/// ```
public enum TextEncoding: Sendable, Hashable, CustomStringConvertible {
    case utf8(bom: Bool)
    case utf16LE(bom: Bool)
    case utf16BE(bom: Bool)
    case utf32LE(bom: Bool)
    case utf32BE(bom: Bool)

    public var description: String {
        switch self {
        case .utf8(let bom): return bom ? "UTF-8 with BOM" : "UTF-8"
        case .utf16LE(let bom): return bom ? "UTF-16LE with BOM" : "UTF-16LE"
        case .utf16BE(let bom): return bom ? "UTF-16BE with BOM" : "UTF-16BE"
        case .utf32LE(let bom): return bom ? "UTF-32LE with BOM" : "UTF-32LE"
        case .utf32BE(let bom): return bom ? "UTF-32BE with BOM" : "UTF-32BE"
        }
    }

    var hasBOM: Bool {
        switch self {
        case .utf8(let b), .utf16LE(let b), .utf16BE(let b), .utf32LE(let b), .utf32BE(let b): return b
        }
    }

    /// The result of decoding: the text, the encoding found, and the byte offset of the first invalid
    /// sequence when the bytes were not valid in that encoding (those became U+FFFD).
    public struct Decoded: Sendable {
        public var text: String
        public var encoding: TextEncoding
        public var firstInvalidByte: Int?
    }

    /// Sniffs a BOM (UTF-32 before UTF-16, UTF-8), else BOM-less UTF-16 by its zero bytes, else UTF-8.
    static func sniff(_ b: [UInt8]) -> TextEncoding {
        if b.count >= 4, b[0] == 0xFF, b[1] == 0xFE, b[2] == 0, b[3] == 0 { return .utf32LE(bom: true) }
        if b.count >= 4, b[0] == 0, b[1] == 0, b[2] == 0xFE, b[3] == 0xFF { return .utf32BE(bom: true) }
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { return .utf8(bom: true) }
        if b.count >= 2, b[0] == 0xFF, b[1] == 0xFE { return .utf16LE(bom: true) }
        if b.count >= 2, b[0] == 0xFE, b[1] == 0xFF { return .utf16BE(bom: true) }
        // BOM-less UTF-16: text strings files are mostly ASCII, so every other byte is zero.
        if b.count >= 4, b.count % 2 == 0 {
            var zeroEven = 0
            var zeroOdd = 0
            let sample = min(b.count, 512)
            for i in 0..<sample where b[i] == 0 { if i % 2 == 0 { zeroEven += 1 } else { zeroOdd += 1 } }
            let half = sample / 2
            if zeroOdd * 10 >= half * 4 && zeroEven == 0 { return .utf16LE(bom: false) }
            if zeroEven * 10 >= half * 4 && zeroOdd == 0 { return .utf16BE(bom: false) }
        }
        return .utf8(bom: false)
    }

    /// The length of the byte order mark.
    var bomLength: Int {
        switch self {
        case .utf8(let bom): return bom ? 3 : 0
        case .utf16LE(let bom), .utf16BE(let bom): return bom ? 2 : 0
        case .utf32LE(let bom), .utf32BE(let bom): return bom ? 4 : 0
        }
    }

    /// Sniffs a BOM (UTF-32 before UTF-16, UTF-8), else BOM-less UTF-16 by its zero bytes, else UTF-8.
    public static func decode(_ b: [UInt8]) -> Decoded {
        let encoding = sniff(b)
        let offset = encoding.bomLength
        let body = offset == 0 ? b : Array(b[offset...])
        switch encoding {
        case .utf8: return decode8(body, encoding: encoding, offset: offset)
        case .utf16LE: return decode16(body, bigEndian: false, encoding: encoding, offset: offset)
        case .utf16BE: return decode16(body, bigEndian: true, encoding: encoding, offset: offset)
        case .utf32LE: return decode32(body, bigEndian: false, encoding: encoding, offset: offset)
        case .utf32BE: return decode32(body, bigEndian: true, encoding: encoding, offset: offset)
        }
    }

    /// Like ``decode(_:)``, but the text comes back as UTF-8 bytes: valid UTF-8 without a BOM is the same
    /// array (no copy), so a large file is not held twice while it is parsed.
    static func decodeToUTF8(_ b: [UInt8]) -> (utf8: [UInt8], encoding: TextEncoding, firstInvalidByte: Int?) {
        let encoding = sniff(b)
        if case .utf8(let bom) = encoding,
            b.withUnsafeBufferPointer({ isValidUTF8(UnsafeBufferPointer(rebasing: $0[(bom ? 3 : 0)...])) })
        {
            return (bom ? Array(b[3...]) : b, encoding, nil)
        }
        let decoded = decode(b)
        return (Array(decoded.text.utf8), decoded.encoding, decoded.firstInvalidByte)
    }

    /// Whether `b` is well-formed UTF-8 (no overlong forms, surrogates or values above U+10FFFF).
    static func isValidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return true }
        let n = b.count
        var i = 0
        while i < n {
            // ASCII runs, eight bytes at a time.
            if i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let c = b[i]
            if c < 0x80 {
                i += 1
                continue
            }
            func continuation(_ k: Int) -> Bool { k < n && b[k] & 0xC0 == 0x80 }
            switch c {
            case 0xC2...0xDF:
                guard continuation(i + 1) else { return false }
                i += 2
            case 0xE0...0xEF:
                guard continuation(i + 1), continuation(i + 2) else { return false }
                if c == 0xE0 && b[i + 1] < 0xA0 { return false }
                if c == 0xED && b[i + 1] >= 0xA0 { return false }
                i += 3
            case 0xF0...0xF4:
                guard continuation(i + 1), continuation(i + 2), continuation(i + 3) else { return false }
                if c == 0xF0 && b[i + 1] < 0x90 { return false }
                if c == 0xF4 && b[i + 1] >= 0x90 { return false }
                i += 4
            default:
                return false
            }
        }
        return true
    }

    private static func decode8(_ b: [UInt8], encoding: TextEncoding, offset: Int) -> Decoded {
        if let text = String(validating: b, as: UTF8.self) {
            return Decoded(text: text, encoding: encoding, firstInvalidByte: nil)
        }
        var it = b.makeIterator()
        var decoder = UTF8()
        var scalars = String.UnicodeScalarView()
        var invalid: Int?
        var consumed = 0
        loop: while true {
            switch decoder.decode(&it) {
            case .scalarValue(let s):
                scalars.append(s)
                consumed += UTF8.width(s)
            case .emptyInput: break loop
            case .error:
                if invalid == nil { invalid = offset + consumed }
                scalars.append("\u{FFFD}")
                consumed += 1
            }
        }
        return Decoded(text: String(scalars), encoding: encoding, firstInvalidByte: invalid)
    }

    private static func decode16(_ b: [UInt8], bigEndian: Bool, encoding: TextEncoding, offset: Int) -> Decoded {
        var units: [UInt16] = []
        units.reserveCapacity(b.count / 2)
        var i = 0
        while i + 1 < b.count {
            units.append(bigEndian ? UInt16(b[i]) << 8 | UInt16(b[i + 1]) : UInt16(b[i + 1]) << 8 | UInt16(b[i]))
            i += 2
        }
        var invalid: Int? = b.count % 2 == 1 ? offset + b.count - 1 : nil
        var it = units.makeIterator()
        var decoder = UTF16()
        var scalars = String.UnicodeScalarView()
        var unitIndex = 0
        loop: while true {
            switch decoder.decode(&it) {
            case .scalarValue(let s):
                scalars.append(s)
                unitIndex += UTF16.width(s)
            case .emptyInput: break loop
            case .error:
                if invalid == nil || invalid! > offset + unitIndex * 2 { invalid = offset + unitIndex * 2 }
                scalars.append("\u{FFFD}")
                unitIndex += 1
            }
        }
        return Decoded(text: String(scalars), encoding: encoding, firstInvalidByte: invalid)
    }

    private static func decode32(_ b: [UInt8], bigEndian: Bool, encoding: TextEncoding, offset: Int) -> Decoded {
        var scalars = String.UnicodeScalarView()
        var invalid: Int? = b.count % 4 != 0 ? offset + b.count - b.count % 4 : nil
        var i = 0
        while i + 3 < b.count {
            let v: UInt32 =
                bigEndian
                ? UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
                : UInt32(b[i + 3]) << 24 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i])
            if let s = Unicode.Scalar(v) {
                scalars.append(s)
            } else {
                if invalid == nil || invalid! > offset + i { invalid = offset + i }
                scalars.append("\u{FFFD}")
            }
            i += 4
        }
        return Decoded(text: String(scalars), encoding: encoding, firstInvalidByte: invalid)
    }

    /// Encodes UTF-8 text in this encoding, with the BOM when the original had one.
    func encode(utf8 bytes: [UInt8]) -> [UInt8] {
        if case .utf8(let bom) = self { return bom ? [0xEF, 0xBB, 0xBF] + bytes : bytes }
        return encode(String(decoding: bytes, as: UTF8.self))
    }

    /// Encodes `text` in this encoding, with the BOM when the original had one.
    public func encode(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        switch self {
        case .utf8(let bom):
            if bom { out = [0xEF, 0xBB, 0xBF] }
            out.append(contentsOf: text.utf8)
        case .utf16LE(let bom):
            if bom { out = [0xFF, 0xFE] }
            for u in text.utf16 {
                out.append(UInt8(u & 0xFF))
                out.append(UInt8(u >> 8))
            }
        case .utf16BE(let bom):
            if bom { out = [0xFE, 0xFF] }
            for u in text.utf16 {
                out.append(UInt8(u >> 8))
                out.append(UInt8(u & 0xFF))
            }
        case .utf32LE(let bom):
            if bom { out = [0xFF, 0xFE, 0, 0] }
            for s in text.unicodeScalars {
                let v = s.value
                out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
            }
        case .utf32BE(let bom):
            if bom { out = [0, 0, 0xFE, 0xFF] }
            for s in text.unicodeScalars {
                let v = s.value
                out += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            }
        }
        return out
    }
}
