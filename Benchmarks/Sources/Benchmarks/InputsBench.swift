import Foundation
import ICUKit
import Templating

// Bad-input benchmark: work that used to grow faster than the input (or crash) must stay linear.
// Each figure is set beside a baseline measured in the same run:
//   - parsing N comment tags all on one line vs. the same tags one per line (ratio ≈ 1 when linear;
//     it was ~quadratic in the line length before);
//   - {{#list}} over N items vs. Swift's joined(separator:) of the same strings;
//   - MessageFormat's nesting scan of a 3,600-level pattern vs. compiling a plain ICU message;
//   - rendering with the output limit checked (64 MiB) vs. an effectively unlimited one.
//
//   Benchmarks inputs [--tags N] [--items N]

func runInputsBench(_ args: [String]) throws {
    var tags = 32_000
    var items = 1_000_000
    var i = 0
    while i < args.count {
        if args[i] == "--tags", i + 1 < args.count, let n = Int(args[i + 1]) { tags = n }
        if args[i] == "--items", i + 1 < args.count, let n = Int(args[i + 1]) { items = n }
        i += 1
    }
    print("== inputs: linear work on hostile input")

    let oneLine = String(repeating: "{{! comment }}", count: tags)
    let perLine = String(repeating: "{{! comment }}\n", count: tags)
    let sameLine = try medianSeconds(runs: 3) { _ = try MustacheTemplate(oneLine, name: "one-line") }
    let manyLines = try medianSeconds(runs: 3) { _ = try MustacheTemplate(perLine, name: "per-line") }
    print(
        "parse \(tags) comment tags on one line: \(format(sameLine * 1000, 1)) ms; one per line (baseline): "
            + "\(format(manyLines * 1000, 1)) ms; ratio \(format(sameLine / manyLines))")

    let names = (0..<items).map { "Name \($0)" }
    let context: MustacheValue = ["names": .array(names.map { .string($0) })]
    let listTemplate = try MustacheTemplate("{{#list}}names{{/list}}", name: "list")
    let options = RenderOptions(escaping: .text, locale: "en")
    let list = try medianSeconds(runs: 3) { _ = try listTemplate.render(context, options: options) }
    let joined = medianSeconds(runs: 3) { _ = names.joined(separator: ", ") }
    print(
        "{{#list}} of \(items) items: \(format(list * 1000, 1)) ms; joined(separator:) (baseline): "
            + "\(format(joined * 1000, 1)) ms; ratio \(format(list / joined, 1))")

    let deep = String(repeating: "{a, select, other {", count: 3600) + "x" + String(repeating: "}}", count: 3600)
    let scan = medianSeconds(runs: 5) { _ = MessageFormat.nestingDepth(of: deep) }
    let plain = try medianSeconds(runs: 5) {
        _ = try MessageFormat("{n, plural, one {# guest} other {# guests}}", locale: "en")
    }
    print(
        "nesting scan of a 3,600-level message (\(deep.utf8.count) bytes): \(format(scan * 1e6, 0)) µs; "
            + "compiling a one-level ICU message (baseline): \(format(plain * 1e6, 0)) µs")

    let body = try MustacheTemplate("{{#rows}}<td>{{name}}</td>{{/rows}}", name: "rows")
    let rows: MustacheValue = ["rows": .array((0..<200_000).map { ["name": .string("Row \($0)")] })]
    var limited = RenderOptions(escaping: .html)
    limited.maxOutputBytes = RenderOptions.defaultMaxOutputBytes
    var unlimited = limited
    unlimited.maxOutputBytes = Int.max
    let withLimit = try medianSeconds(runs: 5) { _ = try body.render(rows, options: limited) }
    let without = try medianSeconds(runs: 5) { _ = try body.render(rows, options: unlimited) }
    print(
        "render 200,000 rows with the 64 MiB limit: \(format(withLimit * 1000, 1)) ms; unlimited (baseline): "
            + "\(format(without * 1000, 1)) ms; ratio \(format(withLimit / without))")
}
