import Foundation
import ICUKit
import Locales
import Testing

@testable import StringsCatalog

/// A small project holding every case a translator's round trip meets (case-variant and deprecated-code
/// folders, a table whose translations all equal the source, a plural variable the translation renamed, a
/// deliberately empty form, mixed per-form states, a renamed substitution without `argNum`, the empty key):
/// export → import changes no byte, an edit changes exactly that value, a fresh import writes what was there.
@Suite struct TranslatorRoundTripTests {
    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(body)</dict>
        </plist>

        """
    }

    static func pluralEntry(_ key: String, variable: String, forms: [(String, String)]) -> String {
        var out = "\t<key>\(key)</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n"
        out += "\t\t<string>%#@\(variable)@</string>\n\t\t<key>\(variable)</key>\n\t\t<dict>\n"
        out += "\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n"
        out += "\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n"
        for (c, f) in forms { out += "\t\t\t<key>\(c)</key>\n\t\t\t<string>\(f)</string>\n" }
        return out + "\t\t</dict>\n\t</dict>\n"
    }

    static let catalog = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "" : {
              "localizations" : {
                "de" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "Leer"
                  }
                },
                "en" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "Empty"
                  }
                }
              }
            },
            "%lld items" : {
              "localizations" : {
                "de" : {
                  "variations" : {
                    "plural" : {
                      "one" : {
                        "stringUnit" : {
                          "state" : "translated",
                          "value" : "%lld Artikel"
                        }
                      },
                      "other" : {
                        "stringUnit" : {
                          "state" : "needs_review",
                          "value" : "%lld Artikel (viele)"
                        }
                      }
                    }
                  }
                },
                "en" : {
                  "variations" : {
                    "plural" : {
                      "one" : {
                        "stringUnit" : {
                          "state" : "translated",
                          "value" : "%lld item"
                        }
                      },
                      "other" : {
                        "stringUnit" : {
                          "state" : "translated",
                          "value" : "%lld items"
                        }
                      }
                    }
                  }
                }
              }
            },
            "Photos %lld" : {
              "localizations" : {
                "de" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "%#@fotos@"
                  },
                  "substitutions" : {
                    "fotos" : {
                      "variations" : {
                        "plural" : {
                          "one" : {
                            "stringUnit" : {
                              "state" : "translated",
                              "value" : "%arg Foto"
                            }
                          },
                          "other" : {
                            "stringUnit" : {
                              "state" : "translated",
                              "value" : "%arg Fotos"
                            }
                          }
                        }
                      }
                    }
                  }
                },
                "en" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "%#@photos@"
                  },
                  "substitutions" : {
                    "photos" : {
                      "argNum" : 1,
                      "formatSpecifier" : "lld",
                      "variations" : {
                        "plural" : {
                          "one" : {
                            "stringUnit" : {
                              "state" : "translated",
                              "value" : "%arg photo"
                            }
                          },
                          "other" : {
                            "stringUnit" : {
                              "state" : "translated",
                              "value" : "%arg photos"
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            },
            "%lld photos in %lld albums" : {
              "localizations" : {
                "de" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "%#@fotos@ in %#@alben@"
                  },
                  "substitutions" : {
                    "alben" : {
                      "variations" : {
                        "plural" : {
                          "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg Album" } },
                          "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg Alben" } }
                        }
                      }
                    },
                    "fotos" : {
                      "variations" : {
                        "plural" : {
                          "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg Foto" } },
                          "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg Fotos" } }
                        }
                      }
                    }
                  }
                },
                "en" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "%#@photos@ in %#@albums@"
                  },
                  "substitutions" : {
                    "albums" : {
                      "argNum" : 2,
                      "formatSpecifier" : "@",
                      "variations" : {
                        "plural" : {
                          "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg album" } },
                          "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg albums" } }
                        }
                      }
                    },
                    "photos" : {
                      "argNum" : 1,
                      "formatSpecifier" : "lld",
                      "variations" : {
                        "plural" : {
                          "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg photo" } },
                          "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg photos" } }
                        }
                      }
                    }
                  }
                }
              }
            }
          },
          "version" : "1.0"
        }

        """

