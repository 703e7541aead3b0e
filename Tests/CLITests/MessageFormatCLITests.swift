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

    @Test func convertTurnsMF1IntoMF2AndReportsEachBadLine() throws {
        let one = try CLI.run(["messageformat", "convert", "{n, plural, one {# file} other {# files}}"])
        #expect(one.status == 0)
        #expect(one.stdout == ".input {$n :number useGrouping=always} .match $n one {{{$n} file}} * {{{$n} files}}\n")
        let dir = try Scratch.directory("mf2")
        let file = dir.appendingPathComponent("messages.txt")
        try Data("{g, select, a {A} other {B}}\n\n{x, choice, 0#none}\nIt''s {name}\n".utf8).write(to: file)
        let batch = try CLI.run(["messageformat", "convert", "--file", file.path])
        #expect(batch.status == 1)
        #expect(batch.stdout == ".input {$g :string} .match $g a {{A}} * {{B}}\nIt's {$name}\n")
        #expect(batch.stderr.contains("\(file.path):3:5: a choice argument has no MessageFormat 2 equivalent"))
        let json = try CLI.run(["messageformat", "convert", "--json"], stdin: Data("{x, date}\nplain\n".utf8))
        #expect(json.status == 1)
        let lines = json.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"line":1,"source":"{x, date}","error":{"line":1,"column":1,"message":"#))
        #expect(lines[1] == #"{"line":2,"source":"plain","result":"plain"}"#)
    }
}
