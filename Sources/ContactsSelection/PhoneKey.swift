import ContactsCore

/// What the list needs of a phone number: its E.164 form (for the row value and duplicate detection) and
/// the digit strings a search may hit. Numbers already written in international form
/// ("+1 (415) 555-0100") are normalized directly — E.164 is then the `+` and the digits — which keeps
/// loading a million contacts fast; everything else goes through libphonenumber with the locale's region.
/// All fields are short enough to be stored inline (no heap allocation per number).
struct PhoneKey: Sendable, Hashable {
    var raw: String
    var e164: String?
    /// The national number as libphonenumber gives it (nil for directly normalized numbers).
    var national: String?

    static func make(_ raw: String, region: String) -> PhoneKey {
        if let fast = international(raw) { return fast }
        let parsed = PhoneNumber.parse(raw, region: region)
        return PhoneKey(raw: raw, e164: parsed.e164, national: parsed.searchDigits)
    }

    /// "+<digits>" with only spaces, dashes, dots, slashes and parentheses between them, no "(0)" trunk
    /// prefix, no extension, 8–15 digits: E.164 is the plus sign and the digits.
    static func international(_ raw: String) -> PhoneKey? {
        var bytes = raw.utf8.drop { $0 == 0x20 }
        guard bytes.first == 0x2B else { return nil }  // "+"
        bytes = bytes.dropFirst()
        var digits: [UInt8] = []
        var previous: UInt8 = 0
        for b in bytes {
            switch b {
            case 0x30...0x39:
                if previous == 0x28 && b == 0x30 { return nil }  // "(0": national trunk prefix inside
                digits.append(b)
            case 0x20, 0x2D, 0x2E, 0x2F, 0x28, 0x29: break
            default: return nil  // letters (extensions), other symbols: let libphonenumber decide
            }
            previous = b
        }
        guard (8...15).contains(digits.count), digits.first != 0x30 else { return nil }
        return PhoneKey(raw: raw, e164: "+" + String(decoding: digits, as: UTF8.self), national: nil)
    }

    /// Calls `body` with each distinct digit string a search may hit: as written, E.164 without `+`, and
    /// the national number (for directly normalized numbers: every suffix after a 1–3 digit country code).
    func forEachSearchDigits(_ body: (Substring) -> Void) {
        let written = Self.digitsOnly(raw)
        var seen: [Substring] = []
        func emit(_ s: Substring) {
            guard !s.isEmpty, !seen.contains(s) else { return }
            seen.append(s)
            body(s)
        }
        emit(Substring(written))
        if let e164 {
            let all = e164.dropFirst()
            emit(all)
            if national == nil { for n in 1...3 { emit(all.dropFirst(n)) } }
        }
        if let national { emit(Substring(national)) }
    }

    static func digitsOnly(_ s: String) -> String {
        String(decoding: s.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)
    }
}
