import Foundation
import ICUKit
import MessageFormat2
import StringsCatalog
import Testing

@testable import Templating

/// `ICUMessageConverter` proven by formatting: each ICU MessageFormat 1 message is converted to MF2, then
/// both are formatted (MF1 through ICUKit's `MessageFormat`, the project's MF1 path; MF2 through the engine
/// with no bidi isolation) for n = 0…200 in 20 locales, and the strings must be equal.
@Suite("ICU MessageFormat 1 → MessageFormat 2 conversion")
struct ICUMessageConversionTests {
    /// Locales with every kind of plural rule: one/other, none, zero…many (ar, cy), dual (sl, he), few/many
    /// (pl, ru, lt), fractions (fr, pt-PT), Irish and Scottish Gaelic's five forms.
    static let locales = [
        "en", "ar", "pl", "ru", "cy", "ga", "ja", "lt", "sl", "he", "fr", "pt-PT", "pt", "de", "uk", "cs", "lv",
        "gd", "mt", "is",
    ]

    /// Messages the converter must get right beyond the shipped ones: nested selectors, offsets, exact
    /// keys, `#` at every depth, quoting, simple and number arguments.
    static let generated = [
        "{n, plural, =0 {no items} =1 {exactly one item} zero {# (zero)} one {# item} two {# (two)} few {# items (few)} many {# items (many)} other {# items}}",
        "{n, plural, offset:1 =0 {nobody} =1 {{host} alone} one {{host} and # other} other {{host} and # others}}",
        "{n, plural, offset:2 =0 {none} =2 {two exactly} few {# few after two} other {# after two}}",
        "{n, plural, offset:3 other {# beyond three}}",
        "{n, selectordinal, one {#st} two {#nd} few {#rd} many {#th (many)} other {#th}}",
        "{n, plural, one {# file} other {# files}}, the {n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}",
        "{g, select, female {{n, plural, one {she has # cat} other {she has # cats}}} male {{n, plural, =0 {he has no cat} one {he has # cat} other {he has # cats}}} other {{n, plural, =0 {they have none} other {they have # cats}}}}",
        "{n, plural, one {{g, select, female {# (hers)} other {# (theirs)}}} other {{g, select, female {# f} other {# o}}}}",
        "{n, plural, one {{m, plural, one {# in one} other {# in many}}} other {# outer, {m, plural, =0 {none inner} other {# inner}}}}",
        "{n, plural, offset:1 one {{m, selectordinal, one {#st} other {#th}} of # more} other {{g, select, a {A #} other {O #}}}}",
        "It''s '{'literal'}' {n, plural, one {'#' is # and it''s one} other {'{n}' and # '{'}}",
        "don't {name}, '#' outside; ''quoted'' and a trailing '",
        "{name} has {n, number} items ({n, number, integer}), {n, number, percent} done",
        " .leading {n} and a back\\slash {name}",
        "{g, select, a {first} b {second} a {ignored duplicate} other {rest}} then {n, plural, one {one} one {again} other {more}}",
        "plain text, no arguments",
        "{n,plural,=5{five}other{#}} {g,select,x{X}other{Y}}",
        "{n, plural, one {# {name}} other {# {name}s}} of {m, plural, offset:1 =1 {solo} other {# with {g, select, q {Q} other {?}}}}",
    ]

    @Test("every generated case formats the same as ICU MessageFormat 1, n = 0…200, 20 locales")
    func generatedCases() async throws {
        try await Self.compareAll(Self.generated)
    }

    @Test("every MF1 message the project ships converts and formats the same")
    func shippedMessages() async throws {
        let catalog = try Catalog(directory: localizations)
        var messages: [(source: String, language: String)] = []
        for language in catalog.languages {
            for (name, table) in catalog.tables[language] ?? [:] {
                // Template tables hold ICU patterns; Localizable's plain strings are printf-style UI literals.
                if name != "Localizable" {
                    for (_, value) in table.strings.sorted(by: { $0.key < $1.key }) where !value.hasPrefix(".") {
                        messages.append((value, language))  // (`.input …` entries are MF2 already)
                    }
                }
                for entry in table.plurals.values {
                    if let p = StringsdictPattern.icuPattern(entry) { messages.append((p, language)) }
                }
            }
        }
        #expect(messages.filter { $0.source.contains("plural,") }.count >= 60)
        // Every message in its own language; and every shape of message (its text left out: what it
        // selects on, its keys, where its placeholders are) in all 20 locales.
        var shapes: [Message: String] = [:]
        for (source, language) in messages {
            let converted = try ICUMessageConverter.convert(source)
            let mismatches = try Self.compare(source, converted, locale: language)
            #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
            shapes[Self.shape(try Message(parsing: converted))] =
                shapes[Self.shape(try Message(parsing: converted))] ?? source
        }
        try await Self.compareAll(shapes.values.sorted())
    }

    /// The message with every text of its patterns emptied.
    static func shape(_ message: Message) -> Message {
        func blank(_ p: Pattern) -> Pattern {
            Pattern(p.elements.map { if case .text = $0 { .text("") } else { $0 } })
        }
        var out = message
        switch message.body {
        case .pattern(let p): out.body = .pattern(blank(p))
        case .match(let selectors, let variants):
            out.body = .match(
                selectors: selectors, variants: variants.map { Variant(keys: $0.keys, pattern: blank($0.pattern)) })
        }
        return out
    }

