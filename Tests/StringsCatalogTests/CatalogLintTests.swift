import Foundation
import Testing

@testable import StringsCatalog

/// Findings of `lint` on String Catalogs and on folders as real projects lay them out.
@Suite("Catalog lint")
struct CatalogLintTests {
    static func unit(_ value: String) -> String {
        "{ \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"\(value)\" } }"
    }

    static func substitution(_ argNum: Int, _ forms: [(String, String)]) -> String {
        "{ \"argNum\" : \(argNum), \"formatSpecifier\" : \"lld\", \"variations\" : { \"plural\" : { "
            + forms.map { "\"\($0.0)\" : \(unit($0.1))" }.joined(separator: ", ") + " } } }"
    }

    static let catalog = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "Delete %lld Photos" : {
              "localizations" : {
                "en" : \(unit("Delete Photos")),
                "ru" : {
                  "stringUnit" : { "state" : "translated", "value" : "Удалить %#@photos@" },
                  "substitutions" : { "photos" : \(substitution(1, [("one", "%arg фото"), ("few", "%arg фото, %2$@"), ("many", "%arg фото"), ("other", "%arg фото")])) }
                }
              }
            },
            "folders.files" : {
              "localizations" : {
                "de" : {
                  "stringUnit" : { "state" : "translated", "value" : "%1$lld Ordner, %#@dateien@" },
                  "substitutions" : { "dateien" : \(substitution(2, [("one", "eine Datei"), ("other", "%arg Dateien")])) }
                },
                "en" : {
                  "stringUnit" : { "state" : "translated", "value" : "%#@files@ in %1$lld folders" },
                  "substitutions" : { "files" : \(substitution(2, [("one", "%arg file"), ("other", "%arg files")])) }
                },
                "ru" : \(unit("%lld папок"))
              }
            },
            "Hello %@" : {
              "localizations" : {
                "de" : \(unit("Hallo %d")),
                "en" : \(unit("Hello %@")),
                "ru" : \(unit("Привет"))
              }
            }
          },
          "version" : "1.0"
        }
        """

    @Test func substitutionsAreModelledAndFindingsNameKeyLanguageAndPlace() throws {
        let dir = try makeCatalogFolder(["Localizable.xcstrings": Self.catalog])
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try LocalizationFolder(directory: dir, displayRoot: "L")
        let formats = folder.lint().filter { $0.code.hasPrefix("format") }
        let messages = formats.map { "\($0.severity.rawValue) \($0.code) \($0.message)" }
        // The Russian translation consumes the key's %lld through a plural substitution although the
        // English text leaves it out, and the source's "files" substitution takes argument 2: both fine.
        #expect(!messages.contains { $0.contains("\"folders.files\" de") }, "\(messages)")
        #expect(!messages.contains { $0.contains("\"Delete %lld Photos\" ru:") }, "\(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "error format-mismatch \"Delete %lld Photos\" ru substitutions.photos.plural.few: "
                        + "uses argument 2 (object)")
            }, "\(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix("error format-mismatch \"Hello %@\" de: argument 1 is signed here but object")
            },
            "\(messages)")
        #expect(messages.contains { $0.hasPrefix("warning format-unused \"Hello %@\" ru: does not use argument 1") })
        // Russian drops the number of files: a warning, not an error.
        #expect(
            messages.contains { $0.hasPrefix("warning format-unused \"folders.files\" ru: does not use argument 2") })
        #expect(formats.filter { $0.severity == .error }.count == 2, "\(messages)")
        #expect(formats.allSatisfy { $0.file == "L/Localizable.xcstrings" && $0.line > 1 })
    }
}

@Suite(
    "Encodings CoreFoundation rejects",
    .enabled(if: plutilPath != nil, "plutil absent: CoreFoundation comparison not run"))
struct RejectedEncodingTests {
    @Test(arguments: [TextEncoding.utf16LE(bom: false), .utf16BE(bom: false)])
    func utf16WithoutBOMIsAnError(encoding: TextEncoding) throws {
        let bytes = encoding.encode("\"a\" = \"b\";\n\"Größe\" = \"Size\";\n")
        #expect(try plutilDictionary(bytes) == nil)
        let doc = StringsDocument(parsing: bytes, file: "de.lproj/Localizable.strings")
        let errors = doc.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.code) == ["encoding"])
        #expect(errors.first?.message.contains("without a byte order mark") == true)
        // With a BOM both read it.
        let withBOM: TextEncoding = encoding == .utf16LE(bom: false) ? .utf16LE(bom: true) : .utf16BE(bom: true)
        let good = withBOM.encode("\"a\" = \"b\";\n")
        #expect(try plutilDictionary(good) == ["a": "b"])
        #expect(StringsDocument(parsing: good).diagnostics.isEmpty)
    }
}

@Suite("stringsdict error positions")
struct StringsDictPositionTests {
    static func plist(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n  <key>a</key>\n  <dict>\n"
            + "    <key>NSStringLocalizedFormatKey</key>\n" + body
    }
    static let tail = "\n  </dict>\n</dict>\n</plist>\n"

    @Test(arguments: [
        (Array(plist("    <strin>x</string>" + tail).utf8), 7, 5),  // unknown tag
        (Array(plist("    <integer>x</integer>" + tail).utf8), 7, 14),  // bad character in <integer>
        (Array(plist("    <string>x &amp y</string>" + tail).utf8), 7, 15),  // bad entity
        (Array(plist("    <string>x</strong>" + tail).utf8), 7, 14),  // mismatched close tag
        (Array(plist("    <string>x</string>\n").utf8), 7, 23),  // unexpected end
        (Array(plist("    <string>x").utf8) + [0xE8] + Array(("</string>" + tail).utf8), 7, 14),  // not UTF-8
        (Array(plist("    <string>x</string>\n    <string>y</string>" + tail).utf8), 8, 5),  // non-key in dict
    ])
    func syntaxErrorsPointAtTheCulprit(bytes: [UInt8], line: Int, column: Int) {
        let doc = StringsDictDocument(parsing: Data(bytes), file: "de.lproj/Localizable.stringsdict")
        let syntax = doc.diagnostics.filter { $0.code == "syntax" }
        #expect(syntax.count == 1)
        #expect(syntax.first.map { [$0.line, $0.column] } == [line, column], "\(syntax)")
    }
}

@Suite("Table names that differ in case")
struct CaseClashTests {
    @Test func oneFindingNamesTheCauseInsteadOfAMissingFilePerLanguage() throws {
        var files = ["en.lproj/InfoPlist.strings": "\"CFBundleName\" = \"Contacts\";\n"]
        let languages = ["de", "fr", "it", "ja", "ru"]
        for l in languages { files["\(l).lproj/infoPlist.strings"] = "\"CFBundleName\" = \"Kontakte\";\n" }
        files["de.lproj/InfoPlist.strings"] = "\"CFBundleName\" = \"Kontakte\";\n"
        let dir = try makeCatalogFolder(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        let findings = try LocalizationFolder(directory: dir, displayRoot: "L").lint()
        #expect(!findings.contains { $0.code == "missing-file" }, "\(findings)")
        let clashes = findings.filter { $0.code == "case-mismatch" }
        #expect(clashes.count == 2, "\(clashes)")
        let across = try #require(clashes.first { $0.message.contains("4 languages") })
        #expect(across.file == "L/fr.lproj/infoPlist.strings")
        #expect(
            across.message.hasPrefix("infoPlist.strings (in 4 languages: fr, it, ja, ru) differs only in letter case"))
        #expect(across.message.contains("en's InfoPlist.strings"))
        #expect(
            clashes.contains {
                $0.file.hasPrefix("L/de.lproj/") && $0.message.contains("InfoPlist.strings and infoPlist.strings")
            })
    }
}

@Suite("Localization trees")
struct LocalizationTreeTests {
    @Test func filesAreWrittenBackWhereTheyWereFound() throws {
        let dir = try makeCatalogFolder([
            "App/English.lproj/Localizable.strings": "\"Open\" = \"Open\";\n\"Save\" = \"Save\";\n",
            "App/German.lproj/Localizable.strings": "\"Open\" = \"Öffnen\";\n",
            "Widget/en.lproj/Localizable.strings": "\"Close\" = \"Close\";\n",
            "Widget/de.lproj/Localizable.strings": "\"Close\" = \"Schließen\";\n",
            ".git/en.lproj/Localizable.strings": "\"Hidden\" = \"Hidden\";\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        var folder = try LocalizationFolder(directory: dir, displayRoot: "P")
        #expect(folder.strings["en"]?.keys.sorted() == ["App/Localizable", "Widget/Localizable"])
        #expect(folder.strings["de"]?.keys.sorted() == ["App/Localizable", "Widget/Localizable"])
        let report = folder.sync(prune: false)
        #expect(report.added["de"] == ["Save"])
        let written = try folder.save().map { $0.path.replacingOccurrences(of: dir.path + "/", with: "") }
        #expect(written == ["App/German.lproj/Localizable.strings"])
        let files = try FileManager.default.subpathsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".strings") }
        #expect(files.count == 5, "\(files)")
        let lint = folder.lint()
        #expect(lint.allSatisfy { !$0.file.contains(".git") })
        #expect(lint.contains { $0.file == "P/App/German.lproj/Localizable.strings" && $0.code == "needs-review" })
    }
}
