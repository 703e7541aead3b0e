import Foundation
import TestSupport
import Testing

@Suite struct MessageFormatCLITests {
    @Test func formatsWithArguments() throws {
        let message = ".input {$n :number} .match $n one {{{$n} file for {$who}}} * {{{$n} files for {$who}}}"
        let r = try CLI.run(
            [
                "messageformat", "format", message, "--locale", "de", "--arg", "n=1234.5", "--arg", "who=Ada",
                "--no-bidi",
            ])
        #expect(r.status == 0)
        #expect(r.stdout == "1.234,5 files for Ada\n")
    }

    @Test func argumentsFromJSONFileAndErrorsOnStderr() throws {
        let dir = try Scratch.directory("mf2")
        let args = dir.appendingPathComponent("args.json")
        try Data(#"{"n": 1}"#.utf8).write(to: args)
        let r = try CLI.run(
            ["messageformat", "format", "{$n :number} {$missing}", "--args", args.path, "--no-bidi"])
        #expect(r.status == 1)
        #expect(r.stdout == "1 {$missing}\n")
        #expect(r.stderr.contains("unresolved-variable"))
    }

    @Test func conformanceInterfaceAnswersEachLine() throws {
        let input = [
            #"{"src": "{$x :number minimumFractionDigits=2}", "locale": "fr", "params": [{"name": "x", "value": 4.2}]}"#,
            #"{"src": "{42 :test:function fails=format}", "locale": "en", "testFunctions": true, "bidiIsolation": "none", "parts": true}"#,
            #"{"src": ".local $x = {1} .local $x = {2} {{}}", "locale": "en"}"#,
            "not json",
        ].joined(separator: "\n")
        let r = try CLI.run(["messageformat", "format", "--jsonl"], stdin: Data(input.utf8))
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix(#"{"result":"4,20","errors":[]"#))
        #expect(lines[1].contains(#""result":"{|42|}""#) && lines[1].contains(#""type":"bad-option""#))
        #expect(lines[1].contains(#""parts":[{"type":"fallback","source":"|42|"}]"#))
        #expect(lines[2].contains(#""type":"duplicate-declaration""#))
        #expect(lines[3].hasPrefix(#"{"error":"not JSON"#))
    }

    @Test func checkReportsFileLineColumn() throws {
        let dir = try Scratch.directory("mf2")
        let good = dir.appendingPathComponent("good.mf2")
        let bad = dir.appendingPathComponent("bad.mf2")
        let model = dir.appendingPathComponent("model.mf2")
        try Data(".input {$n :number}\n.match $n\none {{one}}\n* {{other}}\n".utf8).write(to: good)
        try Data("Hello\n  {$name :string\n".utf8).write(to: bad)
        try Data(".input {$n :number} .match $n one {{one}}".utf8).write(to: model)
        let r = try CLI.run(["messageformat", "check", good.path, bad.path, model.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(bad.path):3:1: syntax-error"))
        #expect(r.stderr.contains("\(model.path):1:1: missing-fallback-variant"))
        #expect(!r.stderr.contains(good.path))
        #expect(r.stdout == "1 valid, 2 with errors\n")
    }
}
