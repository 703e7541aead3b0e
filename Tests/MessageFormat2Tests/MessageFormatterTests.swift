import MessageFormat2
import Support
import Testing

@Suite("MessageFormat 2 engine")
struct MessageFormatterTests {
    @Test("syntax errors name the line and column")
    func syntaxPosition() {
        #expect(throws: MessageError.syntax(line: 2, column: 4, message: "unescaped '}' in text")) {
            try Message(parsing: "one\ntwo} three")
        }
        #expect(throws: MessageError.self) { try Message(parsing: ".local $x = {1}\n{{x}} tail") }
    }

    @Test("plural, ordinal and exact selection in several locales")
    func selection() throws {
        let source = ".input {$n :number} .match $n 0 {{none}} one {{one}} few {{few}} many {{many}} * {{other}}"
        let ru = try MessageFormatter(source, locale: "ru", bidiIsolation: .none)
        #expect(ru.format(["n": 0]).text == "none")
        #expect(ru.format(["n": 21]).text == "one")
        #expect(ru.format(["n": 3]).text == "few")
        #expect(ru.format(["n": 5]).text == "many")
        #expect(ru.format(["n": .decimal("1.5")]).text == "other")
        let ordinal = try MessageFormatter(
            ".input {$n :number select=ordinal} .match $n one {{{$n}st}} two {{{$n}nd}} few {{{$n}rd}} * {{{$n}th}}",
            locale: "en", bidiIsolation: .none)
        #expect(
            [1, 2, 3, 4, 11, 22].map { ordinal.format(["n": .integer($0)]).text } == [
                "1st", "2nd", "3rd", "4th", "11th", "22nd",
            ])
    }

    @Test("numbers format to ICU's parts")
    func numberParts() throws {
        let f = try MessageFormatter("{1234.5 :number}", locale: "en", bidiIsolation: .none)
        let parts = f.formatToParts().parts
        #expect(
            parts.map(\.json.compactText) == [
                #"{"type":"number","locale":"en","parts":[{"type":"integer","value":"1"},{"type":"group","value":","},"#
                    + #"{"type":"integer","value":"234"},{"type":"decimal","value":"."},{"type":"fraction","value":"5"}]}"#
            ])
        #expect(try MessageFormatter("{1234.5 :number}", locale: "de").format().text == "1.234,5")
    }

    @Test("draft functions only when asked for; dates through ICU")
    func draftFunctions() throws {
        let standard = try MessageFormatter("{|2006-01-02| :date length=long}", locale: "en", bidiIsolation: .none)
        #expect(standard.format().errors.map(\.name) == ["unknown-function"])
        let draft = try MessageFormatter(
            "{|2006-01-02| :date length=long}", locale: "en", bidiIsolation: .none,
            functions: FunctionRegistry.standard.adding(.draft))
        #expect(draft.format().text == "January 2, 2006")
        let unit = try MessageFormatter(
            "{5 :unit unit=kilometer unitDisplay=long}", locale: "en", bidiIsolation: .none,
            functions: FunctionRegistry.standard.adding(.draft))
        #expect(unit.format().text == "5 kilometers")
    }

    @Test("custom functions can be registered")
    func customFunction() throws {
        var functions = FunctionRegistry.standard
        functions.register("shout") { (call: inout FunctionCall) throws(MessageError) -> ResolvedValue in
            guard let text = call.operand?.stringValue else { throw .resolution(.badOperand, "needs text") }
            return ResolvedValue(string: text.uppercased() + "!")
        }
        let f = try MessageFormatter("Hey {$name :shout}", locale: "en", bidiIsolation: .none, functions: functions)
        #expect(f.format(["name": "ada"]).text == "Hey ADA!")
        #expect(f.format([:]).text == "Hey {$name}")
        #expect(f.format([:]).errors.map(\.name) == ["unresolved-variable", "bad-operand"])
    }

    @Test("the suite's checker fails a wrong result, wrong errors and wrong parts")
    func checkerCanFail() {
        func suiteCase(_ members: [(String, JSONValue)]) -> SuiteCase {
            SuiteCase(
                file: "self-test", index: 0,
                json: .object(
                    [JSONMember(key: "locale", value: .string("en-US"))]
                        + members.map { JSONMember(key: $0.0, value: $0.1) }))
        }
        #expect(suiteCase([("src", .string("hello")), ("exp", .string("bye"))]).failures().count == 1)
        #expect(suiteCase([("src", .string("{$x}")), ("exp", .string("{$x}"))]).failures().count == 2)
        let parts = JSONValue.array([.object([JSONMember(key: "type", value: .string("fallback"))])])
        #expect(suiteCase([("src", .string("a")), ("expParts", parts)]).failures().count == 1)
        #expect(suiteCase([("src", .string("hello")), ("exp", .string("hello"))]).failures().isEmpty)
    }
}