    /// The project: `en`, `de`, an all-equal `en-GB`, and folders spelt `zh-hans`, `pt-br`, `sr-el`, `tl`.
    static func makeProject() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rt-cases-\(UUID().uuidString)")
        func write(_ path: String, _ text: String) throws {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write(
            "en.lproj/Localizable.strings",
            "/* Greeting */\n\"hello\" = \"Hello\";\n\n/* The empty key */\n\"\" = \"Nothing\";\n\"brand\" = \"Contacts\";\n"
        )
        try write(
            "en.lproj/Localizable.stringsdict",
            plist(pluralEntry("files", variable: "v0", forms: [("one", "%d file"), ("other", "%d files")])))
        try write(
            "de.lproj/Localizable.strings", "\"hello\" = \"Hallo\";\n\"\" = \"Nichts\";\n\"brand\" = \"Kontakte\";\n")
        try write(
            "de.lproj/Localizable.stringsdict",
            plist(
                pluralEntry(
                    "files", variable: "v1", forms: [("zero", ""), ("one", "%d Datei"), ("other", "%d Dateien")])))
        try write(
            "en-GB.lproj/Localizable.strings",
            "\"hello\" = \"Hello\";\n\"\" = \"Nothing\";\n\"brand\" = \"Contacts\";\n")
        for (folder, hello) in [("zh-hans", "你好"), ("pt-br", "Olá"), ("sr-el", "Zdravo"), ("tl", "Kumusta")] {
            try write("\(folder).lproj/Localizable.strings", "\"hello\" = \"\(hello)\";\n")
        }
        try write("Shop.xcstrings", catalog)
        return dir
    }

