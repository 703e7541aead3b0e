import Testing

@testable import MessageFormat2

/// What the `messageformat` and `strings get` commands hand the library: `NAME=VALUE` arguments and
/// message files to check.
@Suite struct CommandInputTests {
    @Test func assignmentsKeepTheLastValueAndNameTheMalformed() {
        let r = MessageArgument.assignments(["n=3", "name=Ada", "oops", "n=4", "=x"])
        #expect(r.arguments.keys.sorted() == ["n", "name"])
        guard case .decimal("4") = r.arguments["n"], case .string("Ada") = r.arguments["name"] else {
            Issue.record("\(r.arguments)")
            return
        }
        #expect(r.malformed == ["oops", "=x"])
    }

    @Test func aMessageFileIsCheckedWithFileLineColumn() {
        #expect(Message.check(Array("Hello {$name}".utf8), file: "a.mf2") == nil)
        #expect(Message.check([0xFF], file: "b.mf2") == "b.mf2:1:1: not UTF-8 text")
        let syntax = Message.check(Array("{oops".utf8), file: "c.mf2")
        #expect(syntax?.hasPrefix("c.mf2:1:") == true && syntax?.contains("syntax-error") == true)
        let model = Message.check(Array(".input {$n :number} .match $n one {{one}}".utf8), file: "d.mf2")
        #expect(model?.hasPrefix("d.mf2:1:1: missing-fallback-variant: ") == true, "\(model ?? "nil")")
    }
}

@Suite struct MessageErrorAudienceTests {
    @Test func casesAreSplitByAudience() {
        #expect(MessageError.syntax(line: 1, column: 1, message: "m").isUsageError)
        #expect(!MessageError.resolution(.unresolvedVariable, "$x").isUsageError)
    }
}
