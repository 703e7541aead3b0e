import Dispatch
import Testing

@testable import ContactsCore

/// The normalizer must give exactly what libphonenumber gives: its fast path (numbers in international
/// form, no libphonenumber call), its cache and its batches are checked against libphonenumber itself on
/// generated numbers (fixed seed).
@Suite struct PhoneNormalizerTests {
    /// SplitMix64: a small seeded generator, the same numbers on every run.
    struct Seeded {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    static let regions = ["US", "GB", "DE", "FR", "IT", "JP", "CN", "RU", "AR", "MX", "BR", "IN", "AU", "ZZ"]
    /// Calling codes, frequent ones (and ones whose regions have national prefixes of every kind) first.
    static let codes = [
        "1", "7", "20", "27", "30", "31", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47", "48", "49",
        "51", "52", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66", "81", "82", "84", "86",
        "90", "91", "92", "93", "94", "95", "98", "211", "212", "213", "216", "218", "220", "234", "254", "255",
        "262", "290", "350", "351", "352", "353", "354", "358", "359", "370", "371", "372", "375", "376", "380",
        "381", "385", "386", "420", "421", "423", "500", "590", "595", "598", "599", "670", "672", "674", "679",
        "800", "808", "850", "852", "853", "855", "856", "870", "878", "880", "881", "882", "883", "886", "888",
        "960", "961", "962", "963", "964", "965", "966", "967", "968", "970", "971", "972", "973", "974", "975",
        "976", "977", "979", "992", "993", "994", "995", "996", "998", "999", "0", "42", "38", "28",
    ]

    /// A varied number: international or national form, valid and invalid lengths, national prefixes after
    /// the calling code, separators of every kind, letters, extensions, other digits.
    static func number(_ g: inout Seeded) -> String {
        func digits(_ n: Int) -> String { String((0..<n).map { _ in Character(String(g.below(10))) }) }
        let separators = [" ", "-", ".", "/", "(", ")", " (", ") ", "  ", ""]
        func spaced(_ s: String) -> String {
            var out = ""
            for (k, c) in s.enumerated() {
                if k > 0 && g.below(4) == 0 { out += g.pick(separators) }
                out.append(c)
            }
            return out
        }
        switch g.below(10) {
        case 0...5:
            var body = digits(g.below(16) + 1)
            if g.below(5) == 0 { body = g.pick(["0", "1", "8", "9", "00", "15", "01"]) + body }
            let code = g.pick(codes)
            var text = "+" + spaced(code + body)
            if g.below(20) == 0 { text += g.pick([" ", "-", ")", " x12", " ext. 7", "#", ";ext=3"]) }
            if g.below(30) == 0 { text = g.pick([" ", "＋", "tel:", "00"]) + text.dropFirst() }
            return text
        case 6, 7:
            return spaced(g.pick(["", "0", "1", "8", "(0)"]) + digits(g.below(12) + 3))
        case 8:
            // Letters (vanity numbers, extensions), other digit scripts.
            let letters = g.pick(["FLOWERS", "x", "ext", "a", "CALL-ME"])
            return "+" + g.pick(codes) + " " + digits(g.below(6) + 2) + " " + letters + digits(g.below(3))
        default:
            let arabic = "٠١٢٣٤٥٦٧٨٩".map { String($0) }
            return "+" + g.pick(["49", "20", "971"]) + " "
                + (0..<(g.below(8) + 6)).map { _ in arabic[g.below(10)] }.joined()
        }
    }

    static func reference(_ texts: [(String, String)]) -> [String?] {
        PhoneNormalizer.parallelMap(texts) { PhoneNormalizer.libphonenumberE164($0.0, region: $0.1) }
    }

