import Foundation
import Locales
import TestSupport
import Testing

@testable import StringsCatalog

/// A temporary folder with `<lang>.lproj/Localizable.strings` files written from a dictionary.
func makeCatalogFolder(_ files: [String: String]) throws -> URL {
    let dir = Scratch.path("catalog")
    for (path, text) in files {
        let url = dir.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    return dir
}

@Suite("Language matching")
struct LanguageMatchingTests {
    static let available = ["en", "en-GB", "es", "es-419", "pt", "pt-PT", "zh-Hans", "zh-Hant", "sr", "sr-Latn", "de"]

    @Test(arguments: [
        ("zh-HK", ["zh-Hant"]), ("zh-TW", ["zh-Hant"]), ("zh-SG", ["zh-Hans"]), ("zh-CN", ["zh-Hans"]),
        ("zh", ["zh-Hans"]),
        ("zh-Hant-HK", ["zh-Hant"]), ("pt-PT", ["pt-PT", "pt"]), ("pt-BR", ["pt"]), ("pt-AO", ["pt-PT", "pt"]),
        ("es-MX", ["es-419", "es"]), ("es-ES", ["es"]), ("en-AU", ["en-GB", "en"]), ("en-US", ["en"]),
        ("sr-Latn-RS", ["sr-Latn"]), ("sr", ["sr"]), ("de_DE.UTF-8", ["de"]), ("fr", []),
    ])
    func fallback(requested: String, expected: [String]) {
        #expect(LocalePolicy.match(requested: [requested], available: Self.available) == expected)
    }

    @Test func scriptNeverFallsBackToAnotherScript() {
        #expect(LocalePolicy.match(requested: ["sr-Latn"], available: ["sr", "en"]).isEmpty)
        #expect(LocalePolicy.match(requested: ["zh-HK"], available: ["zh-Hans", "en"]).isEmpty)
    }

    @Test(arguments: [
        ("English", "en"), ("zh_CN", "zh-CN"), ("es_MX", "es-MX"), ("German.lproj", "de"), ("iw", "he"),
        ("Base", "Base"),
        ("zh-hant-tw", "zh-Hant-TW"), ("pt_BR.UTF-8", "pt-BR"), ("es-419", "es-419"),
    ])
    func localizationNames(name: String, expected: String) {
        #expect(LocalePolicy.bcp47(fromLocalizationName: name) == expected)
    }

    @Test func legacyFoldersMatchModernRequests() {
        #expect(LocalePolicy.match(requested: ["zh-Hans"], available: ["zh_CN", "zh_TW"]) == ["zh_CN"])
        #expect(LocalePolicy.match(requested: ["zh-HK"], available: ["zh_CN", "zh_TW"]) == ["zh_TW"])
        #expect(LocalePolicy.match(requested: ["es-MX"], available: ["es_MX", "es"]) == ["es_MX", "es"])
    }

    @Test func environment() {
        let env = ["LANGUAGE": "fr:de", "LANG": "es_MX.UTF-8"]
        #expect(LocalePolicy.requestedLanguages(environment: env) == ["fr", "de", "es-MX"])
        #expect(LocalePolicy.requestedLanguages(environment: ["LANGUAGE": "fr", "LC_ALL": "C"]).isEmpty)
        #expect(
            LocalePolicy.requestedLanguages(environment: ["LC_MESSAGES": "pt_PT", "LANG": "en_US"]) == ["pt-PT"])
    }
}

@Suite("Catalog lookup")
struct CatalogLookupTests {
    static func folder() throws -> URL {
        try makeCatalogFolder([
            "English.lproj/Localizable.strings":
                "\"Hello\" = \"Hello\";\n\"Only English\" = \"English only\";\n\"Files %d\" = \"%d files\";\n",
            "de.lproj/Localizable.strings": "/* Greeting */\n\"Hello\" = \"Hallo\";\n",
            "es.lproj/Localizable.strings": "\"Hello\" = \"Hola\";\n",
            "es_MX.lproj/Localizable.strings": "\"Hello\" = \"Quiubo\";\n",
            "Base.lproj/Localizable.strings": "\"Base key\" = \"From base\";\n\"Hello\" = \"Base hello\";\n",
            "de.lproj/Localizable.stringsdict": """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>Hello</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
            <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>one</key><string>Hallo, eine Person</string><key>other</key><string>Hallo, %d Leute</string></dict></dict>
            </dict></plist>
            """,
            "Other.xcstrings": """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "Bye" : {
                  "localizations" : {
                    "de" : { "stringUnit" : { "state" : "translated", "value" : "Tschüss" } }
                  }
                }
              },
              "version" : "1.0"
            }
            """,
        ])
    }

