import Foundation

/// The generated project of `Benchmarks lint`: an English source and 20 translations written the way each
/// language writes them (its plural categories, `。` `؟` `;` `।` endings, placeholders kept), with faults
/// planted at known rates so that the findings beyond them are the checks' false ones.
enum LintBenchProject {
    /// Language, its question mark, its full stop, its ICU plural categories (CLDR).
    static let languages: [(tag: String, question: String, stop: String, plural: [String])] = [
        ("de", "?", ".", ["one", "other"]), ("fr", " ?", ".", ["one", "many", "other"]),
        ("es", "?", ".", ["one", "many", "other"]), ("ja", "？", "。", ["other"]),
        ("ru", "?", ".", ["one", "few", "many", "other"]),
        ("ar", "؟", ".", ["zero", "one", "two", "few", "many", "other"]),
        ("el", ";", ".", ["one", "other"]), ("pl", "?", ".", ["one", "few", "many", "other"]),
        ("zh-Hans", "？", "。", ["other"]), ("ko", "?", ".", ["other"]), ("pt-BR", "?", ".", ["one", "many", "other"]),
        ("it", "?", ".", ["one", "many", "other"]), ("nl", "?", ".", ["one", "other"]),
        ("sv", "?", ".", ["one", "other"]), ("tr", "?", ".", ["one", "other"]),
        ("uk", "?", ".", ["one", "few", "many", "other"]), ("he", "?", ".", ["one", "two", "other"]),
        ("hi", "?", "।", ["one", "other"]), ("cs", "?", ".", ["one", "few", "many", "other"]),
        ("fi", "?", ".", ["one", "other"]),
    ]

    /// The (source, translation) of entry `i` in a language, and the check a planted fault trips (if any).
    static func entry(_ i: Int, _ l: (tag: String, question: String, stop: String, plural: [String])) -> (
        key: String, source: String, translation: String, fault: String?
    ) {
        let w = "[\(l.tag)]"
        var key = "key.\(i)"
        var source: String
        var translation: String
        switch i % 10 {
        case 0:
            source = "%1$@ sent %2$ld files to \(i) people."
            translation = "\(w) %2$ld \(i) %1$@\(l.stop)"
        case 1:
            source = "Hello {{name}}, welcome back to list \(i)!"
            translation = "\(w) {{name}} \(i)!"
        case 2:
            source = "{count, plural, one {# photo in album \(i)} other {# photos in album \(i)}}"
            translation = "{count, plural, " + l.plural.map { "\($0) {# \(w) \(i)}" }.joined(separator: " ") + "}"
        case 3:
            source = "Tap <b>Save</b> to keep change \(i)."
            translation = "\(w) <b>\(i)</b>\(l.stop)"
        case 4:
            source = "See https://example.org/help/\(i) for details."
            translation = "\(w) https://example.org/help/\(i)\(l.stop)"
        case 5:
            source = "Delete \(i) items?"
            translation = "\(w) \(i)\(l.question)"
        case 6:
            key = "count.\(i)_mf2"
            source = ".input {$n :integer} .match $n one {{{$n} file of \(i)}} * {{{$n} files of \(i)}}"
            translation = ".input {$n :integer} .match $n one {{{$n} \(w) \(i)}} * {{{$n} \(w) \(i)}}"
        case 7:
            source = "Name \(i): "
            translation = "\(w) \(i): "
        default:
            source = "Item number \(i) was saved."
            translation = "\(w) \(i)\(l.stop)"
        }
        // Faults, each at its own rate: a lost placeholder, a double space, a lost ending, an untranslated value.
        var fault: String?
        if i % 101 == 1 && i % 10 == 1 {
            translation = translation.replacingOccurrences(of: "{{name}}", with: "{{nom}}")
            fault = "placeholders"
        } else if i % 103 == 8 && i % 10 != 6 {
            translation = translation.replacingOccurrences(of: "] ", with: "]  ")
            fault = "double-space"
        } else if i % 107 == 9 && [0, 3, 4, 8, 9].contains(i % 10) {
            translation = String(translation.dropLast(l.stop.count))
            fault = "punctuation"
        } else if i % 109 == 3 && i % 10 != 2 {
            translation = source
            fault = "same-as-source"
        }
        return (key, source, translation, fault)
    }

    static func quote(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Writes about `bytes` bytes of `.strings` files; returns the planted faults per check.
    static func write(_ dir: URL, bytes: Int) throws -> [String: Int] {
        // One entry is about 48 bytes in each of 21 files.
        let entries = max(100, bytes / (48 * (languages.count + 1)))
        var planted: [String: Int] = [:]
        var en = "/* Generated lint benchmark table */\n"
        for i in 0..<entries {
            let e = entry(i, languages[0])
            en += "\(quote(e.key)) = \(quote(e.source));\n"
        }
        try write(en, to: dir.appendingPathComponent("en.lproj/Localizable.strings"))
        for l in languages {
            var text = ""
            text.reserveCapacity(entries * 64)
            for i in 0..<entries {
                let e = entry(i, l)
                text += "\(quote(e.key)) = \(quote(e.translation));\n"
                if let fault = e.fault { planted[fault, default: 0] += 1 }
            }
            try write(text, to: dir.appendingPathComponent("\(l.tag).lproj/Localizable.strings"))
        }
        return planted
    }

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}
