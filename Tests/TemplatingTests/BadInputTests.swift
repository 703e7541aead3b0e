import Foundation
import ICUKit
import StringsCatalog
import Testing

@testable import Templating

/// Inputs that used to crash a render, or make it run away in time or memory.
@Suite struct TemplatingBadInputTests {
    // MARK: lists

    @Test func listHelperOverAMillionItems() throws {
        let names = MustacheValue.array((0..<1_000_000).map { .string($0 % 2 == 0 ? "a" : "b") })
        let t = try MustacheTemplate("{{#list}}names{{/list}}", name: "big-list")
        let text = try t.render(["names": names], options: RenderOptions(escaping: .text, locale: "en"))
        #expect(text.hasPrefix("a, b, a, "))
        #expect(text.hasSuffix(", a, and b"))
        #expect(text.utf8.count == 1_000_000 + 2 * 999_999 + 4)
    }

    @Test func inviteTemplateWithALongOthersList() throws {
        let library = try TemplateLibrary.bundled(catalog: try Catalog(directory: localizations))
        guard case .dictionary(let base) = inviteContext else { return }
        var context = base
        let others = (0..<40_000).map { i -> MustacheValue in ["givenName": .string("G\(i)"), "familyName": "F"] }
        context["others"] = .array(others)
        let m = try library.render("invite", context: .dictionary(context), locale: "en")
        #expect(m.textBody.contains("40,000 other people are invited too: G0 F, G1 F, "))
        #expect(m.textBody.contains(", and G39999 F."))
    }

    // MARK: message nesting

    @Test func deeplyNestedTranslationFailsTheRenderNotTheProcess() throws {
        let deep = String(repeating: "{a, select, other {", count: 3600) + "x" + String(repeating: "}}", count: 3600)
        let catalog = MemoryCatalog(tables: ["mail": ["de": ["hi": deep], "en": ["hi": "Hello"]]])
        let t = try MustacheTemplate("{{#t}}hi{{/t}}", name: "mail.mustache")
        var options = RenderOptions(escaping: .text, locale: "de", catalog: catalog, table: "mail")
        #expect {
            try t.render(["a": "q"], options: options)
        } throws: { error in
            guard case TemplatingError.badMessage(let key, let table, let locale, let message) = error else {
                return false
            }
            return key == "hi" && table == "mail" && locale == "de" && message.contains("more than 64 levels deep")
        }
        options.locale = "en"
        #expect(try t.render(["a": "q"], options: options) == "Hello")
    }

    // MARK: parsing in linear time

    func parseWork(_ source: String) throws -> (work: Int, nodes: Int) {
        let parser = Parser(source: source, templateName: "t")
        let nodes = try parser.parse()
        return (parser.work, nodes.count)
    }

    @Test func parsingManyTagsOnOneLineIsLinear() throws {
        for tag in ["{{! c }}", "{{x}}", "{{#s}}{{/s}}"] {
            let small = String(repeating: tag, count: 8_000)
            let large = String(repeating: tag, count: 32_000)
            let a = try parseWork(small)
            let b = try parseWork(large)
            // Each byte is looked at a bounded number of times: 4× the input, ~4× the work (not 16×).
            #expect(b.work <= 3 * large.utf8.count, "\(tag): \(b.work) for \(large.utf8.count) bytes")
            #expect(b.work <= 5 * a.work)
        }
    }

    @Test func longDelimitersAreFoundInLinearTime() throws {
        let delimiter = String(repeating: "a", count: 40) + "b"
        let body = String(repeating: "a", count: 200_000)
        let source = "{{=\(delimiter) ]]=}}" + body + delimiter + "x]]" + body
        let (work, _) = try parseWork(source)
        #expect(work <= 3 * source.utf8.count)
        let t = try MustacheTemplate(source, name: "delims")
        #expect(try t.render(["x": "X"]) == body + "X" + body)
    }

    @Test func aHundredThousandCommentTagsOnOneLine() throws {
        // Parse time grew with tags per line × line length: 32,000 tags took seconds; this many took minutes.
        let source = "<" + String(repeating: "{{! note }}", count: 100_000) + "{{x}}>\n{{/oops}}"
        #expect {
            try MustacheTemplate(source, name: "comments.mustache")
        } throws: { error in
            guard case TemplatingError.parse(let name, let line, let column, _) = error else { return false }
            return name == "comments.mustache" && line == 2 && column == 1
        }
        let ok = try MustacheTemplate(String(source.dropLast("\n{{/oops}}".count)), name: "comments.mustache")
        #expect(try ok.render(["x": "!"]) == "<!>")
    }

    @Test func lambdaSeesTheSectionTextOfNestedSections() throws {
        let source =
            String(repeating: "{{#s}}", count: 200) + "{{#up}}hi {{n}}{{/up}}" + String(repeating: "{{/s}}", count: 200)
        let up = MustacheLambda { call in .text((call.sectionText ?? "").uppercased()) }
        let t = try MustacheTemplate(source, name: "nested")
        #expect(try t.render(["s": true, "up": .lambda(up), "n": 1]) == "HI {{N}}")
    }

    // MARK: output size

    /// p0 is 10 bytes; each p(k+1) includes p(k) ten times: p8 expands to 10⁹ bytes.
    static let fanOut: MustachePartials = {
        var sources = ["p0": "0123456789"]
        for k in 1...8 { sources["p\(k)"] = String(repeating: "{{>p\(k - 1)}}", count: 10) }
        return try! MustachePartials(sources: sources)
    }()

    @Test func fannedOutPartialsStopAtTheOutputLimit() throws {
        let t = try MustacheTemplate("start {{>p8}}", name: "bomb.mustache")
        var options = RenderOptions(escaping: .text)
        options.maxOutputBytes = 1 << 20
        #expect {
            try t.render([:], partials: Self.fanOut, options: options)
        } throws: { error in
            guard case TemplatingError.outputTooLarge(let template, _, _, let limit, _) = error else { return false }
            return template.hasPrefix("p") && limit == 1 << 20
                && "\(error)".contains("output exceeds the limit of 1 MiB")
        }
        // Below the limit the same partials render, and the pool's buffers still work afterwards.
        let small = try MustacheTemplate("{{>p3}}", name: "ok.mustache")
        #expect(try small.render([:], partials: Self.fanOut, options: options).utf8.count == 10_000)
    }

    @Test func theDefaultLimitIs64MiBAndNamesTheRecipient() throws {
        #expect(RenderOptions().maxOutputBytes == 64 << 20)
        let t = try MustacheTemplate(
            "{{#a}}{{#a}}{{#a}}{{#a}}{{#a}}{{x}}{{/a}}{{/a}}{{/a}}{{/a}}{{/a}}", name: "sections")
        let items = MustacheValue.array(Array(repeating: true, count: 100))
        var options = RenderOptions(escaping: .text, recipient: "ada@example.org")
        options.maxOutputBytes = 100_000
        #expect {
            try t.render(["a": items, "x": "0123456789"], options: options)
        } throws: { error in
            guard case TemplatingError.outputTooLarge("sections", 1, let column, 100_000, "ada@example.org") = error
            else { return false }
            return column > 1 && "\(error)".contains("for recipient ada@example.org")
        }
    }

    @Test func lambdasAndHeadersAreLimitedToo() throws {
        let big = MustacheLambda { _ in .text(String(repeating: "x", count: 5000)) }
        var options = RenderOptions(escaping: .header(.fold))
        options.maxOutputBytes = 4096
        let t = try MustacheTemplate("Subject: {{big}}", name: "subject.mustache")
        #expect(
            throws: TemplatingError.outputTooLarge(
                template: "subject.mustache", line: 1, column: 10, limit: 4096, recipient: nil)
        ) {
            try t.render(["big": .lambda(big)], options: options)
        }
    }

    @Test func libraryRendersUseTheLibrarysLimit() throws {
        var library = try TemplateLibrary.bundled(catalog: try Catalog(directory: localizations))
        library.maxOutputBytes = 200
        #expect {
            try library.render("invite", context: inviteContext, locale: "en")
        } throws: { error in
            if case TemplatingError.outputTooLarge(let template, _, _, 200, _) = error {
                return template.hasPrefix("invite/")
            }
            return false
        }
    }
}

