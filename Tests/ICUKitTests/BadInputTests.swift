import ICUKit
import Testing

/// Inputs that used to crash the process inside ICU or the bridge: they must now give errors, or work.
@Suite struct ICUBadInputTests {
    static func nested(_ levels: Int, open: String, close: String, inner: String = "x") -> String {
        String(repeating: open, count: levels) + inner + String(repeating: close, count: levels)
    }

    @Test func nestingDepthFollowsICUsGrammar() {
        #expect(MessageFormat.nestingDepth(of: "Hello {name}!") == 0)
        #expect(MessageFormat.nestingDepth(of: "{n, plural, one {# guest} other {# guests}}") == 1)
        #expect(
            MessageFormat.nestingDepth(of: "{g, select, female {{n, plural, one {a} other {b}}} other {c}}") == 2)
        #expect(MessageFormat.nestingDepth(of: "{n, choice, 0#none|1#one {x, select, a {b} other {c}}|1<many}") == 2)
        #expect(MessageFormat.nestingDepth(of: "{n, SelectOrdinal, one {#st} other {#th}}") == 1)
        #expect(MessageFormat.nestingDepth(of: "{n, choice, 0\u{2264}{a, select, other {x}}|1#y}") == 2)
        #expect(MessageFormat.nestingDepth(of: "{n, number, integer} {n, selectordinals, x {{a, select, y {}}}}") == 0)
        // Simple styles count braces without nesting.
        #expect(MessageFormat.nestingDepth(of: "{d, date, '{{{{{'}") == 0)
        // Quoted braces are text: '{' opens no argument; '' is one apostrophe and quotes nothing.
        #expect(MessageFormat.nestingDepth(of: "'{'{a, select, x {y} other {z}}'}'") == 1)
        #expect(MessageFormat.nestingDepth(of: "'{a, select, x {y} other {z}}'") == 0)
        #expect(MessageFormat.nestingDepth(of: "it''s {a, select, x {y} other {z}}") == 1)
        // '# quotes only inside a plural message; elsewhere the apostrophe is literal.
        #expect(MessageFormat.nestingDepth(of: "{n, plural, other {'#{'}}") == 1)
        #expect(MessageFormat.nestingDepth(of: "'#{a, select, other {x}}") == 1)
        // Deeply nested selects, plurals and choices are counted, not recursed into.
        #expect(MessageFormat.nestingDepth(of: Self.nested(3600, open: "{a, select, other {", close: "}}")) == 3600)
        #expect(MessageFormat.nestingDepth(of: Self.nested(3600, open: "{n, choice, 0#", close: "}")) == 3600)
    }

    @Test func deeplyNestedPatternsAreRefusedBeforeICU() throws {
        for (open, close) in [
            ("{a, select, other {", "}}"), ("{n, plural, other {", "}}"), ("{n, choice, 0#", "}"),
            ("{n, selectordinal, other {", "}}"),
        ] {
            let pattern = Self.nested(3600, open: open, close: close)
            #expect(throws: ICUError.nestingTooDeep(line: 1, column: 65 * open.count, limit: 64)) {
                try MessageFormat(pattern, locale: "en")
            }
        }
        // At the limit it compiles and formats.
        let ok = try MessageFormat(Self.nested(64, open: "{a, select, other {", close: "}}"), locale: "en")
        #expect(try ok.format(["a": .string("q")]) == "x")
        let error = ICUError.nestingTooDeep(line: 2, column: 7, limit: 64)
        #expect("\(error)".contains("more than 64 levels deep at line 2, column 7"))
        #expect(throws: ICUError.nestingTooDeep(line: 2, column: 30, limit: 1)) {
            try MessageFormat.checkNesting("x\n{a, select, x {{b, select, y {z} other {}}} other {}}", limit: 1)
        }
    }

    @Test func listOfAMillionItems() throws {
        let items = (0..<1_000_000).map { $0 % 2 == 0 ? "a" : "b" }
        let text = try ICUFormat.list(items, locale: "en")
        #expect(text.hasPrefix("a, b, a, "))
        #expect(text.hasSuffix(", a, and b"))
        #expect(text.utf8.count == 1_000_000 + 2 * 999_999 + 4)
    }

    @Test func messageFormatWithManyArguments() throws {
        let names = (0..<2000).map { "a\($0)" }
        let pattern = names.map { "{\($0)}" }.joined(separator: ",")
        let format = try MessageFormat(pattern, locale: "en")
        var args: [String: MessageFormat.Argument] = [:]
        for (i, name) in names.enumerated() { args[name] = i % 2 == 0 ? .string("s\(i)") : .int(Int64(i)) }
        let text = try format.format(args)
        #expect(text.hasPrefix("s0,1,s2,3,"))
        #expect(text.hasSuffix(",s1998,1,999"))
    }
}
