import Foundation
import Synchronization
import Testing

@testable import Templating

/// Runs every case of the Mustache spec (v1.4.2, MIT: see Fixtures/mustache-spec/LICENSE and SOURCE.txt),
/// carried by this test target. The spec's per-language lambda code is replaced by equivalent Swift closures.
enum SpecFiles {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/mustache-spec")
    static let files = [
        "comments", "delimiters", "interpolation", "inverted", "partials", "sections",
        "~dynamic-names", "~inheritance", "~lambdas",
    ]
}

/// A counter shared by a stateful lambda ("Multiple Calls").
final class Counter: Sendable {
    let value = Mutex(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

/// Swift closures equivalent to the spec's lambdas, by test name.
func specLambda(_ test: String) -> MustacheLambda? {
    switch test {
    case "Interpolation": return MustacheLambda { _ in .template("world") }
    case "Interpolation - Expansion": return MustacheLambda { _ in .template("{{planet}}") }
    case "Interpolation - Alternate Delimiters": return MustacheLambda { _ in .template("|planet| => {{planet}}") }
    case "Interpolation - Multiple Calls":
        let counter = Counter()
        return MustacheLambda { _ in .template(String(counter.next())) }
    case "Escaping": return MustacheLambda { _ in .template(">") }
    case "Section": return MustacheLambda { call in .template(call.sectionText == "{{x}}" ? "yes" : "no") }
    case "Section - Expansion":
        return MustacheLambda { call in .template((call.sectionText ?? "") + "{{planet}}" + (call.sectionText ?? "")) }
    case "Section - Alternate Delimiters":
        return MustacheLambda { call in
            .template((call.sectionText ?? "") + "{{planet}} => |planet|" + (call.sectionText ?? ""))
        }
    case "Section - Multiple Calls": return MustacheLambda { call in .template("__" + (call.sectionText ?? "") + "__") }
    case "Inverted Section": return MustacheLambda { _ in .template("") }
    default: return nil
    }
}

struct SpecCase: CustomTestStringConvertible, Sendable {
    let file: String
    let name: String
    let template: String
    let data: MustacheValue
    let partials: [String: String]
    let expected: String
    var testDescription: String { "\(file): \(name)" }
}

func loadSpecCases() -> [SpecCase] {
    var cases: [SpecCase] = []
    for file in SpecFiles.files {
        let url = SpecFiles.directory.appendingPathComponent(file + ".json")
        guard let bytes = try? Data(contentsOf: url), let doc = try? MustacheValue(json: Array(bytes), file: url.path),
            case .array(let tests)? = doc.member("tests")
        else {
            cases.append(
                SpecCase(
                    file: file, name: "<unreadable \(url.path)>", template: "", data: .null, partials: [:],
                    expected: "<file missing or unreadable>"))
            continue
        }
        for test in tests {
            let name = test.member("name")?.scalarText ?? "?"
            var data = test.member("data") ?? .null
            if case .dictionary(var d) = data, d["lambda"] != nil {
                if let lambda = specLambda(name) { d["lambda"] = .lambda(lambda) }
                data = .dictionary(d)
            }
            var partials: [String: String] = [:]
            if case .dictionary(let p)? = test.member("partials") {
                for (k, v) in p.entries { partials[k] = v.scalarText ?? "" }
            }
            cases.append(
                SpecCase(
                    file: file, name: name, template: test.member("template")?.scalarText ?? "",
                    data: data, partials: partials, expected: test.member("expected")?.scalarText ?? ""))
        }
    }
    return cases
}

@Suite("Mustache spec conformance")
struct SpecConformanceTests {
    static let cases = loadSpecCases()

    @Test("all 194 cases are loaded")
    func caseCount() {
        #expect(Self.cases.count == 194)
    }

    @Test("spec case", arguments: cases)
    func specCase(_ c: SpecCase) throws {
        let template = try MustacheTemplate(c.template, name: c.name)
        let partials = try MustachePartials(sources: c.partials)
        let output = try template.render(c.data, partials: partials, options: RenderOptions(helpers: false))
        #expect(output == c.expected, "\(c.file): \(c.name)\ntemplate: \(c.template.debugDescription)")
    }
}
