import Foundation
import Synchronization
import Testing

@testable import StringsCatalog

/// A fourth format is one conforming type added to a folder's formats: save, the XLIFF export and import,
/// the `.po` export and pseudolanguages all reach it without a change of their own.
@Suite struct LocalizationFormatTests {
    /// `KV/<lang>.kv` files of `key=value` lines: a format the package does not ship.
    final class KeyValueFormat: LocalizationFormat {
        let directory: URL
        /// language → key → value, in the files' order of keys.
        let tables: Mutex<[String: [(key: String, value: String)]]>

        init(directory: URL) throws {
            self.directory = directory
            var tables: [String: [(key: String, value: String)]] = [:]
            let folder = directory.appendingPathComponent("KV")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".kv") {
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                tables[String(name.dropLast(3))] = text.split(separator: "\n").map { line in
                    let parts = line.split(separator: "=", maxSplits: 1)
                    return (String(parts[0]), String(parts[1]))
                }
            }
            self.tables = Mutex(tables)
        }

        var fileExtension: String { "kv" }

        func url(_ language: String) -> URL { directory.appendingPathComponent("KV/\(language).kv") }

        func documents(in folder: LocalizationFolder) throws -> [(data: Data, url: URL)] {
            tables.withLock { tables in
                tables.map { language, pairs in
                    (Data(pairs.map { "\($0.key)=\($0.value)\n" }.joined().utf8), url(language))
                }
            }
        }

        func xliffFiles(_ folder: LocalizationFolder, language: String) -> [XLIFFFile] {
            tables.withLock { tables in
                let translated = Dictionary((tables[language] ?? []).map { ($0.key, $0.value) }) { a, _ in a }
                let units = (tables[folder.developmentLanguage] ?? []).map {
                    XLIFFUnit(id: $0.key, source: $0.value, target: translated[$0.key], state: nil, note: nil)
                }
                return [
                    XLIFFFile(
                        original: "KV/\(folder.developmentLanguage).kv", sourceLanguage: folder.developmentLanguage,
                        targetLanguage: language, units: units)
                ]
            }
        }

        func table(forOriginal original: String, in folder: LocalizationFolder) -> String? {
            original.hasPrefix("KV/") && original.hasSuffix(".kv") ? "KV" : nil
        }

        func importUnit(
            _ unit: XLIFFUnit, target: String, table: String, language: String,
            into folder: inout LocalizationFolder
        ) -> Bool? {
            tables.withLock { tables in
                guard tables[folder.developmentLanguage]?.contains(where: { $0.key == unit.id }) == true else {
                    return nil
                }
                var pairs = tables[language] ?? []
                if let i = pairs.firstIndex(where: { $0.key == unit.id }) {
                    if pairs[i].value == target { return false }
                    pairs[i].value = target
                } else {
                    pairs.append((unit.id, target))
                }
                tables[language] = pairs
                return true
            }
        }

        func status(_ folder: LocalizationFolder) -> [LanguageStatus] {
            tables.withLock { tables in
                let source = tables[folder.developmentLanguage] ?? []
                return tables.keys.sorted().map { language in
                    let have = Set((tables[language] ?? []).map(\.key))
                    let n = source.filter { have.contains($0.key) }.count
                    return LanguageStatus(
                        language: language, total: source.count, translated: n, missing: source.count - n)
                }
            }
        }

        func sync(_ folder: inout LocalizationFolder, prune: Bool, report: inout SyncReport) {
            tables.withLock { tables in
                let source = tables[folder.developmentLanguage] ?? []
                for language in tables.keys.sorted() where language != folder.developmentLanguage {
                    var pairs = tables[language] ?? []
                    for (key, value) in source where !pairs.contains(where: { $0.key == key }) {
                        pairs.append((key, value))
                        report.added[language, default: []].append(key)
                    }
                    if prune {
                        for key in pairs.map(\.key) where !source.contains(where: { $0.key == key }) {
                            report.removed[language, default: []].append(key)
                        }
                        pairs.removeAll { pair in !source.contains { $0.key == pair.key } }
                    }
                    tables[language] = pairs
                }
            }
        }

