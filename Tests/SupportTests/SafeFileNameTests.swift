import Testing

@testable import Support

/// The one rule for file names made from outside text (issue 29, item 3).
@Suite struct SafeFileNameTests {
    @Test func slashesNULControlsAndLeadingDotsAreReplaced() {
        #expect(SafeFileName.make("../../x/PWNED", suffix: ".vcf") == "_._.._x_PWNED.vcf")
        #expect(SafeFileName.make("a\u{0}b\u{1B}[31m\u{85}c") == "a_b_[31m_c")
        #expect(SafeFileName.make("") == "_")
        #expect(SafeFileName.make(".hidden") == "_hidden")
        #expect(SafeFileName.make("Zoë Ñandú.vcf") == "Zoë Ñandú.vcf")
        #expect(SafeFileName.isSafe("ada.vcf") && !SafeFileName.isSafe("..") && !SafeFileName.isSafe("a/b"))
    }

    @Test func overLongNamesAreShortenedWithAStableHash() {
        let long = String(repeating: "é", count: 300)
        let name = SafeFileName.make(long, suffix: ".vcf")
        #expect(name.utf8.count <= 255 && name.hasPrefix("éé") && name.hasSuffix(".vcf"))
        #expect(name == SafeFileName.make(long, suffix: ".vcf"))
        #expect(name != SafeFileName.make(long + "x", suffix: ".vcf"))
        #expect(SafeFileName.make(String(repeating: "a", count: 251), suffix: ".vcf").utf8.count == 255)
    }
}
