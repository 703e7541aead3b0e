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
        #expect {
            try TemplateLibrary(directory: dir)
        } throws: { error in
            "\(error)".contains("missing body.txt.mustache (or body.md.mustache)")
        }
    }
}
