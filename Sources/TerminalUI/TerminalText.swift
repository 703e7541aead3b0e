/// Text from the user's data as it may be shown on a terminal: C0 and C1 control characters (ESC, CR,
/// BEL, CSI …), DEL and the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are
/// written visibly as `\u{1B}` so that a contact's name can neither drive the terminal (colours, cursor
/// moves, title changes, hyperlinks) nor reorder the rest of the line. Every human-output path of the
/// tool and every terminal front end passes values through it; JSON output stays exact.
///
/// ```swift
/// terminalSafe("Eve\u{1B}[2J")   // "Eve\u{1B}[2J" with the ESC written as the six characters \u{1B}
/// ```
public func terminalSafe(_ text: String) -> String {
    guard text.utf8.withContiguousStorageIfAvailable(containsEscape) ?? text.unicodeScalars.contains(where: needsEscape)
    else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
        if needsEscape(scalar) {
            out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// `needsEscape` of any scalar of valid UTF-8, decided on the bytes: C0 and DEL are single bytes, C1 is
/// C2 80–C2 9F, U+202A–U+202E are E2 80 AA–AE and U+2066–U+2069 are E2 81 A6–A9.
package func containsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    let n = bytes.count
    while i < n {
        let b = bytes[i]
        if b < 0x20 || b == 0x7F { return true }
        if b == 0xC2 && i + 1 < n && (0x80...0x9F).contains(bytes[i + 1]) { return true }
        if b == 0xE2 && i + 2 < n {
            let (b1, b2) = (bytes[i + 1], bytes[i + 2])
            if (b1 == 0x80 && (0xAA...0xAE).contains(b2)) || (b1 == 0x81 && (0xA6...0xA9).contains(b2)) { return true }
        }
        i += 1
    }
    return false
}

package func needsEscape(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1
    case 0x202A...0x202E, 0x2066...0x2069: return true  // bidi embeddings, overrides, isolates
    default: return false
    }
}
