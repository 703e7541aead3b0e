import Foundation
import Testing

@testable import Locales

/// The ASCII fast paths of name trimming and script detection answer as the general code does.
@Suite struct NameTextFastPathTests {
    static let samples = [
        "", " ", "Anna", " Anna", "Anna ", "\tAnna\n", "Anna\r\n", "\u{00A0}Anna\u{2003}", "A", "a\u{301}",
        "Zoë", "Ödön ", " 山田", "山田 ", "민준", "x\u{3000}", "\u{3000}太郎", "Bob\u{0085}", "\u{1C}Ann\u{1F}", "1 Acme",
        "@home", "[Team]", "`x`", "{a}", "Ana\u{0301}\u{0020}",
    ]

    @Test func trimmingAgreesWithFoundation() {
        for s in Self.samples {
            #expect(NameOrder.trimmed(s) == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(s.debugDescription)")
        }
    }

    @Test func scriptDetectionAgreesWithTheFirstLetter() {
        for s in Self.samples {
            let first = s.unicodeScalars.first { $0.properties.isAlphabetic }
            let cjk = first.map { [.han, .hiragana, .katakana, .hangul].contains(Self.script($0)) } ?? false
            #expect(NameOrder.isCJK(s) == cjk, "\(s.debugDescription)")
        }
    }

    enum Script { case han, hiragana, katakana, hangul, other }
    static func script(_ scalar: Unicode.Scalar) -> Script {
        let name = scalar.properties.name ?? ""
        if name.hasPrefix("CJK") { return .han }
        if name.hasPrefix("HIRAGANA") { return .hiragana }
        if name.hasPrefix("KATAKANA") { return .katakana }
        if name.hasPrefix("HANGUL") { return .hangul }
        return .other
    }
}
