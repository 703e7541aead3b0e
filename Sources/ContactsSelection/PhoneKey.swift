import ContactsCore

/// What the list needs of a phone number: its E.164 form (for the row value and duplicate detection) and
/// digit strings to search. Numbers already written in international form ("+1 (415) 555-0100") are
/// normalized directly — E.164 is then the `+` and the digits — which keeps loading a million contacts
/// fast; everything else goes through libphonenumber with the locale's region.
struct PhoneKey: Sendable, Hashable {
    var raw: String
    var e164: String?
    /// Digit strings a search may hit: as written, E.164 without `+`, the national number.
    var searchDigits: [String]

    static func make(_ raw: String, region: String) -> PhoneKey {
        if let fast = international(raw) { return fast }
        let parsed = PhoneNumber.parse(raw, region: region)
        var digits = [digitsOnly(raw)]
        if let e = parsed.e164 { digits.append(String(e.dropFirst())) }
        digits.append(parsed.searchDigits)
        return PhoneKey(raw: raw, e164: parsed.e164, searchDigits: unique(digits))
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
        let all = String(decoding: digits, as: UTF8.self)
        // The national number follows a 1–3 digit country code; index each candidate for prefix search.
        let national = (1...3).map { String(all.dropFirst($0)) }
        return PhoneKey(raw: raw, e164: "+" + all, searchDigits: unique([all] + national))
    }

    static func digitsOnly(_ s: String) -> String {
        String(decoding: s.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)
    }

    static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
