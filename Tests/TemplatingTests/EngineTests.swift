import Testing

@testable import Templating

struct Person: MustacheObject {
    var name: String
    var age: Int
    func mustacheValue(forKey key: String) -> MustacheValue? {
        switch key {
        case "name": .string(name)
        case "age": .int(age)
        default: nil
        }
    }
}

@Suite("Mustache engine: escaping, strict mode, errors")
struct EngineTests {
    @Test func htmlEscapesAllFiveCharacters() throws {
        let t = try MustacheTemplate("{{v}}|{{{v}}}|{{&v}}")
        let out = try t.render(["v": "a&b<c>d\"e'f"])
        #expect(out == "a&amp;b&lt;c&gt;d&quot;e&#39;f|a&b<c>d\"e'f|a&b<c>d\"e'f")
    }

    @Test func textEscapingLeavesValuesAlone() throws {
        let t = try MustacheTemplate("{{v}}")
        #expect(try t.render(["v": "<b>&"], options: RenderOptions(escaping: .text)) == "<b>&")
    }

    @Test func headerFoldsLineBreaksAndTrims() throws {
        let t = try MustacheTemplate("  Re: {{subject}}\n  from {{who}}\n")
        let out = try t.render(
            ["subject": "line one\r\nline two", "who": "Ada"],
            options: RenderOptions(escaping: .header(.fold)))
        #expect(out == "Re: line one line two from Ada")
        #expect(!out.contains("\n") && !out.contains("\r"))
    }

