import StringsCatalog
import Templating
import Testing

@Suite struct MF2SectionTests {
    @Test func inlineMessageTakesItsVariablesFromTheContext() throws {
        let t = try MustacheTemplate("{{#mf2}}Hello {$name}, {$n :number} new{{/mf2}}", name: "inline.mustache")
        let text = try t.render(["name": "Ada", "n": 1234], options: RenderOptions(escaping: .text, locale: "de"))
        #expect(text == "Hello Ada, 1.234 new")
    }

    @Test func catalogMessageIsFormattedInTheRecipientsLocale() throws {
        let catalog = MemoryCatalog(tables: [
            "mail": [
                "en": ["files": ".input {$n :number} .match $n one {{one file}} * {{{$n} files}}"],
                "ru": ["files": ".input {$n :number} .match $n one {{{$n} файл}} few {{{$n} файла}} * {{{$n} файлов}}"],
            ]
        ])
        let t = try MustacheTemplate("{{#mf2}}files{{/mf2}}", name: "mail.mustache")
        func render(_ n: Int, _ locale: String) throws -> String {
            try t.render(
                ["n": .int(n)], options: RenderOptions(escaping: .text, locale: locale, catalog: catalog, table: "mail")
            )
        }
        #expect(try render(1, "en") == "one file")
        #expect(try render(2, "en") == "2 files")
        #expect(try render(3, "ru") == "3 файла")
        #expect(try render(5, "ru") == "5 файлов")
        #expect(try render(21, "ru") == "21 файл")
    }

    @Test func strictModeFailsOnAMissingVariable() throws {
        let t = try MustacheTemplate("{{#mf2}}Hi {$who}{{/mf2}}", name: "strict.mustache")
        var options = RenderOptions(escaping: .text, locale: "en")
        #expect(try t.render([:], options: options) == "Hi {$who}")
        options.strict = true
        #expect(throws: TemplatingError.self) { try t.render([:], options: options) }
    }

    /// The invite catalog's MF2 "others" line says what its ICU MessageFormat 1 line says.
    @Test func inviteOthersLineInMF2MatchesTheMF1Line() throws {
        let catalog = try Catalog(directory: localizations)
        let t = try MustacheTemplate("{{#mf2}}others_mf2{{/mf2}}|{{#t}}others{{/t}}", name: "invite.mustache")
        for count in [0, 1, 2, 5, 1200] {
            let others = (0..<count).map { MustacheValue.string("P\($0)") }
            let text = try t.render(
                ["others": .array(others)],
                options: RenderOptions(escaping: .text, locale: "en", catalog: catalog, table: "invite"))
            let halves = text.split(separator: "|", omittingEmptySubsequences: false)
            #expect(halves.count == 2 && halves[0] == halves[1], "\(count): \(text)")
        }
    }
}
