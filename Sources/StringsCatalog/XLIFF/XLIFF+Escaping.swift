import Foundation
import Support

extension XLIFF {
    static let escapePrefix = "contacts"
    static let escapeMarker = "contacts:escaped"
    static let escapeNamespace = "urn:contacts-selection:xliff-escapes"

    /// True for a scalar XML 1.0 can carry (as itself or as a character reference).
    static func representable(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    static func representable(_ s: String) -> Bool { s.unicodeScalars.allSatisfy(representable) }

    /// `\` → `\\`, a scalar XML cannot carry → `\u{hex}`.
    static func escapeUnrepresentable(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            if u == "\\" {
                out += "\\\\"
            } else if representable(u) {
                out.unicodeScalars.append(u)
            } else {
                out += "\\u{\(String(u.value, radix: 16, uppercase: true))}"
            }
        }
        return out
    }

    /// The inverse of ``escapeUnrepresentable(_:)``; a backslash not starting an escape stays.
    static func unescapeUnrepresentable(_ s: String) -> String {
        let scalars = Array(s.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\\", i + 1 < scalars.count {
                if scalars[i + 1] == "\\" {
                    out.append("\\")
                    i += 2
                    continue
                }
                if scalars[i + 1] == "u", i + 2 < scalars.count, scalars[i + 2] == "{",
                    let close = scalars[(i + 3)...].prefix(9).firstIndex(of: "}"),
                    let v = UInt32(String(String.UnicodeScalarView(scalars[(i + 3)..<close])), radix: 16),
                    let scalar = Unicode.Scalar(v)
                {
                    out.append(scalar)
                    i = close + 1
                    continue
                }
            }
            out.append(scalars[i])
            i += 1
        }
        return String(out)
    }

    /// Element text: markup characters and CR (which XML would turn into LF) as references.
    static func esc(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// Attribute values: also tab, LF and CR as references (written raw, XML reads them as spaces).
    static func escAttribute(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            default: out += esc(String(u))
            }
        }
        return out
    }
}
