import Foundation
import Support

/// The value decoders: UTF-8 value bytes to Strings (text escapes, structured components, ids, trimming),
/// quoted-printable, and the UTF-8 check. Pure functions of their input; the parser reports what they find.
/// Unsafe code: each takes its value as a read-only `UnsafeBufferPointer<UInt8>` borrowed from the caller (a
/// view of the content line or the decoding buffer), so that no value is copied before it becomes a String.
enum VCardValueDecoder {

    static func rawString(_ v: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: v, as: UTF8.self)
    }

    /// `v` without surrounding spaces and tabs.
    static func trimmedRange(_ v: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
        var s = 0
        var e = v.count
        while s < e && (v[s] == space || v[s] == tab) { s += 1 }
        while e > s && (v[e - 1] == space || v[e - 1] == tab) { e -= 1 }
        return (s, e)
    }

    static func trimmedString(_ v: UnsafeBufferPointer<UInt8>) -> String {
        let (s, e) = trimmedRange(v)
        return String(decoding: UnsafeBufferPointer(rebasing: v[s..<e]), as: UTF8.self)
    }

    /// A UID or MEMBER value: trimmed, without a `urn:uuid:` prefix.
    static func idString(_ v: UnsafeBufferPointer<UInt8>) -> String {
        var (s, e) = trimmedRange(v)
        let prefix: StaticString = "URN:UUID:"
        if e - s > 9 {
            let k = prefix.utf8Start
            var match = true
            for i in 0..<9 where upper(v[s + i]) != k[i] {
                match = false
                break
            }
            if match { s += 9 }
        }
        while e > s && (v[e - 1] == space || v[e - 1] == tab) { e -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: v[s..<e]), as: UTF8.self)
    }

    static func isGroupKind(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        let (s, e) = trimmedRange(v)
        guard e - s == 5 else { return false }
        let k: StaticString = "GROUP"
        for i in 0..<5 where upper(v[s + i]) != k.utf8Start[i] { return false }
        return true
    }

    /// Calls `body` with the range of each component of `v` split at unescaped `separator`s.
    @inline(__always)
    static func forEachComponent(_ v: UnsafeBufferPointer<UInt8>, separator: UInt8, _ body: (Int, Int) -> Void) {
        var s = 0
        var i = 0
        let n = v.count
        while i < n {
            let b = v[i]
            if b == backslash {
                i += 2
                continue
            }
            if b == separator {
                body(s, i)
                s = i + 1
            }
            i += 1
        }
        body(s, max(s, n))
    }

    /// Text with `\n`, `\,`, `\;`, `\:` and `\\` escapes undone (other backslashes kept); CRLF and CR
    /// become LF.
    static func unescape(_ v: UnsafeBufferPointer<UInt8>) -> String {
        unescape(v, from: 0, to: v.count)
    }

    /// `unescape` of the value without the spaces and tabs around it: an address (EMAIL) never has them,
    /// yet hand-written cards do (`EMAIL: ada@example.org `).
    static func unescapeTrimmed(_ v: UnsafeBufferPointer<UInt8>) -> String {
        var (s, e) = (0, v.count)
        while s < e && (v[s] == 0x20 || v[s] == 0x09) { s += 1 }
        while e > s && (v[e - 1] == 0x20 || v[e - 1] == 0x09) { e -= 1 }
        return unescape(v, from: s, to: e)
    }

    static func unescape(_ v: UnsafeBufferPointer<UInt8>, from s: Int, to e: Int) -> String {
        if e <= s { return "" }  // empty structured components are common (N, ADR)
        var k = s
        while k < e && v[k] != backslash && v[k] != cr { k += 1 }
        if k == e { return String(decoding: UnsafeBufferPointer(rebasing: v[s..<e]), as: UTF8.self) }
        // Unescaping never lengthens the text: the `e - s` bytes asked for are enough (bounds-checked in debug).
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
                    case 0x6E, 0x4E:
                        out[o] = lf
                        o += 1
                        i += 2
                        continue
                    case backslash, comma, semicolon, colon:
                        out[o] = n
                        o += 1
                        i += 2
                        continue
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

    /// Parameter value text with RFC 6868 caret escapes (`^n`, `^^`, `^'`) decoded; other carets kept.
    static func parameterText(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        guard raw.contains(caret) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var k = 0
        let e = raw.count
        while k < e {
            let b = raw[k]
            if b == caret && k + 1 < e {
                switch raw[k + 1] {
                case 0x6E, 0x4E:
                    out.append(lf)
                    k += 2
                    continue
                case caret:
                    out.append(caret)
                    k += 2
                    continue
                case 0x27:
                    out.append(quote)
                    k += 2
                    continue
                default: break
                }
            }
            out.append(b)
            k += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Quoted-printable `src` decoded onto the end of `out`: `=XX` becomes the byte, a trailing `=` (soft
    /// break) is dropped, any other `=` is kept as written. Returns the offset in `src` of the first such
    /// invalid `=`, nil when there is none.
    static func decodeQuotedPrintable(_ src: UnsafeBufferPointer<UInt8>, into out: inout CheckedBuffer<UInt8>)
        -> Int?
    {
        @inline(__always) func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x37
            case 0x61...0x66: return b - 0x57
            default: return nil
            }
        }
        out.reserveCapacity(out.count + src.count)
        var firstInvalid: Int?
        var i = 0
        let n = src.count
        while i < n {
            let b = src[i]
            if b == equals {
                if i + 2 < n, let h = hex(src[i + 1]), let l = hex(src[i + 2]) {
                    out.append(h << 4 | l)
                    i += 3
                    continue
                }
                if i == n - 1 {  // trailing soft break
                    i += 1
                    continue
                }
                if firstInvalid == nil { firstInvalid = i }
            }
            out.append(b)
            i += 1
        }
        return firstInvalid
    }

    /// The first invalid UTF-8 byte's offset, nil when `v` is valid.
    static func firstInvalidUTF8(_ v: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = v.count
        var i = 0
        // ASCII fast path, 8 bytes at a time.
        while i + 8 <= n {
            if v.word(at: i) & 0x8080_8080_8080_8080 != 0 { break }
            i += 8
        }
        while i < n {
            let b = v[i]
            if b < 0x80 {
                i += 1
                continue
            }
            var need = 0
            var lo: UInt8 = 0x80
            var hi: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: need = 1
            case 0xE0:
                need = 2
                lo = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED:
                need = 2
                hi = 0x9F
            case 0xF0:
                need = 3
                lo = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4:
                need = 3
                hi = 0x8F
            default: return i
            }
            guard i + need < n else { return i }
            let c1 = v[i + 1]
            if c1 < lo || c1 > hi { return i }
            if need >= 2 {
                let c = v[i + 2]
                if c < 0x80 || c > 0xBF { return i }
            }
            if need == 3 {
                let c = v[i + 3]
                if c < 0x80 || c > 0xBF { return i }
            }
            i += need + 1
        }
        return nil
    }

    /// Undoes text escapes in a String (used for values kept raw, such as X-ABLabel).
    static func unescapeText(_ s: String) -> String {
        guard s.utf8.contains(0x5C) else { return s }
        var out = ""
        var it = s.makeIterator()
        while let ch = it.next() {
            if ch == "\\", let n = it.next() {
                switch n {
                case "n", "N": out.append("\n")
                case "\\", ",", ";", ":": out.append(n)
                default:
                    out.append(ch)
                    out.append(n)
                }
            } else {
                out.append(ch)
            }
        }
        return out
    }
}
