import ArgumentModel
import Collation
import Foundation

/// Reads one UTF-8 name per line (LF or CRLF, optional BOM, blank lines skipped). Lines that are not
/// valid UTF-8 are reported on stderr with their line number and skipped; the other names are kept.
func readNameLines(_ path: String, command: String) throws -> [String] {
    let data = try readInput(path, command: command)
    let file = path == "-" ? "<stdin>" : path
    var names: [String] = []
    var bytes = [UInt8](data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    var lineNumber = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        lineNumber += 1
        var slice = line
        if slice.last == 0x0D { slice = slice.dropLast() }
        if slice.isEmpty { continue }
        guard let name = String(validating: slice, as: UTF8.self) else {
            printError("\(CollationError.invalidUTF8(file: file, line: lineNumber))")
            continue
        }
        if name.allSatisfy(\.isWhitespace) { continue }
        names.append(name)
    }
    return names
}

func openCollation(_ locales: [String]) throws -> LocalizedCollation {
    do {
        return try LocalizedCollation(locales: locales)
    } catch {
        throw CLIError.usage("cannot use locale '\(locales.joined(separator: ","))': \(error)")
    }
}

enum SortCommand: Command {
    static let name = "sort"
    static let summary = "Print names in a locale's collation order"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Reads one UTF-8 name per line from FILE (or stdin for '-' or no FILE) and prints the names in the
            collation order of locale L (BCP 47, default: LANGUAGE/LC_ALL/LC_MESSAGES/LANG, else en). L may be
            a list (en,zh-Hans): the first sorts, a Chinese one reads Han names as Pinyin among the Latin ones.
            Lines that are not valid UTF-8 are reported on stderr with their line number and skipped.
            """,
        options: [
            .option("--locale", value: "L", help: "BCP 47 locale of the order, or a list (en,zh-Hans)"),
            .flag("--json", help: "a JSON array of the names in order"),
        ],
        arguments: [ArgumentSpec("FILE|-", help: "the names, one per line (default: stdin)", completion: .file)],
        examples: [
            "contacts sort --locale sv names.txt      # Å Ä Ö after Z",
            #"printf 'Ärger\nAdam\nZorn\n' | contacts sort --locale de"#,
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let locales = commandLocales(try args.option("--locale"))
        let json = args.flag("--json")
        let paths = try args.positionals(max: 1, names: "at most one FILE")
        let names = try readNameLines(paths.first ?? "-", command: name)
        let collation = try openCollation(locales)
        var out = Output()
        let sorted = collation.sorted(names)
        if json {
            out.line(try jsonString(sorted))
        } else {
            for n in sorted { out.line(n) }
        }
        out.flush()
        return .ok
    }
}

enum SectionsCommand: Command {
    static let name = "sections"
    static let summary = "Print names grouped into a locale's index sections"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Reads one UTF-8 name per line and prints the non-empty sections in index order, '#' last, each
            sorted by locale L's collation. Sections come from ICU's AlphabeticIndex for L plus the letters of
            every major script (Latin, Greek, Cyrillic, Hebrew, Arabic, Thai, Hangul, kana); digits, symbols,
            emoji and scripts without index letters go to '#'. L may be a list (en,zh-Hans): the first sorts,
            the others add their letters and readings (a Chinese one files Han names under their Pinyin
            letter, a Japanese one files kanji names without a reading under 他).

            Without --json: the index bar, then each section with its names.
            """,
        options: [
            .option(
                "--locale", value: "L",
                help: "BCP 47 locale, or a list (en,zh-Hans) (default: LANGUAGE/LC_ALL/LC_MESSAGES/LANG, else en)"),
            .flag("--json", help: #"[{"title": String, "items": [String]}] for the non-empty sections"#),
        ],
        arguments: [ArgumentSpec("FILE|-", help: "the names, one per line (default: stdin)", completion: .file)],
        examples: ["contacts sections --locale ja names.txt", "contacts sections --locale zh-Hans --json names.txt"])

    struct JSONSection: Encodable {
        var title: String
        var items: [String]
    }

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let locales = commandLocales(try args.option("--locale"))
        let json = args.flag("--json")
        let paths = try args.positionals(max: 1, names: "at most one FILE")
        let names = try readNameLines(paths.first ?? "-", command: name)
        let collation = try openCollation(locales)
        let sections = collation.sections(names)
        var out = Output()
        if json {
            out.line(try jsonString(sections.map { JSONSection(title: $0.title, items: $0.items) }))
        } else {
            out.line("Index: " + collation.indexTitles.joined(separator: " "))
            for section in sections {
                out.line()
                out.line("\(section.title) (\(section.items.count))")
                for item in section.items { out.line("  " + item) }
            }
        }
        out.flush()
        return .ok
    }
}