    @Test func languagesAndChains() throws {
        let catalog = try Catalog(directory: Self.folder())
        #expect(catalog.languages == ["de", "en", "es", "es-MX"])
        #expect(catalog.resolveLanguages(for: ["es-MX"]) == ["es-MX", "es", "en"])
        #expect(catalog.resolveLanguages(for: ["es-AR"]) == ["es", "en"])
        #expect(catalog.resolveLanguages(for: ["fr"]) == ["en"])
        #expect(catalog.resolveLanguages(for: ["fr:de"]) == ["de", "en"])
        #expect(catalog.diagnostics.isEmpty)
    }

    @Test func perKeyFallbackAndBase() throws {
        var catalog = try Catalog(directory: Self.folder())
        #expect(catalog.string("Hello", locale: "es-MX") == "Quiubo")
        #expect(catalog.string("Hello", locale: "es-CO") == "Hola")
        #expect(catalog.string("Only English", locale: "es") == "English only")
        #expect(catalog.string("Base key", locale: "de") == "From base")
        #expect(catalog.string("Hello", locale: "en") == "Hello", "the development language's own file wins over Base")
        #expect(catalog.string("Missing", locale: "de") == nil)
        #expect(catalog.string("Bye", table: "Other", locale: "de-AT") == "Tschüss")
        #expect(catalog.string("Bye", table: "Other", locale: "fr") == "Bye")
        #expect(catalog.comment("Hello") == "Greeting")
        catalog.missingKeyBehavior = .noFallback
        #expect(catalog.string("Only English", locale: "es") == nil)
        catalog.missingKeyBehavior = .returnKey
        #expect(catalog.string("Missing", locale: "de") == "Missing")
    }

    @Test func stringsdictOverridesStrings() throws {
        let catalog = try Catalog(directory: Self.folder())
        #expect(try catalog.format("Hello", locale: "de", arguments: [1]) == "Hallo, eine Person")
        #expect(try catalog.format("Hello", locale: "de", arguments: [5]) == "Hallo, 5 Leute")
        #expect(catalog.pluralEntry("Hello", table: "Localizable", locale: "de") != nil)
        #expect(catalog.pluralEntry("Hello", table: "Localizable", locale: "es") == nil)
    }

    @Test func formatMismatchThrows() throws {
        let catalog = try Catalog(directory: Self.folder())
        #expect(try catalog.format("Files %d", locale: "en", arguments: [3]) == "3 files")
        #expect(throws: StringsCatalogError.self) { try catalog.format("Files %d", locale: "en", arguments: []) }
        #expect(throws: StringsCatalogError.self) { try catalog.format("Files %d", locale: "en", arguments: ["x"]) }
        #expect(throws: StringsCatalogError.self) { try catalog.format("Nope", locale: "en", arguments: []) }
    }

    @Test func unreadableFolderThrows() {
        #expect(throws: StringsCatalogError.self) {
            try Catalog(directory: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)"))
        }
    }
}

@Suite("printf formatting")
struct PrintfFormatTests {
    @Test(arguments: [
        ("%@ and %@", [CatalogArgument.string("a"), .string("b")], "a and b"),
        ("%2$@ has %1$d", [.int(3), .string("Ana")], "Ana has 3"),
        ("%d%% done", [.int(50)], "50% done"),
        ("%ld / %lld / %u", [.int(-4), .int(5), .uint(6)], "-4 / 5 / 6"),
        ("%.2f|%5d|%-4s|", [.double(3.14159), .int(42), .string("ab")], "3.14|   42|ab  |"),
        ("%s %c %x %05.1f", [.string("x"), .int(65), .int(255), .double(2.25)], "x A ff 002.2"),
        ("%@ %@", [.int(7), .double(2.5)], "7 2.5"),
    ])
    func formats(pattern: String, args: [CatalogArgument], expected: String) throws {
        #expect(try PrintfFormat.format(pattern, arguments: args) == expected)
    }

    @Test(arguments: [
        ("%d", [CatalogArgument.string("x")]), ("%f", [.int(1)]), ("%s", [.int(1)]), ("%@ %@", [.string("a")]),
        ("%3$@", [.string("a")]), ("%99999999d", [.int(1)]), ("50%", []), ("%n", [.int(1)]),
        ("%*d", [.int(1), .int(2)]), ("%#@x@", [.int(1)]),
    ])
    func mismatchesThrow(pattern: String, args: [CatalogArgument]) {
        #expect(throws: StringsCatalogError.self) { try PrintfFormat.format(pattern, arguments: args) }
    }

    @Test func argumentIndexes() throws {
        // CoreFoundation's numbering: the plain specifiers count on their own, from the first argument.
        let specs = try PrintfFormat.arguments(of: "%2$@ %1$d %@ %#@n@")
        #expect(specs.map(\.index) == [1, 0, 0, 1])
        #expect(specs.map(\.specifier.kind) == [.object, .signed, .object, .plural])
    }
}
