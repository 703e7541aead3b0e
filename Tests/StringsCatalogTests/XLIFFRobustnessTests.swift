import Foundation
import Testing

@testable import StringsCatalog

/// Damaged XLIFF files, odd keys and translations whose shape differs from the source.
@Suite("XLIFF robustness")
struct XLIFFRobustnessTests {
    /// Invalid UTF-8 in a name, entity or comment made Foundation's XML parser trap (killing this test
    /// process); each must now be a thrown error with the position of the bad byte.
    @Test(arguments: [
        ([0x3C, 0x78, 0x20, 0x61, 0xE8, 0x3D, 0x22, 0x31, 0x22, 0x2F, 0x3E], 1, 5),  // <x a\xE8="1"/>
        (Array("<xliff>\n<x><!-- ".utf8) + [0xE8] + Array(" --></x></xliff>".utf8), 2, 9),
        (Array("<xliff>\n\n  <x>&a".utf8) + [0xE8, 0xE8] + Array(";</x></xliff>".utf8), 3, 8),
        (Array("<é\u{1F600}".utf8) + [0xFF] + Array("/>".utf8), 1, 4),
        ([0xEF, 0xBB, 0xBF] + Array("<x".utf8) + [0xC3] + Array("/>".utf8), 1, 3),
    ])
    func invalidUTF8IsAnErrorWithPosition(bytes: [UInt8], line: Int, column: Int) {
        #expect {
            try XLIFF.parse(Data(bytes), file: "de.xliff")
        } throws: { error in
            guard case StringsCatalogError.malformed(let file, let l, let c, let message) = error else { return false }
            return file == "de.xliff" && l == line && c == column && message.contains("not valid UTF-8")
        }
    }

    @Test func otherEncodingsAreRead() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-16"?>
            <xliff version="1.2"><file original="a.strings" target-language="de"><body>
            <trans-unit id="Größe"><source>Size</source><target>Größe 😀</target></trans-unit>
            </body></file></xliff>
            """
        var utf16: [UInt8] = [0xFF, 0xFE]
        for u in xml.utf16 { utf16 += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        let files = try XLIFF.parse(Data(utf16), file: "de.xliff")
        #expect(files.first?.units.first?.target == "Größe 😀")
        let latin1 = xml.replacingOccurrences(of: "UTF-16", with: "ISO-8859-1")
            .replacingOccurrences(of: " 😀", with: "")
        let parsed = try XLIFF.parse(latin1.data(using: .isoLatin1)!, file: "de.xliff")
        #expect(parsed.first?.units.first?.id == "Größe")
        #expect(throws: StringsCatalogError.self) {
            try XLIFF.parse(Data(xml.replacingOccurrences(of: "UTF-16", with: "EBCDIC-X").utf8), file: "x.xliff")
        }
    }

    @Test func originalsMatchTablesExactlyOrByAUniqueSuffix() {
        let tables = ["Localizable", "App/Localizable", "App/InfoPlist", "Widget/InfoPlist", "Widget/Extra"]
        func t(_ original: String, _ ext: String = "strings") -> String? {
            XLIFF.table(forOriginal: original, ext: ext, among: tables)
        }
        #expect(t("en.lproj/Localizable.strings") == "Localizable")
        #expect(t("App/en.lproj/Localizable.strings") == "App/Localizable")
        #expect(t("MyProject/App/Base.lproj/InfoPlist.strings") == "App/InfoPlist")  // from a project root
        #expect(t("en.lproj/Extra.strings") == "Widget/Extra")  // a folder above the project
        #expect(t("Other/en.lproj/Localizable.strings") == "Localizable")
        #expect(t("en.lproj/InfoPlist.strings") == nil)  // App's or Widget's: not guessed
        #expect(t("App/en.lproj/Localizable.stringsdict", "strings") == nil)
        #expect(t("App/Localizable.xcstrings", "xcstrings") == "App/Localizable")
    }

    static let oddKeys = [
        "line\nbreak", "tab\there", "cr\rhere", "crlf\r\nend", "quote \" and ' both", "<b> & &amp; </b>",
        "non-BMP 😀 𝄞 \u{10FFFF}", "controls \u{1}\u{7}\u{1B}\u{7F}", " leading", "trailing ", " ", "  \n ",
        "back\\slash \\u{41} \\\\", "\u{FFFE}\u{FFFF}", "pipe|==|inside", "/a:dict/b:dict/:string", "&#10;",
    ]

    @Test func oddKeysRoundTripThroughExportAndImport() throws {
        let dir = try makeCatalogFolder([
            "de.lproj/Localizable.strings": "\"x\" = \"y\";\n", "en.lproj/Localizable.strings": "",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        var en = StringsDocument(file: "en.lproj/Localizable.strings")
        var cat = XCStringsDocument(sourceLanguage: "en", file: "Cat.xcstrings")
        en.setValue("x", forKey: "x")
        for key in Self.oddKeys {
            en.setValue("EN " + key, forKey: key)
            cat.setValue("EN " + key, forKey: key, language: "en")
        }
        try en.write(to: dir.appendingPathComponent("en.lproj/Localizable.strings"))
        try cat.write(to: dir.appendingPathComponent("Cat.xcstrings"))

        var folder = try LocalizationFolder(directory: dir)
        #expect(folder.strings["en"]?["Localizable"]?.keys.count == Self.oddKeys.count + 1)
        var files = XLIFF.files(folder, language: "de")
        for f in files.indices {
            for u in files[f].units.indices { files[f].units[u].target = "DE " + files[f].units[u].source }
        }
        let xml = XLIFF.document(files)
        let parsed = try XLIFF.parse(Data(xml.utf8), file: "de.xliff")
        #expect(parsed == files)
        let report = XLIFF.importFiles(parsed, into: &folder)
        #expect(report.problems == [])
        #expect(report.updated == 2 * Self.oddKeys.count + 1)
        _ = try folder.save()

        let again = try LocalizationFolder(directory: dir)
        let de = try #require(again.strings["de"]?["Localizable"])
        let catalog = try #require(again.catalogs["Cat"])
        for key in Self.oddKeys {
            #expect(de[key] == "DE EN " + key, "\(key.debugDescription)")
            #expect(catalog.entry(key)?.localizations["de"]?.value == "DE EN " + key, "\(key.debugDescription)")
        }
    }

    /// The source uses a plural variation and ignores the number in "one"; the Russian translation uses a
    /// plural substitution, the German one a substitution of another name.
    static let shapes = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "Delete %lld Photos" : {
              "localizations" : {
                "de" : {
                  "stringUnit" : { "state" : "translated", "value" : "%#@fotos@ löschen" },
                  "substitutions" : {
                    "fotos" : {
                      "argNum" : 1, "formatSpecifier" : "lld",
                      "variations" : { "plural" : {
                        "one" : { "stringUnit" : { "state" : "translated", "value" : "Dieses Foto" } },
                        "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg Fotos" } }
                      } }
                    }
                  }
                },
                "en" : {
                  "variations" : { "plural" : {
                    "one" : { "stringUnit" : { "state" : "translated", "value" : "Delete This Photo" } },
                    "other" : { "stringUnit" : { "state" : "translated", "value" : "Delete %lld Photos" } }
                  } }
                },
                "ru" : {
                  "stringUnit" : { "state" : "translated", "value" : "Удалить %#@photos@" },
                  "substitutions" : {
                    "photos" : {
                      "argNum" : 1, "formatSpecifier" : "lld",
                      "variations" : { "plural" : {
                        "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg фото" } },
                        "few" : { "stringUnit" : { "state" : "translated", "value" : "%arg фото (few)" } },
                        "many" : { "stringUnit" : { "state" : "translated", "value" : "%arg фото (many)" } },
                        "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg фото (other)" } }
                      } }
                    }
                  }
                }
              }
            },
            "%#@files@ copied" : {
              "localizations" : {
                "de" : {
                  "stringUnit" : { "state" : "translated", "value" : "%#@dateien@ kopiert" },
                  "substitutions" : {
                    "dateien" : {
                      "argNum" : 1, "formatSpecifier" : "lld",
                      "variations" : { "plural" : {
                        "one" : { "stringUnit" : { "state" : "translated", "value" : "Eine Datei" } },
                        "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg Dateien" } }
                      } }
                    }
                  }
                },
                "en" : {
                  "stringUnit" : { "state" : "translated", "value" : "%#@files@ copied" },
                  "substitutions" : {
                    "files" : {
                      "argNum" : 1, "formatSpecifier" : "lld",
                      "variations" : { "plural" : {
                        "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg file" } },
                        "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg files" } }
                      } }
                    }
                  }
                }
              }
            }
          },
          "version" : "1.0"
        }
        """

    @Test func unitsFollowTheTranslationsShape() throws {
        let dir = try makeCatalogFolder(["Shapes.xcstrings": Self.shapes])
        defer { try? FileManager.default.removeItem(at: dir) }
        var folder = try LocalizationFolder(directory: dir)
        let ru = XLIFF.files(folder, language: "ru")[0].units
        let key = "Delete %lld Photos"
        #expect(
            ru.filter { $0.id.hasPrefix(key) }.map(\.id) == [
                key, "\(key)|==|substitutions.photos.plural.one", "\(key)|==|substitutions.photos.plural.few",
                "\(key)|==|substitutions.photos.plural.many", "\(key)|==|substitutions.photos.plural.other",
            ])
        #expect(ru.first { $0.id == key }?.target == "Удалить %#@photos@")
        #expect(ru.first { $0.id == "\(key)|==|substitutions.photos.plural.one" }?.source == "Delete This Photo")
        #expect(ru.first { $0.id == "\(key)|==|substitutions.photos.plural.few" }?.target == "%arg фото (few)")
        // A language without a translation yet gets the source's shape.
        let fr = XLIFF.files(folder, language: "fr")[0].units.filter { $0.id.hasPrefix(key) }.map(\.id)
        #expect(fr == ["\(key)|==|plural.one", "\(key)|==|plural.many", "\(key)|==|plural.other"])

        var de = XLIFF.files(folder, language: "de")[0].units
        #expect(
            de.map(\.id) == [
                key, "\(key)|==|substitutions.fotos.plural.one", "\(key)|==|substitutions.fotos.plural.other",
                "%#@files@ copied", "%#@files@ copied|==|substitutions.dateien.plural.one",
                "%#@files@ copied|==|substitutions.dateien.plural.other",
            ])
        #expect(de[4].source == "%arg file" && de[4].target == "Eine Datei")
        for i in de.indices { de[i].target = (de[i].target ?? "") + " (neu)" }
        var file = XLIFF.files(folder, language: "de")[0]
        file.units = de
        // A unit of the source's shape that the translation does not have is refused, not added.
        file.units.append(
            XLIFFUnit(id: "\(key)|==|plural.one", source: "x", target: "y", state: nil, note: nil))
        let report = XLIFF.importFiles([file], into: &folder)
        #expect(report.updated == 6)
        #expect(report.problems.count == 1 && report.problems[0].contains("plural.one"))
        let cat = try #require(folder.catalogs["Shapes"])
        let loc = try #require(cat.entry(key)?.localizations["de"])
        #expect(loc.plural.isEmpty && loc.value == "%#@fotos@ löschen (neu)")
        #expect(loc.substitutions.keys.sorted() == ["fotos"])
        #expect(loc.substitutions["fotos"]?.plural["one"]?.value == "Dieses Foto (neu)")
        // A substitution form still "new" keeps the key out of the translated count.
        let ruStatus = folder.status().first { $0.language == "ru" }
        #expect(ruStatus?.translated == 1 && ruStatus?.missing == 1)
        var pending = cat
        let set = pending.setUnit(
            "x", forKey: key, language: "ru", path: ["substitutions", "photos", "plural", "few"], state: "new")
        #expect(set)
        folder.catalogs["Shapes"] = pending
        #expect(folder.status().first { $0.language == "ru" }?.untranslated == 1)
        let files = try #require(cat.entry("%#@files@ copied")?.localizations["de"])
        #expect(files.substitutions.keys.sorted() == ["dateien"])
        #expect(files.substitutions["dateien"]?.plural["other"]?.value == "%arg Dateien (neu)")
    }
}