    @Test func headerRejectsLineBreaksWithPosition() throws {
        let t = try MustacheTemplate("Subject: {{subject}}", name: "subject.mustache")
        #expect(
            throws: TemplatingError.lineBreakInHeader(
                name: "subject", template: "subject.mustache", line: 1, column: 10,
                recipient: "ada@example.com")
        ) {
            try t.render(
                ["subject": "evil\r\nBcc: x@example.com"],
                options: RenderOptions(escaping: .header(.reject), recipient: "ada@example.com"))
        }
    }

    @Test func uriEscapingEncodesEachValueAndKeepsTheTemplate() throws {
        let t = try MustacheTemplate(
            "https://example.com/leave?name={{name}}&id={{id}}&n={{n}}&raw={{{whole}}}#{{#list}}{{.}}/{{/list}}",
            name: "--unsubscribe")
        let out = try t.render(
            [
                "name": "Zoë O'Brien & Co/?#=%", "id": "a b\r\nBcc: x", "n": 42, "whole": "x&y",
                "list": ["é", "~ok-._"],
            ], options: RenderOptions(escaping: .uriComponent))
        #expect(
            out
                == "https://example.com/leave?name=Zo%C3%AB%20O%27Brien%20%26%20Co%2F%3F%23%3D%25&id=a%20b%0D%0ABcc%3A%20x"
                + "&n=42&raw=x&y#%C3%A9/~ok-._/")
        // A lambda's template result is encoded once, as one value.
        let lambda = try MustacheTemplate("mailto:x@example.com?subject={{wrap}}")
        let wrap = MustacheLambda { _ in .template("{{name}}!") }
        #expect(
            try lambda.render(["wrap": .lambda(wrap), "name": "A B"], options: RenderOptions(escaping: .uriComponent))
                == "mailto:x@example.com?subject=A%20B%21")
    }

    @Test func strictModeNamesTemplateLineColumnAndRecipient() throws {
        let t = try MustacheTemplate("Hello\n  {{user.nmae}}!", name: "mail.mustache")
        #expect(try t.render(["user": ["name": "Ada"]]) == "Hello\n  !")
        let options = RenderOptions(strict: true, recipient: "ada@example.com")
        #expect(
            throws: TemplatingError.missingValue(
                name: "user.nmae", template: "mail.mustache", line: 2, column: 3,
                recipient: "ada@example.com")
        ) {
            try t.render(["user": ["name": "Ada"]], options: options)
        }
        let section = try MustacheTemplate("{{#vipp}}x{{/vipp}}", name: "s")
        #expect(throws: TemplatingError.missingValue(name: "vipp", template: "s", line: 1, column: 1, recipient: nil)) {
            try section.render(["vip": true], options: RenderOptions(strict: true))
        }
        // Present but false or empty is not missing.
        #expect(try section.render(["vipp": false], options: RenderOptions(strict: true)) == "")
    }

    @Test func strictErrorsInPartialsNameThePartial() throws {
        let partials = try MustachePartials(sources: ["sig": "--\n{{compnay}}"])
        let t = try MustacheTemplate("Hi\n{{> sig}}", name: "main")
        #expect(
            throws: TemplatingError.missingValue(name: "compnay", template: "sig", line: 2, column: 1, recipient: nil)
        ) {
            try t.render(["company": "X"], partials: partials, options: RenderOptions(strict: true))
        }
        let missing = try MustacheTemplate("{{> nope}}", name: "main")
        #expect(try missing.render([:]) == "")
        #expect(throws: TemplatingError.partialNotFound(name: "nope", template: "main", line: 1, column: 1)) {
            try missing.render([:], options: RenderOptions(strict: true))
        }
    }

    @Test func strictRejectsInterpolatingAList() throws {
        let t = try MustacheTemplate("{{items}}", name: "t")
        #expect(
            throws: TemplatingError.notInterpolatable(name: "items", template: "t", line: 1, column: 1, recipient: nil)
        ) {
            try t.render(["items": [1, 2]], options: RenderOptions(strict: true))
        }
    }

    @Test(arguments: [
        (
            "a\n  {{#items}}x",
            TemplatingError.parse(
                template: "f", line: 2, column: 3,
                message: "unclosed section 'items': expected '{{/items}}' before the end of the template")
        ),
        (
            "{{#a}}\n{{/b}}",
            .parse(
                template: "f", line: 2, column: 1,
                message: "closing tag 'b' does not match 'a' opened at line 1, column 1")
        ),
        ("x {{/a}}", .parse(template: "f", line: 1, column: 3, message: "closing tag 'a' without an open section")),
        ("é {{name", .parse(template: "f", line: 1, column: 3, message: "unclosed tag: expected '}}'")),
        (
            "{{=<% =}}",
            .parse(
                template: "f", line: 1, column: 1,
                message: "bad delimiter change '<%': expected two delimiters separated by space, without '='")
        ),
        ("{{}}", .parse(template: "f", line: 1, column: 1, message: "empty tag: expected a name")),
        ("{{a b}}", .parse(template: "f", line: 1, column: 1, message: "unexpected whitespace in name 'a b'")),
    ])
    func parseErrorsNameFileLineColumn(_ source: String, _ expected: TemplatingError) {
        #expect(throws: expected) { try MustacheTemplate(source, name: "f") }
    }

    @Test func absurdNestingIsAParseError() throws {
        let source = String(repeating: "{{#a}}", count: 300) + String(repeating: "{{/a}}", count: 300)
        #expect(
            throws: TemplatingError.parse(
                template: "deep", line: 1, column: 1537,
                message: "sections nest more than 256 levels deep")
        ) {
            try MustacheTemplate(source, name: "deep")
        }
        let fine = String(repeating: "{{#a}}", count: 100) + "x" + String(repeating: "{{/a}}", count: 100)
        #expect(try MustacheTemplate(fine).render(["a": true]) == "x")
    }

    @Test func errorDescriptionsReadWell() {
        let e = TemplatingError.missingValue(
            name: "x", template: "m.mustache", line: 3, column: 4, recipient: "a@example.com")
        #expect(e.description == "m.mustache:3:4: no value for 'x' for recipient a@example.com (strict mode)")
    }

    @Test func objectsThroughTheProtocol() throws {
        let t = try MustacheTemplate("{{#people}}{{name}} ({{age}}){{^last}}, {{/last}}{{/people}}")
        let people: MustacheValue = .array([
            .object(Person(name: "Ada", age: 36)), .object(Person(name: "Alan", age: 41)),
        ])
        #expect(try t.render(["people": people, "last": true]) == "Ada (36)Alan (41)")
    }

    @Test func convertibleValues() throws {
        let t = try MustacheTemplate("{{a}} {{b}} {{#c}}{{.}}{{/c}} {{d}}")
        let ctx: [String: MustacheValue] = [
            "a": 3.mustacheValue, "b": 2.5.mustacheValue, "c": ["x", "y"].mustacheValue,
            "d": Optional<String>.none.mustacheValue,
        ]
        #expect(try t.render(.dictionary(MustacheDictionary(ctx))) == "3 2.5 xy ")
    }

    @Test func renderIntoReusedBuffer() throws {
        let t = try MustacheTemplate("<{{n}}>")
        var buffer: [UInt8] = []
        for i in 0..<3 { try t.render(["n": .int(i)], into: &buffer) }
        #expect(String(decoding: buffer, as: UTF8.self) == "<0><1><2>")
    }

    @Test func endlessPartialRecursionIsAnError() throws {
        let partials = try MustachePartials(sources: ["loop": "x{{> loop}}"])
        let t = try MustacheTemplate("{{> loop}}", name: "main")
        #expect(throws: TemplatingError.recursionTooDeep(template: "loop", line: 1, column: 2)) {
            try t.render([:], partials: partials)
        }
    }

    @Test func lambdaErrorsAreWrappedWithPosition() throws {
        struct Oops: Error {}
        let t = try MustacheTemplate("ab\n {{#f}}x{{/f}}", name: "t")
        #expect(
            throws: TemplatingError.helper(
                name: "f", template: "t", line: 2, column: 2, recipient: nil, message: "Oops()")
        ) {
            try t.render(["f": .lambda(MustacheLambda { _ in throw Oops() })])
        }
    }

    @Test func jsonErrorsNameLineAndColumn() {
        #expect(
            throws: TemplatingError.badData(
                file: "d.json", line: 2, column: 9, message: "expected ',' or '}' in an object")
        ) {
            try MustacheValue(json: Array("{\"a\": 1,\n \"b\": 2 \"c\": 3}".utf8), file: "d.json")
        }
        #expect(
            throws: TemplatingError.badData(
                file: "d.json", line: 1, column: 8, message: "unterminated string (no closing quote)")
        ) {
            try MustacheValue(json: Array("[1, 2, \"x".utf8), file: "d.json")
        }
    }

    @Test func jsonValuesKeepTheirKinds() throws {
        let v = try MustacheValue(
            json: Array(#"{"i": 3, "d": 1.5, "b": true, "n": null, "s": "\u00e9\ud83d\ude00"}"#.utf8))
        let t = try MustacheTemplate("{{i}} {{d}} {{b}} [{{n}}] {{s}}")
        #expect(try t.render(v) == "3 1.5 true [] é😀")
    }
}

@Suite("Template data through the package's JSON reader")
struct TemplateDataJSONTests {
    @Test func deepDataIsAnErrorNotACrash() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 200_000)
        #expect {
            try MustacheValue(json: deep, file: "deep.json")
        } throws: { error in
            guard case TemplatingError.badData(let file, 1, _, let message) = error else { return false }
            return file == "deep.json" && message.contains("nests more than")
        }
    }

    @Test func kindsAndDuplicateKeys() throws {
        let v = try MustacheValue(json: Array(#"{"n": 3, "x": 2.5, "big": 1e400, "k": 1, "k": 2}"#.utf8))
        if case .int(3)? = v.member("n") {} else { Issue.record("n: \(String(describing: v.member("n")))") }
        if case .double(2.5)? = v.member("x") {} else { Issue.record("x") }
        if case .int(2)? = v.member("k") {} else { Issue.record("k: a later duplicate wins") }
        if case .double(let d)? = v.member("big") { #expect(d.isInfinite) } else { Issue.record("big") }
    }
}
