import ArgumentModel
import Testing

/// A command shaped like the tool's: flags, options with values and allowed values, a repeatable option,
/// an optional file argument.
let sortLike = CommandSpec(
    name: "sort", summary: "Print names in a locale's collation order",
    discussion: "Reads one name per line.",
    options: [
        .option("--locale", value: "L", help: "BCP 47 locale"),
        .flag("--json", help: "a JSON array"),
        .option("--mode", help: "what to reach", allowed: ["email", "messages", "both"]),
        .repeated("--tag", value: "T", help: "a tag (repeatable)"),
        .option("--out", value: "DIR", help: "where to write", completion: .directory, section: "Delivery"),
    ],
    arguments: [ArgumentSpec("FILE|-", help: "the names", completion: .file)],
    examples: ["contacts sort --locale sv names.txt"])

let required = CommandSpec(
    name: "outbox settle", summary: "Settle",
    options: [.option("--template", value: "NAME", help: "the template", required: true)],
    arguments: [
        ArgumentSpec("DIR", help: "the outbox", required: true),
        ArgumentSpec("ID", help: "ids", required: true, repeated: true),
    ])

@Suite("ArgumentModel: parsing")
struct ParserTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var argv: [String]
        var values: [String: [String]]
        var positionals: [String]
        var testDescription: String { argv.joined(separator: " ") }
    }

    static let accepted: [Case] = [
        Case(argv: [], values: [:], positionals: []),
        Case(argv: ["--locale", "sv", "names.txt"], values: ["--locale": ["sv"]], positionals: ["names.txt"]),
        Case(argv: ["names.txt", "--locale", "sv"], values: ["--locale": ["sv"]], positionals: ["names.txt"]),
        Case(argv: ["--locale=de-CH"], values: ["--locale": ["de-CH"]], positionals: []),
        Case(argv: ["--locale=--json"], values: ["--locale": ["--json"]], positionals: []),
        Case(argv: ["--locale="], values: ["--locale": [""]], positionals: []),
        Case(argv: ["--locale", "a", "--locale", "b"], values: ["--locale": ["a", "b"]], positionals: []),
        Case(argv: ["-"], values: [:], positionals: ["-"]),
        Case(argv: ["--locale", "-"], values: ["--locale": ["-"]], positionals: []),
        Case(argv: ["--locale", "-h"], values: ["--locale": ["-h"]], positionals: []),
        Case(argv: ["--", "--json"], values: [:], positionals: ["--json"]),
        Case(argv: ["--json", "--", "-h"], values: ["--json": [""]], positionals: ["-h"]),
        Case(argv: ["--tag", "a", "--tag=b", "--tag", "c"], values: ["--tag": ["a", "b", "c"]], positionals: []),
        Case(argv: ["--mode", "both", "--json"], values: ["--mode": ["both"], "--json": [""]], positionals: []),
        Case(argv: ["--out", "drafts"], values: ["--out": ["drafts"]], positionals: []),
    ]

    @Test(arguments: accepted)
    func accepts(_ c: Case) throws {
        let outcome = try sortLike.parse(c.argv)
        #expect(outcome == .arguments(ParsedArguments(values: c.values, positionals: c.positionals)))
    }

    @Test func accessors() throws {
        guard case .arguments(let p) = try sortLike.parse(["--tag", "a", "--json", "--tag", "b", "--locale", "x"])
        else {
            Issue.record("expected arguments")
            return
        }
        #expect(p.flag("--json") && !p.flag("--mode"))
        #expect(p.value("--locale") == "x" && p.value("--mode") == nil)
        #expect(p.values("--tag") == ["a", "b"] && p.values("--out").isEmpty)
    }

    /// argv → the usage error's message must contain every one of these pieces.
    static let rejected: [(argv: [String], pieces: [String])] = [
        (["--locale", "--json"], ["sort:", "option --locale needs a value L", "'--json' is an option"]),
        (["--locale"], ["sort: option --locale needs a value L", "contacts sort --help"]),
        (["--lcoale", "sv"], ["sort: unknown option '--lcoale'", "did you mean '--locale'", "contacts sort --help"]),
        (["--loc", "sv"], ["unknown option '--loc'", "did you mean '--locale'"]),
        (["--frobnicate"], ["sort: unknown option '--frobnicate'"]),
        (["-x"], ["sort: unknown option '-x'"]),
        (["--json=yes"], ["option --json takes no value"]),
        (["--mode", "fax"], ["--mode: expected email, messages or both, got 'fax'"]),
        (["--mode=fax"], ["--mode: expected email, messages or both, got 'fax'"]),
        (["a.txt", "b.txt"], ["sort: unexpected argument 'b.txt'"]),
        (["--", "a", "--json"], ["unexpected argument '--json'"]),
    ]

    @Test func rejects() {
        for (argv, pieces) in Self.rejected {
            do {
                let outcome = try sortLike.parse(argv)
                Issue.record("\(argv) parsed as \(outcome)")
            } catch {
                for piece in pieces {
                    #expect(error.message.contains(piece), "\(argv): \(error.message)")
                }
                #expect(!error.message.contains("\n"))
            }
        }
    }

    @Test func requiredOptionsAndArguments() throws {
        #expect(throws: UsageError.self) { try required.parse(["dir", "1"]) }
        do {
            _ = try required.parse(["--template", "x", "dir"])
            Issue.record("missing ID accepted")
        } catch {
            #expect(error.message == "outbox settle: missing ID (see 'contacts outbox settle --help')")
        }
        do {
            _ = try required.parse(["dir", "1"])
        } catch {
            #expect(error.message.contains("--template NAME is required"))
        }
        let ok = try required.parse(["d", "1", "2", "--template", "t", "3"])
        #expect(ok == .arguments(ParsedArguments(values: ["--template": ["t"]], positionals: ["d", "1", "2", "3"])))
    }

    @Test(arguments: [
        ["--help"], ["-h"], ["names.txt", "--help"], ["--json", "-h", "x"], ["--locale", "--help"],
        ["--frobnicate", "--help"], ["--help", "a", "b", "c"],
    ])
    func helpWhereAnOptionMayStand(_ argv: [String]) throws {
        #expect(try sortLike.parse(argv) == .help)
        // Required options and arguments do not stand in the way of help.
        #expect(try required.parse(argv.filter { $0.hasPrefix("-") && $0 != "--json" }) == .help)
    }

    @Test(arguments: [["--locale", "-h"], ["--", "--help"], ["--locale=--help"]])
    func helpAsAValueIsAValue(_ argv: [String]) throws {
        #expect(try sortLike.parse(argv) != .help)
    }

    @Test func closestOption() {
        #expect(sortLike.closestOption(to: "--jsn") == "--json")
        #expect(sortLike.closestOption(to: "--mdoe") == "--mode")
        #expect(sortLike.closestOption(to: "--hlep") == "--help")
        #expect(sortLike.closestOption(to: "--zzzzzzzz") == nil)
    }
}
