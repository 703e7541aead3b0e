import Foundation
import TestSupport
import Testing

@testable import Templating

/// Markdown bodies: `body.md.mustache` rendered with HTML-escaped values, then turned into the HTML part
/// by cmark, and rendered as it is for the plain-text part.
@Suite struct MarkdownTests {
    @Test("CommonMark to HTML: emphasis, lists, links; raw HTML in the Markdown is left out")
    func html() {
        #expect(
            Markdown.html("# Hallo\n\n*Willkommen*, Zoë & Co.\n")
                == "<h1>Hallo</h1>\n<p><em>Willkommen</em>, Zoë &amp; Co.</p>\n")
        #expect(Markdown.html("- a\n- b\n") == "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n")
        #expect(
            Markdown.html("[Atlas](https://example.com/a?b=1&c=2)")
                == "<p><a href=\"https://example.com/a?b=1&amp;c=2\">Atlas</a></p>\n")
        #expect(!Markdown.html("<script>alert(1)</script>\n\ntext\n").contains("<script>"))
        #expect(Markdown.html("") == "")
    }

    @Test("a template with body.md only: the HTML part from cmark with escaped values, the text part as written")
    func libraryTemplate() throws {
        let dir = Scratch.path("markdown-templates")
        defer { try? FileManager.default.removeItem(at: dir) }
        let note = dir.appendingPathComponent("note")
        try FileManager.default.createDirectory(at: note, withIntermediateDirectories: true)
        try "Hello {{name}}".write(
            to: note.appendingPathComponent("subject.mustache"), atomically: true, encoding: .utf8)
        try "# Hello {{name}}\n\nYour **table**: {{table}}.\n".write(
            to: note.appendingPathComponent("body.md.mustache"), atomically: true, encoding: .utf8)
        let library = try TemplateLibrary(directory: dir)
        let context: MustacheValue = ["name": "<b>Zoë</b> & Co", "table": "7"]
        let m = try library.render("note", context: context, locale: "en")
        #expect(
            m.htmlBody == "<h1>Hello &lt;b&gt;Zoë&lt;/b&gt; &amp; Co</h1>\n<p>Your <strong>table</strong>: 7.</p>\n")
        #expect(m.textBody == "# Hello <b>Zoë</b> & Co\n\nYour **table**: 7.\n")
        // A body.txt of its own wins for the text part.
        try "Plain {{name}}\n".write(
            to: note.appendingPathComponent("body.txt.mustache"), atomically: true, encoding: .utf8)
        let both = try TemplateLibrary(directory: dir).render("note", context: context, locale: "en")
        #expect(both.textBody == "Plain <b>Zoë</b> & Co\n" && both.htmlBody?.hasPrefix("<h1>") == true)
        // Without body.txt and body.md the template is refused, naming both.
        try FileManager.default.removeItem(at: note.appendingPathComponent("body.txt.mustache"))
        try FileManager.default.removeItem(at: note.appendingPathComponent("body.md.mustache"))
        let refused = try TemplateLibrary(directory: dir)
        #expect(refused.templates["note"] == nil)
        #expect(refused.refused["note"]?.reason.contains("missing body.txt.mustache (or body.md.mustache)") == true)
    }
}

/// Templates made of text (``TemplateLibrary/add(_:parts:)``), as `contacts pick --subject --body` makes them.
@Suite struct TextTemplateTests {
    @Test("a Markdown body added as text renders as a folder's body.md does; errors name the part")
    func addedTemplate() throws {
        var library = try TemplateLibrary.bundled()
        try library.add(
            "_note", parts: [.subject: "Hi {{name}}", .markdownBody: "*{{name}}* & co", .messageBody: "Hi {{name}}!"])
        let message = try library.render("_note", context: ["name": "Zoë <3"], locale: "de")
        #expect(message.subject == "Hi Zoë <3")
        #expect(message.htmlBody == "<p><em>Zoë &lt;3</em> &amp; co</p>\n")
        #expect(message.textBody == "*Zoë <3* & co")
        #expect(message.messageBody == "Hi Zoë <3!")
        #expect(message.locale == "de")
        // Replacing it keeps one template of that name; the library's own are still there.
        try library.add("_note", parts: [.subject: "Bye", .textBody: "Bye"])
        #expect(try library.render("_note", context: [:], locale: "en").htmlBody == nil)
        #expect(library.names.contains("invite"))
        #expect(throws: TemplatingError.self) { try library.add("_x", parts: [.subject: "S"]) }
        #expect(throws: TemplatingError.self) { try library.add("_x", parts: [.textBody: "B"]) }
        do {
            try library.add("_x", parts: [.subject: "Hi {{name", .textBody: "B"])
            Issue.record("an unclosed tag was accepted")
        } catch {
            #expect("\(error)".contains("_x/subject"), "\(error)")
        }
    }
}