    static func snapshot(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let base = dir.standardizedFileURL.path
        for case let url as URL in FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)! {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue else {
                continue
            }
            out[String(url.standardizedFileURL.path.dropFirst(base.count + 1))] = try Data(contentsOf: url)
        }
        return out
    }

    /// Exports every language as XLIFF and imports it back unchanged.
    static func xliffRoundTrip(_ dir: URL) throws -> XLIFF.ImportReport {
        var folder = try LocalizationFolder(directory: dir)
        var total = XLIFF.ImportReport()
        for language in folder.allLanguages where language != folder.developmentLanguage {
            let text = XLIFF.export(folder, language: language)
            let files = try XLIFF.parse(Data(text.utf8), file: "\(language).xliff")
            let report = XLIFF.importFiles(files, into: &folder)
            total.updated += report.updated
            total.problems += report.problems
        }
        _ = try folder.save()
        return total
    }

    /// Exports every language as `.po` and imports it back unchanged.
    static func poRoundTrip(_ dir: URL) throws -> XLIFF.ImportReport {
        var folder = try LocalizationFolder(directory: dir)
        var total = XLIFF.ImportReport()
        for (path, po) in POExport.files(folder) where path.hasSuffix(".po") {
            let report = POImport.apply(POFile(parsing: po.text(), file: path), file: path, into: &folder)
            total.updated += report.updated
            total.problems += report.problems
        }
        _ = try folder.save()
        return total
    }

    @Test func exportImportOfEveryCaseChangesNoByte() throws {
        let dir = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Self.snapshot(dir)
        let x = try Self.xliffRoundTrip(dir)
        #expect(x.problems.isEmpty, "\(x.problems)")
        #expect(x.updated == 0)
        #expect(try Self.snapshot(dir) == before)
        let p = try Self.poRoundTrip(dir)
        #expect(p.problems.isEmpty, "\(p.problems)")
        #expect(p.updated == 0)
        let after = try Self.snapshot(dir)
        for (path, data) in before where after[path] != data {
            Issue.record("\(path) changed:\n\(String(decoding: after[path] ?? Data(), as: UTF8.self))")
        }
        #expect(Set(after.keys) == Set(before.keys))
    }

    @Test func anEditChangesExactlyThatValue() throws {
        let dir = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Self.snapshot(dir)
        var folder = try LocalizationFolder(directory: dir)
        var text = XLIFF.export(folder, language: "de")
        text = text.replacingOccurrences(
            of: "<target state=\"translated\">%d Dateien</target>",
            with: "<target state=\"translated\">%d Akten</target>")
        let report = XLIFF.importFiles(try XLIFF.parse(Data(text.utf8), file: "de.xliff"), into: &folder)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.updated == 1)
        _ = try folder.save()
        let after = try Self.snapshot(dir)
        let path = "de.lproj/Localizable.stringsdict"
        for (p, data) in before where p != path { #expect(after[p] == data, "\(p)") }
        let expected = String(decoding: before[path]!, as: UTF8.self)
            .replacingOccurrences(of: "%d Dateien", with: "%d Akten")
        #expect(String(decoding: after[path]!, as: UTF8.self) == expected)
    }

    /// Imports every language's export into a copy of the project without that language's files.
    static func freshImport(_ dir: URL, language: String, remove paths: [String]) throws -> LocalizationFolder {
        let folder = try LocalizationFolder(directory: dir)
        let xliff = XLIFF.export(folder, language: language)
        for p in paths { try FileManager.default.removeItem(at: dir.appendingPathComponent(p)) }
        var fresh = try LocalizationFolder(directory: dir)
        let report = XLIFF.importFiles(try XLIFF.parse(Data(xliff.utf8), file: "\(language).xliff"), into: &fresh)
        #expect(report.problems.isEmpty, "\(report.problems)")
        _ = try fresh.save()
        return try LocalizationFolder(directory: dir)
    }

    @Test func aTableEqualToTheSourceIsWrittenOnImport() throws {
        let dir = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: dir) }
        let back = try Self.freshImport(dir, language: "en-GB", remove: ["en-GB.lproj"])
        #expect(
            back.strings["en-GB"]?["Localizable"]?.dictionary == ["hello": "Hello", "": "Nothing", "brand": "Contacts"])
    }

    @Test func aRenamedPluralVariableAndAnEmptyFormSurviveAFreshImport() throws {
        let dir = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: dir) }
        let back = try Self.freshImport(dir, language: "de", remove: ["de.lproj/Localizable.stringsdict"])
        let entry = try #require(back.stringsDicts["de"]?["Localizable"]?.entries["files"])
        #expect(entry.formatKey == "%#@v1@")
        #expect(entry.variables.keys.sorted() == ["v1"])
        #expect(entry.variables["v1"]?.forms == ["zero": "", "one": "%d Datei", "other": "%d Dateien"])
        #expect(try entry.format(locale: "de", arguments: [.int(3)]) == "3 Dateien")
    }

    @Test func existingFolderSpellingsAreKept() throws {
        let dir = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: dir) }
        var folder = try LocalizationFolder(directory: dir)
        #expect(Set(folder.languages).isSuperset(of: ["zh-Hans", "pt-BR", "sr-EL", "tl"]))
        for language in ["zh-Hans", "pt-BR", "sr-EL", "tl"] {
            var text = XLIFF.export(folder, language: language)
            #expect(text.contains("target-language=\"\(language)\""))
            text = text.replacingOccurrences(
                of: "<source>Contacts</source>",
                with: "<source>Contacts</source>\n<target>Kontakte-\(language)</target>")
            let report = XLIFF.importFiles(try XLIFF.parse(Data(text.utf8), file: "x.xliff"), into: &folder)
            #expect(report.problems.isEmpty && report.updated == 1, "\(language): \(report)")
        }
        let po = POExport.files(folder).map(\.path)
        #expect(po.contains("Localizable/tl.po") && !po.contains("Localizable/fil.po"))
        _ = try folder.save()
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(
            names == [
                "Shop.xcstrings", "de.lproj", "en-GB.lproj", "en.lproj", "pt-br.lproj", "sr-el.lproj", "tl.lproj",
                "zh-hans.lproj",
            ])
        let tl = try String(contentsOf: dir.appendingPathComponent("tl.lproj/Localizable.strings"), encoding: .utf8)
        #expect(tl.contains("\"brand\" = \"Kontakte-tl\";"))
    }

    @Test func theEmptyKeyIsExportedAndImported() throws {
        let dir = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: dir) }
        var folder = try LocalizationFolder(directory: dir)
        let units = XLIFF.files(folder, language: "de").flatMap(\.units)
        #expect(units.filter { $0.id == "" }.map(\.target) == ["Nichts", "Leer"])
        let de = try #require(POExport.files(folder).first { $0.path == "Shop/de.po" }?.document)
        #expect(de.entries.contains { $0.context == "" && $0.msgstr == ["Leer"] })
        var text = de.text().replacingOccurrences(of: "msgstr \"Leer\"", with: "msgstr \"Nichts hier\"")
        text = text.replacingOccurrences(of: "\n\n\n", with: "\n\n")
        let report = POImport.apply(POFile(parsing: text, file: "Shop/de.po"), file: "Shop/de.po", into: &folder)
        #expect(report.problems.isEmpty && report.updated == 1, "\(report)")
        #expect(folder.catalogs["Shop"]?.value("", language: "de") == "Nichts hier")
    }

    @Test func aWellFormedTagWithoutICUDataWorksEverywhere() throws {
        for (given, tag) in [("azb", "azb"), ("bto", "bto"), ("skr-arab", "skr-Arab"), ("skr_Arab", "skr-Arab")] {
            #expect(try LocalePolicy.validatedLocale(given) == tag)
        }
        #expect(throws: LocaleError.self) { try LocalePolicy.validatedLocale("xx") }
        let dir = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (folder, hello) in [("azb", "سلام"), ("bto", "Marhay"), ("skr-Arab", "سلام!")] {
            let url = dir.appendingPathComponent("\(folder).lproj/Localizable.strings")
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("\"hello\" = \"\(hello)\";\n".utf8).write(to: url)
        }
        let catalog = try Catalog(directory: dir)
        #expect(catalog.string("hello", locale: "azb") == "سلام")
        #expect(catalog.string("hello", locale: "bto") == "Marhay")
        #expect(catalog.string("hello", locale: "skr-arab") == "سلام!")
        #expect(catalog.string("brand", locale: "bto") == "Contacts")
        #expect(catalog.string("hello", locale: "fil") == "Kumusta")
    }

    @Test func accentedPseudolocalizationKeepsAddresses() {
        let accented = Pseudolocalizer(style: .accented)
        #expect(
            accented.transform("See [the guide](https://example.com/Guide?a=b) or https://example.com/Help.")
                == "Šéé [ţĥé ĝûîðé](https://example.com/Guide?a=b) öŕ https://example.com/Help.")
        #expect(
            accented.transform("Mail mailto:help@example.com, www.example.com")
                == "Ṁåîļ mailto:help@example.com, www.example.com")
        #expect(Pseudolocalizer(style: .double).transform("at https://a.example/x") == "at at https://a.example/x")
    }

    @Test func everyExportedPOPassesMsgfmt() throws {
        let dir = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try LocalizationFolder(directory: dir)
        let de = try #require(POExport.files(folder).first { $0.path == "Shop/de.po" }?.document)
        let alben = try #require(de.entries.first { $0.context == "%lld photos in %lld albums|==|substitutions.alben" })
        #expect(alben.msgid == "%arg album" && alben.msgidPlural == "%arg albums")
        for (path, po) in POExport.files(folder) {
            let (status, messages) = try POExportTests().msgfmtCheck(po.text(), name: path)
            #expect(status == 0, "\(path): \(messages)\n\(po.text())")
        }
    }

    @Test func pluralFormsFollowICUForLanguagesTheTableLacks() throws {
        for language in ["an", "kmr"] {
            let forms = PluralForms(language: language)
            #expect(forms.categories == ["one", "other"], "\(language)")
            #expect(forms.language == language)
            let rules = try PluralRules(locale: language == "kmr" ? "ku" : language)  // CLDR's alias
            #expect(PluralForms.probe.allSatisfy { forms.category(for: $0) == rules.category(for: Int($0)).rawValue })
        }
        #expect(PluralForms(language: "tlh").language == "und")
    }
}
