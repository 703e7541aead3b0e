import Foundation
import TestSupport
import Testing

@testable import Templating

/// The work a render may do, the language a template's words are in, and isolates only where the
/// direction differs.
@Suite struct RenderBudgetTests {
    @Test("loops that print nothing stop at the budget, naming template, line and recipient")
    func nestedLoopsStop() throws {
        let t = try MustacheTemplate("Hi\n{{#n}}{{#n}}\n{{#n}}{{/n}}\n{{/n}}{{/n}}done", name: "loops.mustache")
        let context: MustacheValue = ["n": .array((0..<150).map { .int($0) })]
        var options = RenderOptions(escaping: .text, recipient: "Ada")
        options.maxSteps = 1_000_000
        #expect(
            throws: TemplatingError.workLimitExceeded(
                template: "loops.mustache", line: 3, column: 1, limit: 1_000_000, recipient: "Ada")
        ) {
            try t.render(context, options: options)
        }
        // Work within the budget renders; the default allows 20 million steps.
        options.maxSteps = 5_000_000
        let text = try t.render(context, options: options)
        #expect(text.hasPrefix("Hi\n") && text.hasSuffix("done"))
        #expect(RenderOptions().maxSteps == 20_000_000)
        // Partials and blocks spend from the same budget.
        let partials = MustachePartials(["inner": try MustacheTemplate("{{#n}}{{#n}}{{/n}}{{/n}}", name: "inner")])
        let outer = try MustacheTemplate("{{#n}}{{> inner}}{{/n}}", name: "outer")
        options.maxSteps = 500_000
        #expect(throws: TemplatingError.self) { try outer.render(context, partials: partials, options: options) }
    }

    func library(_ files: [String: String]) throws -> (TemplateLibrary, URL) {
        let dir = try Scratch.directory("language")
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return (try TemplateLibrary(directory: dir), dir)
    }

    @Test("a template's own words: its language file, else the default; an override's locale; never the recipient's")
    func declaredLanguage() throws {
        var (lib, dir) = try library([
            "note/subject.mustache": "Hello", "note/body.txt.mustache": "Dear {{name}}, {{url}}\n",
            "brief/subject.mustache": "Hallo", "brief/body.txt.mustache": "x", "brief/language": "de_AT\n",
            "brief/body.txt.fr.mustache": "Chère", "bad/subject.mustache": "x", "bad/body.txt.mustache": "x",
            "bad/language": "deutsch!",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(lib.resolvedLocale("note", locale: "fr", defaultLanguage: "en-GB") == "en-GB")
        #expect(lib.resolvedLocale("note", locale: "en-US", defaultLanguage: "en") == "en-US")
        #expect(lib.resolvedLocale("note", locale: "fr") == "fr")  // nothing declared, no default: as asked
        #expect(lib.templates["brief"]?.language == "de-AT")
        #expect(lib.resolvedLocale("brief", locale: "ja", defaultLanguage: "en") == "de-AT")
        #expect(lib.resolvedLocale("brief", locale: "fr-CA", defaultLanguage: "en") == "fr-CA")  // body.txt.fr
        #expect(try lib.render("brief", context: [:], locale: "ja").locale == "de-AT")
        try lib.declareLanguage("it", of: "note")
        #expect(try lib.render("note", context: ["name": "Ada", "url": "u"], locale: "ar").locale == "it")
        #expect(lib.refused["bad"]?.reason.contains("'deutsch!' is not a language tag") == true)
        #expect(throws: TemplatingError.self) { try lib.declareLanguage("no tag", of: "note") }
    }

    @Test("isolates only around values whose direction differs from the text's")
    func isolatesWhereDirectionDiffers() throws {
        let iso = BidiIsolation.isolates
        #expect(iso.wrap("Ada", inRightToLeftText: false) == "Ada")
        #expect(iso.wrap("محمد", inRightToLeftText: false) == "\u{2068}محمد\u{2069}")
        #expect(iso.wrap("محمد", inRightToLeftText: true) == "محمد")
        #expect(iso.wrap("https://example.com", inRightToLeftText: true) == "\u{2068}https://example.com\u{2069}")
        #expect(iso.wrap("Ada") == "\u{2068}Ada\u{2069}")
        var (lib, dir) = try library(["n/subject.mustache": "S", "n/body.txt.mustache": "Dear {{name}}, {{url}}."])
        defer { try? FileManager.default.removeItem(at: dir) }
        let arabic: MustacheValue = ["name": "محمد", "url": "https://example.com"]
        let latin: MustacheValue = ["name": "Ada", "url": "https://example.com"]
        try lib.declareLanguage("en", of: "n")
        #expect(
            try lib.render("n", context: arabic, locale: "ar").textBody
                == "Dear \u{2068}محمد\u{2069}, https://example.com.")
        #expect(try lib.render("n", context: latin, locale: "ar").textBody == "Dear Ada, https://example.com.")
        try lib.declareLanguage("ar", of: "n")
        #expect(
            try lib.render("n", context: arabic, locale: "en").textBody
                == "Dear محمد, \u{2068}https://example.com\u{2069}.")
    }
}