    @Test("what has no MF2 equivalent, and bad MF1, fail with line and column")
    func refusals() {
        let cases: [(String, Int, Int, String)] = [
            ("{n, choice, 0#none|1#one}", 1, 5, "choice"),
            ("a\n{d, date, short}", 2, 1, "date"),
            ("{p, number, currency}", 1, 1, "currency"),
            ("{p, number, ::precision-integer}", 1, 1, "number style"),
            ("{n, plural, one {x}}", 1, 20, "'other'"),
            ("{n, plural, other {x}", 1, 22, "not closed"),
            ("{n, plural, offset:-1 other {x}}", 1, 1, "offset"),
            ("{0} item", 1, 1, "variable name"),
            ("{n, plural, lots {x} other {y}}", 1, 13, "plural category"),
            ("{n, plural, other {{g, select, other {{n, select, other {x}}}}}}", 1, 39, "both"),
            (String(repeating: "{a, select, other {", count: 40), 1, 609, "deeper"),
        ]
        for (source, line, column, words) in cases {
            do {
                let converted = try ICUMessageConverter.convert(source)
                Issue.record("converted \(source) to \(converted)")
            } catch {
                guard case .conversion(let l, let c, let message) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect((l, c) == (line, column), "\(source): \(message)")
                #expect(message.contains(words), "\(source): \(message)")
            }
        }
    }

    @Test("a plural converts to the idiomatic .input/.match shape")
    func shape() throws {
        #expect(
            try ICUMessageConverter.convert("{count, plural, =0 {none} one {# file} other {# files}}")
                == ".input {$count :number useGrouping=always} .match $count 0 {{none}} one {{{$count} file}} * {{{$count} files}}"
        )
        #expect(try ICUMessageConverter.convert("Hi '{'{name}'}'") == "Hi \\{{$name}\\}")
        let lines = ICUMessageConverter.convertLines("{n, plural, other {#}}\n\n{n, choice, 0#x}\n")
        #expect(lines.map(\.line) == [1, 3])
        #expect(lines[1].diagnostic(file: "m.txt") == "m.txt:3:5: a choice argument has no MessageFormat 2 equivalent")
    }

    // MARK: Comparing

    static func compareAll(_ messages: [String]) async throws {
        let converted = try messages.map { mf1 in
            do {
                return (mf1, try ICUMessageConverter.convert(mf1))
            } catch {
                throw ConversionFailure(description: "\(mf1): \(error)")
            }
        }
        let mismatches = try await withThrowingTaskGroup(of: [String].self) { group in
            for locale in locales {
                group.addTask { try converted.flatMap { try compare($0.0, $0.1, locale: locale) } }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches: \(mismatches.prefix(10).joined(separator: "\n"))")
    }

    /// Mismatches of one message in one locale (at most 3 reported).
    static func compare(_ mf1Source: String, _ mf2Source: String, locale: String) throws -> [String] {
        let mf1 = try ICUKit.MessageFormat(mf1Source, locale: locale)
        let message = try Message(parsing: mf2Source)
        let mf2 = try MessageFormatter(message: message, locale: locale, bidiIsolation: .none)
        let (numeric, selectValues) = argumentKinds(message)
        let names = message.externalVariables
        // 0…200, and numbers where grouping starts (Polish writes 1500 but 12 345).
        let loops =
            names.contains(where: numeric.contains) || !selectValues.isEmpty
            ? Array(0...200) + [1_000, 1_500, 10_000, 12_345, 1_234_567] : [0]
        var out: [String] = []
        for n in loops {
            var a1: [String: ICUKit.MessageFormat.Argument] = [:]
            var a2: [String: MessageArgument] = [:]
            for (i, name) in names.enumerated() {
                if numeric.contains(name) {
                    let v = i == 0 ? n : (n * 7 + i) % 201  // a second number varies on its own
                    a1[name] = .int(Int64(v))
                    a2[name] = .integer(v)
                } else if let values = selectValues[name] {
                    let v = values[(n / max(1, i)) % values.count]
                    a1[name] = .string(v)
                    a2[name] = .string(v)
                } else {
                    a1[name] = .string("Ada")
                    a2[name] = .string("Ada")
                }
            }
            let expected = try mf1.format(a1)
            let result = mf2.format(a2)
            if expected != result.text || !result.errors.isEmpty {
                out.append("\(locale) \(a1): \(mf1Source)\n  MF1 \(expected)\n  MF2 \(result.text) \(result.errors)")
                if out.count == 3 { break }
            }
        }
        return out
    }

    /// The numeric arguments (an operand of `:number`, `:percent`) and the select arguments with the values
    /// worth trying (each key, and one matching none).
    static func argumentKinds(_ message: Message) -> (Set<String>, [String: [String]]) {
        var numeric = Set<String>()
        var strings: [String: [String]] = [:]
        var expressions = message.declarations.map(\.expression)
        var patterns: [Pattern] = []
        switch message.body {
        case .pattern(let p): patterns = [p]
        case .match(_, let variants): patterns = variants.map(\.pattern)
        }
        for p in patterns {
            for case .expression(let e) in p.elements { expressions.append(e) }
        }
        for e in expressions {
            guard case .variable(let v) = e.operand, let f = e.function?.name.name else { continue }
            if ["number", "percent", "integer", "offset"].contains(f) { numeric.insert(v.name) }
            if f == "string" { strings[v.name] = ["zz-none"] }
        }
        if case .match(let selectors, let variants) = message.body {
            for (i, s) in selectors.enumerated() where strings[s.name] != nil {
                for v in variants { if case .literal(let l) = v.keys[i] { strings[s.name]!.append(l.value) } }
            }
        }
        return (numeric, strings.mapValues { Array(Set($0)).sorted() })
    }

    struct ConversionFailure: Error, CustomStringConvertible {
        var description: String
    }
}
