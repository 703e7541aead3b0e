/// The character classes of the MessageFormat 2 syntax (spec/message.abnf).
enum Characters {
    static func isNameStart(_ c: UInt32) -> Bool {
        switch c {
        case 0x41...0x5A, 0x61...0x7A, 0x2B, 0x5F: true
        case 0xA1...0x61B, 0x61D...0x167F, 0x1681...0x1FFF, 0x200B...0x200D, 0x2010...0x2027: true
        case 0x2030...0x205E, 0x2060...0x2065, 0x206A...0x2FFF, 0x3001...0xD7FF: true
        case 0xE000...0xFDCF, 0xFDF0...0xFFFD: true
        case 0x10000...0x10FFFF: (c & 0xFFFF) <= 0xFFFD
        default: false
        }
    }

    static func isNameChar(_ c: UInt32) -> Bool {
        isNameStart(c) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2E
    }

    static func isWhitespace(_ c: UInt32) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A || c == 0x3000 }

    static func isBidi(_ c: UInt32) -> Bool { c == 0x61C || c == 0x200E || c == 0x200F || (c >= 0x2066 && c <= 0x2069) }

    /// True when `text` matches the syntax's `number-literal` (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`).
    static func isNumberLiteral(_ text: String) -> Bool {
        var u = text.utf8[...]
        func digits() -> Int {
            var n = 0
            while let c = u.first, c >= 0x30, c <= 0x39 {
                u.removeFirst()
                n += 1
            }
            return n
        }
        if u.first == 0x2D { u.removeFirst() }
        if u.first == 0x30 {
            u.removeFirst()
        } else if let c = u.first, c >= 0x31, c <= 0x39 {
            _ = digits()
        } else {
            return false
        }
        if u.first == 0x2E {
            u.removeFirst()
            if digits() == 0 { return false }
        }
        if u.first == 0x65 || u.first == 0x45 {
            u.removeFirst()
            if u.first == 0x2B || u.first == 0x2D { u.removeFirst() }
            if digits() == 0 { return false }
        }
        return u.isEmpty
    }
}