    @Test func fastPathAgreesWithLibphonenumberOn100kNumbers() {
        var g = Seeded(state: 20_261_201)
        let cases = (0..<100_000).map { _ in (Self.number(&g), Self.regions[g.below(Self.regions.count)]) }
        let normalizer = PhoneNormalizer.shared
        let expected = Self.reference(cases)
        var decided = 0
        var international = 0
        var mismatches: [String] = []
        for (k, (text, region)) in cases.enumerated() {
            if text.hasPrefix("+") { international += 1 }
            guard case .decided(let e) = normalizer.fastE164(text) else { continue }
            decided += 1
            if e != expected[k] && mismatches.count < 10 {
                mismatches.append("\(text) [\(region)]: fast \(e ?? "nil"), libphonenumber \(expected[k] ?? "nil")")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        // Most numbers in international form are decided without libphonenumber (else it is not fast).
        #expect(decided * 2 > international, "decided \(decided) of \(international)")
        #expect(expected.contains { $0 != nil } && expected.contains { $0 == nil })
    }

    /// Regions for numbers in national form: main regions of their codes with literal, pattern and no national
    /// prefixes, international prefixes of every shape, and regions that are not the main one ("CA", "GG").
    static let nationalRegions = [
        "US", "CA", "GB", "GG", "DE", "FR", "IT", "JP", "CN", "RU", "KZ", "AR", "MX", "BR", "IN", "AU", "NL", "ES",
        "CH", "KR", "SG", "HK", "IL", "ZA", "NG", "FI", "SE", "ZZ",
    ]

    /// A number as people write it without "+": with or without the national prefix or the calling code,
    /// an international prefix, separators of every kind, valid and invalid lengths.
    static func nationalNumber(_ g: inout Seeded) -> String {
        func digits(_ n: Int) -> String { String((0..<n).map { _ in Character(String(g.below(10))) }) }
        let separators = [" ", "-", ".", "/", "(", ")", " (", ") ", ""]
        var body = digits(g.below(14) + 2)
        if g.below(4) == 0 { body = g.pick(["0", "1", "00", "011", "8", "810", "0015", "9", "44", "49", "7"]) + body }
        var out = g.below(8) == 0 ? "(" : ""
        for (k, c) in body.enumerated() {
            if k > 0 && g.below(3) == 0 { out += g.pick(separators) }
            out.append(c)
        }
        if g.below(40) == 0 { out += g.pick([" ", "x", " ext 12", "#"]) }
        return out
    }

    @Test func nationalFastPathAgreesWithLibphonenumberOn100kNumbers() {
        var g = Seeded(state: 20_261_202)
        let cases = (0..<100_000).map { _ in
            (Self.nationalNumber(&g), Self.nationalRegions[g.below(Self.nationalRegions.count)])
        }
        let normalizer = PhoneNormalizer.shared
        let expected = Self.reference(cases)
        var decided = 0
        var decidedUS = 0
        var mismatches: [String] = []
        for (k, (text, region)) in cases.enumerated() {
            guard case .decided(let e) = normalizer.fastNationalE164(text, region: region) else { continue }
            decided += 1
            if region == "US" && e != nil { decidedUS += 1 }
            if e != expected[k] && mismatches.count < 10 {
                mismatches.append("\(text) [\(region)]: fast \(e ?? "nil"), libphonenumber \(expected[k] ?? "nil")")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        // A good share is decided without libphonenumber (else it is not fast), US numbers among them.
        #expect(decided * 4 > cases.count, "decided \(decided) of \(cases.count)")
        #expect(decidedUS > 100, "\(decidedUS)")
        #expect(normalizer.fastNationalE164("(415) 555-0100", region: "US") == .decided("+14155550100"))
        #expect(normalizer.fastNationalE164("1 415 555 0100", region: "US") == .undecided)  // national prefix
        #expect(normalizer.fastNationalE164("011 44 20 7946 0958", region: "US") == .undecided)  // IDD
        #expect(normalizer.fastNationalE164("030 1234567", region: "DE") == .undecided)  // national prefix
        #expect(normalizer.fastNationalE164("(415) 555-0100", region: "CA") == .undecided)  // not the main region
        #expect(normalizer.fastNationalE164("415 555 0100", region: "ZZ") == .undecided)
    }

    @Test func batchesAndSingleLookupsAgreeWithPhoneNumberParse() {
        var g = Seeded(state: 77)
        let texts = (0..<3_000).map { _ in Self.number(&g) } + ["+1 (415) 555-0100", "+1 (415) 555-0100"]
        for region in ["US", "DE", "ZZ"] {
            let batch = PhoneNormalizer.shared.e164(texts, region: region)
            for (k, text) in texts.enumerated() {
                let full = PhoneNumber.parse(text, region: region).e164
                #expect(batch[k] == full, "\(text) [\(region)]")
                #expect(PhoneNormalizer.shared.e164(text, region: region) == full, "\(text) [\(region)]")
            }
        }
    }

    @Test func knownNumbers() {
        let n = PhoneNormalizer.shared
        #expect(n.fastE164("+1 (415) 555-0100") == .decided("+14155550100"))
        #expect(n.fastE164("+49 30 1234567") == .decided("+49301234567"))
        // National prefix after the calling code: libphonenumber strips it, so the fast path defers.
        #expect(n.fastE164("+44 (0) 20 7946 0958") == .undecided)
        #expect(n.e164("+44 (0) 20 7946 0958", region: "US") == "+442079460958")
        #expect(n.e164("(415) 555-0100", region: "US") == "+14155550100")
        #expect(n.e164("030 1234567", region: "DE") == "+49301234567")
        #expect(n.fastE164("+1 415") == .decided(nil))  // not a possible length
        #expect(n.fastE164("415 555 0100") == .undecided)
        // National prefixes that are patterns (China, Australia): decided when the pattern cannot match.
        for text in ["+86 138 0013 8000", "+61 412 345 678", "+86 10 6552 9988"] {
            let expected = PhoneNormalizer.libphonenumberE164(text, region: "US")
            #expect(expected != nil)
            #expect(n.fastE164(text) == .decided(expected), "\(text)")
        }
    }
}