        func pseudolocalize(
            _ folder: inout LocalizationFolder, with pseudo: Pseudolocalizer, into language: String
        ) -> Int {
            tables.withLock { tables in
                let source = tables[folder.developmentLanguage] ?? []
                tables[language] = source.map { ($0.key, pseudo.transform($0.value)) }
                return source.count
            }
        }
    }

    func project() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kv-\(UUID().uuidString)")
        for (path, text) in [
            ("en.lproj/Localizable.strings", "\"Cancel\" = \"Cancel\";\n"),
            ("de.lproj/Localizable.strings", "\"Cancel\" = \"Abbrechen\";\n"),
            ("KV/en.kv", "greeting=Hello\nfarewell=Goodbye\n"),
            ("KV/de.kv", "greeting=Hallo\n"),
        ] {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return dir
    }

    @Test func aFourthFormatTakesPartInEveryTool() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(at: dir) }
        var folder = try LocalizationFolder(directory: dir)
        let kv = try KeyValueFormat(directory: dir)
        folder.formats.append(kv)

        // XLIFF export: the built-in table and the new format's file, its missing key without a target.
        let files = XLIFF.files(folder, language: "de")
        #expect(files.map(\.original) == ["en.lproj/Localizable.strings", "KV/en.kv"])
        let units = try #require(files.last?.units)
        #expect(units.map(\.id) == ["greeting", "farewell"])
        #expect(units.map(\.target) == ["Hallo", nil])

        // XLIFF import: the translated unit reaches the new format; save writes its file.
        var translated = try XLIFF.parse(Data(XLIFF.document(files).utf8), file: "de.xliff")
        translated[1].units[1].target = "Auf Wiedersehen"
        let report = XLIFF.importFiles(translated, into: &folder)
        #expect(report.problems.isEmpty)
        #expect(report.updated == 1)
        _ = try folder.save()
        let written = try String(contentsOf: dir.appendingPathComponent("KV/de.kv"), encoding: .utf8)
        #expect(written == "greeting=Hallo\nfarewell=Auf Wiedersehen\n")

        // .po export: the new format's table is a .po file of its own.
        let po = try #require(
            POExport.files(folder, languages: ["de"]).first { $0.path.hasPrefix("KV/") && $0.path.hasSuffix("/de.po") })
        #expect(po.document.entries.contains { $0.context == "farewell" && $0.msgstr == ["Auf Wiedersehen"] })

        // Pseudolanguage: counted per format.
        let pseudo = try folder.pseudolocalize(Pseudolocalizer(style: .bounded), into: "en-XA")
        #expect(pseudo.made["kv"] == 2)
        #expect(pseudo.strings == 1)
        #expect(kv.tables.withLock { $0["en-XA"]?.first?.value } == Pseudolocalizer(style: .bounded).transform("Hello"))
    }

    @Test func statusAndSyncReachAFourthFormat() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(at: dir) }
        var folder = try LocalizationFolder(directory: dir)
        let kv = try KeyValueFormat(directory: dir)
        folder.formats.append(kv)

        // status: the new format's keys are added to each language's row (1 .strings key + 2 .kv keys).
        let rows = Dictionary(uniqueKeysWithValues: folder.status().map { ($0.language, $0) })
        #expect(rows["de"] == LanguageStatus(language: "de", total: 3, translated: 2, missing: 1))
        #expect(rows["en"] == LanguageStatus(language: "en", total: 3, translated: 3))

        // sync: the missing key is copied into the new format's file, which save writes.
        let report = folder.sync(prune: true)
        #expect(report.added == ["de": ["farewell"]])
        _ = try folder.save()
        let written = try String(contentsOf: dir.appendingPathComponent("KV/de.kv"), encoding: .utf8)
        #expect(written == "greeting=Hallo\nfarewell=Goodbye\n")
        #expect(folder.status().first { $0.language == "de" }?.missing == 0)
    }

    @Test func translatorFilesAreWrittenByTheLibrary() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try LocalizationFolder(directory: dir)
        let out = dir.appendingPathComponent("out")
        let xliff = try XLIFF.write(folder, language: "de", into: out)
        #expect(xliff.url == out.appendingPathComponent("de.xliff"))
        #expect(xliff.entries == 1 && xliff.untranslated == 0)
        #expect(try XLIFF.parse(Data(contentsOf: xliff.url), file: "de.xliff") == XLIFF.files(folder, language: "de"))
        let bundle = try XLIFF.write(folder, language: "de", into: out, bundle: true)
        #expect(bundle.url.lastPathComponent == "de.xcloc")
        #expect(try XCLocBundle.read(bundle.url) == XLIFF.files(folder, language: "de"))
        let po = try POExport.write(folder, into: out.appendingPathComponent("po"))
        #expect(po.map { $0.url.lastPathComponent } == ["Localizable.pot", "de.po"])
        #expect(po.map(\.entries) == [1, 1])
        #expect(po.map(\.untranslated) == [1, 0])
        for file in po { #expect(FileManager.default.fileExists(atPath: file.url.path)) }
    }
}