@Suite struct SentencePeriodTests {
    @Test func aDateEndingWithAPeriodDoesNotDoubleTheSentencesPeriod() throws {
        let library = try TemplateLibrary.bundled(catalog: try Catalog(directory: localizations))
        let ru = try library.render("invite", context: inviteContext, locale: "ru")
        #expect(ru.textBody.contains("до 1 июля 2025\u{202F}г.\n"), "\(ru.textBody)")
        #expect(!ru.textBody.contains("г.."))
        #expect(ru.htmlBody?.contains("г..") == false)
        let en = try library.render("invite", context: inviteContext, locale: "en")
        #expect(en.textBody.contains("expires on July 1, 2025.\n"))
    }

    @Test func onlyWhereEveryPlaceholderIsFollowedByAPeriod() throws {
        let catalog = MemoryCatalog(tables: [
            "t": ["en": ["end": "Until {d}.", "both": "From {d} to {d}.", "inc": "By {org}. Thanks"]]
        ])
        func render(_ key: String, _ ctx: MustacheValue) throws -> String {
            try MustacheTemplate("{{#t}}\(key){{/t}}").render(
                ctx, options: RenderOptions(escaping: .text, catalog: catalog, table: "t"))
        }
        #expect(try render("end", ["d": "1 июля 2025 г."]) == "Until 1 июля 2025 г.")
        #expect(try render("end", ["d": "Wait..."]) == "Until Wait...")
        #expect(try render("both", ["d": "2025 г."]) == "From 2025 г. to 2025 г..")
        #expect(try render("inc", ["org": "Acme Inc."]) == "By Acme Inc. Thanks")
        #expect(
            MessageFormatter.alwaysBeforePeriod("d", in: "{d}. {d}.")
                && !MessageFormatter.alwaysBeforePeriod("d", in: "{x}."))
    }
}
