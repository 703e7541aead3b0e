import Foundation
import TestSupport
import Testing

@testable import Templating

/// What the template commands call: escapings by name, a partials folder, a library's listing, the locale a
/// context asks for, and the text preview of a rendered message.
@Suite struct TemplateToolsTests {
    @Test func escapingsByName() {
        #expect(Escaping(name: "html") == .html)
        #expect(Escaping(name: "text") == .text)
        #expect(Escaping(name: "header") == .header(.fold))
        #expect(Escaping(name: "uri") == .uriComponent)
        #expect(Escaping(name: "HTML") == nil)
    }

    @Test func partialsComeFromAFolder() throws {
        let dir = try Scratch.directory("partials")
        try Scratch.write("Hi {{name}}", to: dir.appendingPathComponent("greet.mustache"))
        try Scratch.write("not a partial", to: dir.appendingPathComponent("notes.txt"))
        let partials = try MustachePartials(folder: dir.path)
        #expect(partials["greet"] != nil && partials["notes"] == nil)
        let template = try MustacheTemplate("{{> greet}}!", name: "t")
        #expect(
            try template.render(["name": "Ada"], partials: partials, options: RenderOptions(escaping: .text))
                == "Hi Ada!")
        #expect(throws: TemplatingError.noPartialsFolder(dir.path + "/none")) {
            try MustachePartials(folder: dir.path + "/none")
        }
        try Data([0xFF, 0xFE]).write(to: dir.appendingPathComponent("bad.mustache"))
        let bad = dir.appendingPathComponent("bad.mustache").path
        #expect(throws: TemplatingError.notUTF8(path: bad)) { try MustachePartials(folder: dir.path) }
        #expect("\(TemplatingError.notUTF8(path: "p"))" == "cannot read p as UTF-8")
        #expect("\(TemplatingError.noPartialsFolder("p"))" == "no such partials folder: p")
    }

    @Test func aListingHasALinePerTemplate() throws {
        var library = try TemplateLibrary.bundled()
        try library.add("a-note", parts: [.subject: "Hello", .textBody: "Body"])
        #expect(
            library.summaries.first
                == TemplateSummary(
                    name: "a-note", parts: ["subject", "body.txt"], overrideLocales: [], hasSample: false))
        let lines = library.listing
        #expect(lines.count == library.names.count)
        let width = library.names.map(\.count).max()! + 2
        #expect(lines.first == "a-note".padding(toLength: width, withPad: " ", startingAt: 0) + "subject, body.txt")
        let invite = try #require(lines.first { $0.hasPrefix("invite ") })
        #expect(invite.contains("  (locale overrides: ar") && invite.hasSuffix("  [sample data]"))
    }

    @Test func theRecipientsLocaleWins() {
        let own: MustacheValue = ["lang": "fr_CA"]
        #expect(TemplateLibrary.renderLocale(for: own, campaign: "de", environment: "en") == "fr-CA")
        #expect(TemplateLibrary.renderLocale(for: ["locale": "ar"], campaign: "de", environment: "en") == "ar")
        #expect(TemplateLibrary.renderLocale(for: ["name": "Ada"], campaign: "de", environment: "en") == "de")
        #expect(TemplateLibrary.renderLocale(for: ["name": "Ada"], campaign: nil, environment: "ja") == "ja")
    }

    @Test func aPreviewShowsEachPart() {
        var message = RenderedMessage(subject: "S", textBody: "T\n", htmlBody: nil, messageBody: nil, locale: "de")
        #expect(message.preview == "Subject: S\nLocale: de\n\n--- text ---\nT\n")
        message.htmlBody = "<p>H</p>\n"
        message.messageBody = "M\n"
        #expect(
            message.preview == "Subject: S\nLocale: de\n\n--- text ---\nT\n--- html ---\n<p>H</p>\n--- message ---\nM\n"
        )
    }
}

@Suite struct TemplatingErrorAudienceTests {
    @Test func casesAreSplitByAudience() {
        #expect(TemplatingError.parse(template: "t", line: 1, column: 1, message: "m").isUsageError)
        #expect(TemplatingError.noPartialsFolder("p").isUsageError)
        #expect(!TemplatingError.io(path: "p", message: "m").isUsageError)
    }
}
