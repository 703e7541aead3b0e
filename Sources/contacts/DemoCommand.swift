import Collation
import Foundation

enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "Show the library at work on built-in sample data"
    static let help = """
        Usage: contacts demo [--locale L ...]

        Sections a built-in multilingual list of names in several locales (default: en, sv, ja, zh-Hans)
        and prints each locale's index bar and sections.

        Example:
          contacts demo --locale ko --locale zh-Hant
        """

    /// A multilingual list of fictional names: diacritics, Cyrillic, Greek, Arabic, Hebrew, Han, kana,
    /// Hangul, Thai, digits and emoji.
    static let sampleNames = [
        "Anna Berg", "Åsa Lindqvist", "Örjan Ek", "Ärla Nyström", "Zoë Dubois", "Émile Roux", "Jürgen Müller",
        "Ñuria Núñez", "Łukasz Nowak", "Felipe Baytelman", "Bruno Finstein", "Hélène Dupont", "Борис Иванов",
        "Анна Петрова", "Αλέξανδρος Παππάς", "أحمد منصور", "ليلى حداد", "דוד כהן", "张伟", "王芳", "李娜", "陳靜",
        "さとう はなこ", "やまだ たろう", "カトウ ケン", "이상일", "김민준", "박서연", "สมชาย ใจดี", "42 Club", "😀 Fan Club",
    ]

    static func run(_ args: inout Arguments) throws -> ExitCode {
        var locales = try args.options("--locale")
        _ = try args.positionals(max: 0, names: "no arguments")
        if locales.isEmpty { locales = ["en", "sv", "ja", "zh-Hans"] }
        var out = Output()
        for locale in locales {
            let collation = try openCollation(locale)
            out.line("== \(locale)")
            out.line("Index: " + collation.indexTitles.joined(separator: " "))
            for section in collation.sections(Self.sampleNames) {
                out.line("  \(section.title): " + section.items.joined(separator: ", "))
            }
            out.line()
        }
        out.flush()
        return .ok
    }
}
