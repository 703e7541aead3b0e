import Foundation
import MessageFormat2
import Support
import Testing

/// One test of the working group's suite (Fixtures/tests, see Fixtures/SOURCE.md).
struct SuiteCase: Sendable, CustomTestStringConvertible {
    var file: String
    var index: Int
    var json: JSONValue

    var testDescription: String { "\(file) #\(index): \(json["src"]?.stringValue ?? "")" }

    /// Loads every test of a suite file, with the file's default properties applied.
    static func load(_ file: String) -> [SuiteCase] {
        guard let url = Bundle.module.url(forResource: "Fixtures/tests/" + file, withExtension: nil),
            let data = try? Data(contentsOf: url)
        else { return [] }
        var reader = JSONReader([UInt8](data), file: file, keepRawText: false)
        guard let document = try? reader.document(), case .array(let tests)? = document["tests"] else { return [] }
        let defaults = document["defaultTestProperties"]?.members ?? []
        return tests.enumerated().map { i, test in
            var merged = JSONValue.object(defaults)
            for m in test.members ?? [] { merged[m.key] = m.value }
            return SuiteCase(file: file, index: i, json: merged)
        }
    }

    static let files = [
        "syntax.json", "syntax-errors.json", "data-model-errors.json", "fallback.json", "bidi.json",
        "pattern-selection.json", "u-options.json", "functions/string.json", "functions/number.json",
        "functions/integer.json", "functions/offset.json", "functions/currency.json", "functions/percent.json",
        "functions/date.json", "functions/time.json", "functions/datetime.json",
    ]

    static var all: [SuiteCase] { files.flatMap(load) }

    /// What differs from the test's expectations (empty when it passes).
    func failures() -> [String] {
        var request = JSONValue.object([])
        for m in json.members ?? [] { request[m.key] = m.value }
        request["testFunctions"] = .bool(true)
        request["parts"] = .bool(json["expParts"] != nil)
        if json["bidiIsolation"] == nil { request["bidiIsolation"] = .string("default") }
        guard let parsed = try? ConformanceRequest(json: request) else { return ["the test cannot be read"] }
        let (text, parts, errors) = parsed.run()
        var problems: [String] = []
        if let exp = json["exp"]?.stringValue, exp != text {
            problems.append("result \(text.debugDescription), expected \(exp.debugDescription)")
        }
        var expected: [String] = []
        if case .array(let list)? = json["expErrors"] {
            expected = list.compactMap { $0["type"]?.stringValue }.sorted()
        }
        let actual = errors.map(\.name).sorted()
        if expected != actual { problems.append("errors \(actual), expected \(expected)") }
        if case .array(let expParts)? = json["expParts"] {
            let got = (parts ?? []).map(\.json)
            if got.count != expParts.count || !zip(expParts, got).allSatisfy({ Self.contains($1, $0) }) {
                problems.append("parts \(got.map(\.compactText)), expected \(expParts.map(\.compactText))")
            }
        }
        return problems
    }

    /// True when `actual` has every member of `expected` with an equal value (arrays element by element).
    static func contains(_ actual: JSONValue, _ expected: JSONValue) -> Bool {
        switch (actual, expected) {
        case (.object, .object(let members)):
            return members.allSatisfy { m in actual[m.key].map { contains($0, m.value) } ?? false }
        case (.array(let a), .array(let e)):
            return a.count == e.count && zip(a, e).allSatisfy { contains($0, $1) }
        case (.string(let a, _), .string(let e, _)): return a == e
        default: return actual == expected
        }
    }
}

@Suite("MessageFormat 2 conformance suite")
struct ConformanceSuiteTests {
    @Test("syntax", arguments: SuiteCase.load("syntax.json"))
    func syntax(_ c: SuiteCase) { #expect(c.failures() == []) }

    @Test("syntax errors", arguments: SuiteCase.load("syntax-errors.json"))
    func syntaxErrors(_ c: SuiteCase) { #expect(c.failures() == []) }

    @Test("data model errors", arguments: SuiteCase.load("data-model-errors.json"))
    func dataModelErrors(_ c: SuiteCase) { #expect(c.failures() == []) }

    @Test("fallback", arguments: SuiteCase.load("fallback.json"))
    func fallback(_ c: SuiteCase) { #expect(c.failures() == []) }

    @Test("bidi", arguments: SuiteCase.load("bidi.json"))
    func bidi(_ c: SuiteCase) { #expect(c.failures() == []) }

    @Test("pattern selection", arguments: SuiteCase.load("pattern-selection.json"))
    func patternSelection(_ c: SuiteCase) { #expect(c.failures() == []) }

    @Test("u: options", arguments: SuiteCase.load("u-options.json"))
    func uOptions(_ c: SuiteCase) { #expect(c.failures() == []) }

    @Test(
        "functions",
        arguments: [
            "string", "number", "integer", "offset", "currency", "percent", "date", "time", "datetime",
        ].flatMap { SuiteCase.load("functions/\($0).json") })
    func functions(_ c: SuiteCase) { #expect(c.failures() == []) }

    /// The whole suite at once, for its score line.
    @Test("score: every test of the suite passes")
    func score() {
        let cases = SuiteCase.all
        let failed = cases.filter { !$0.failures().isEmpty }
        print("MessageFormat 2 conformance: \(cases.count - failed.count) passed, \(failed.count) failed")
        #expect(cases.count == 461)
        #expect(failed.isEmpty, "\(failed.map(\.testDescription))")
    }
}
