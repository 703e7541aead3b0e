import Testing

@testable import Composer

/// Domains go through ICU's UTS #46 (nontransitional, STD3, bidi and ContextJ checks).
@Suite struct IDNATests {
    func reason(_ address: String) -> String? {
        do {
            _ = try MailAddress(address: address)
            return nil
        } catch ComposerError.invalidAddress(let a, let reason) {
            return a == address ? reason : "wrong address \(a)"
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func fullWidthAndCompatibilityFormsAreMappedNotEncoded() throws {
        #expect(try MailAddress(address: "idn@ＥＸＡＭＰＬＥ.com").asciiAddress == "idn@example.com")
        #expect(try MailAddress(address: "idn@ＥＸＡＭＰＬＥ．ＣＯＭ").asciiAddress == "idn@example.com")
        #expect(try MailAddress(address: "x@ｂüｃｈｅｒ。example").asciiAddress == "x@xn--bcher-kva.example")
        #expect(try MailAddress(address: "x@BÜCHER.example").asciiAddress == "x@xn--bcher-kva.example")
        // The address as written is kept for display.
        #expect(try MailAddress(address: "idn@ＥＸＡＭＰＬＥ.com").address == "idn@ＥＸＡＭＰＬＥ.com")
    }

    @Test func nontransitionalProcessingKeepsSharpSAndFinalSigma() throws {
        #expect(try MailAddress(address: "x@faß.de").asciiAddress == "x@xn--fa-hia.de")
        #expect(try MailAddress(address: "x@βόλος.gr").asciiAddress == "x@xn--nxasmm1c.gr")
    }

    @Test func invalidDomainsSayWhatIsWrong() throws {
        #expect(reason("a@exa mple.com")?.contains("invalid domain 'exa mple.com': a character not allowed") == true)
        #expect(reason("a@exa_mple.com")?.contains("not allowed in domain names") == true)
        #expect(reason("a@-example.com")?.contains("starts with '-'") == true)
        #expect(reason("a@example..com")?.contains("empty label") == true)
        #expect(reason("a@example.com.")?.contains("ends with a dot") == true)
        #expect(reason("a@" + String(repeating: "a", count: 64) + ".com")?.contains("longer than 63 octets") == true)
        #expect(reason("a@xn--zz.com")?.contains("xn--") == true)
        // RFC 5893: a right-to-left label must not start with a left-to-right letter.
        #expect(reason("a@a\u{05D0}.com")?.contains("bidi") == true)
        // RFC 5892: a zero-width joiner only after a virama.
        #expect(reason("a@a\u{200D}b.com")?.contains("zero-width joiner") == true)
    }
}
