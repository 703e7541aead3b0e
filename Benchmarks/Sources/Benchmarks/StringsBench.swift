import Foundation
import StringsCatalog

/// `Benchmarks strings [entries]`: parsing a large `.strings` file with StringsDocument against
/// CoreFoundation's parser (PropertyListSerialization) on the same bytes, plus lookup and format rates.
func runStringsBench(args: [String]) {
    let count = args.first.flatMap(Int.init) ?? 20_000
    var text = "/* Generated benchmark table */\n"
    for i in 0..<count {
        text +=
            "\n/* Comment for key \(i) */\n\"key.\(i) %@\" = \"Valeur numéro \(i) pour %@ — \\\"quoted\\\" \\U00e9\";\n"
    }
    let data = Data(text.utf8)
    func time(_ rounds: Int, _ body: () -> Void) -> Double {
        body()  // warm-up
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<rounds { body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(rounds)
    }
    var ours = 0
    let tOurs = time(5) { ours = StringsDocument(parsing: data).entries.count }
    var theirs = 0
    let tCF = time(5) {
        theirs =
            ((try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: String])?.count ?? -1
    }
    var roundTrip = false
    let tWrite = time(5) {
        var doc = StringsDocument(parsing: data)
        doc.setValue("changed", forKey: "key.0 %@")
        roundTrip = ((try? doc.data())?.count ?? 0) > 0
    }
    let mb = Double(data.count) / 1_048_576
    print("strings: \(count) entries, \(String(format: "%.2f", mb)) MiB")
    print(
        String(format: "  parse StringsDocument    %8.1f ms  (%6.1f MiB/s)  entries=%d", tOurs * 1000, mb / tOurs, ours)
    )
    print(
        String(
            format: "  parse CoreFoundation     %8.1f ms  (%6.1f MiB/s)  entries=%d  [baseline]", tCF * 1000, mb / tCF,
            theirs))
    print(String(format: "  ratio ours/CF            %8.2fx", tOurs / tCF))
    print(String(format: "  parse+edit+write         %8.1f ms  ok=%@", tWrite * 1000, roundTrip ? "yes" : "no"))

    guard let catalog = try? Catalog.bundled() else {
        print("  bundled catalog not found: lookup figures skipped")
        return
    }
    let locales = ["de", "zh-HK", "es-MX", "ru", "en-AU", "xx"]
    var hits = 0
    let lookups = 20_000
    let tLookup = time(1) {
        for i in 0..<lookups { if catalog.string("Select", locale: locales[i % locales.count]) != nil { hits += 1 } }
    }
    let tFormat = time(1) {
        for i in 0..<lookups {
            if (try? catalog.format("%d contacts selected", locale: locales[i % locales.count], arguments: [.int(i)]))
                != nil
            {
                hits += 1
            }
        }
    }
    let dict = catalog.tables["en"]?["Localizable"]?.strings ?? [:]
    let tDict = time(1) { for i in 0..<lookups { if dict[i % 2 == 0 ? "Select" : "OK"] != nil { hits += 1 } } }
    print(String(format: "  lookup with fallback     %8.2f µs/op", tLookup / Double(lookups) * 1e6))
    print(String(format: "  plural format            %8.2f µs/op", tFormat / Double(lookups) * 1e6))
    print(String(format: "  plain dictionary lookup  %8.3f µs/op  [baseline]", tDict / Double(lookups) * 1e6))
    print(String(format: "  ratio lookup/dictionary  %8.0fx  (hits=%d)", tLookup / tDict, hits))
}

/// `Benchmarks strings-tools [entries]`: the translator commands on a project of `entries` keys and on one four
/// times as large (a `.strings` table with a German translation, a `.stringsdict` with a plural per 20 keys,
/// and a String Catalog holding the same keys): each figure at both sizes and their ratio, which is 4 when the
/// work is linear. 125,000 entries make a project of about 50 MB at the larger size.
func runStringsToolsBench(args: [String]) throws {
    let small = args.first.flatMap(Int.init) ?? 25_000
    var rows: [(String, [Double])] = []
    var sizes: [String] = []
    for count in [small, small * 4] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strings-tools-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try writeTranslatorProject(dir, entries: count)
        sizes.append(String(format: "%d entries, %.1f MB", count, Double(bytes) / 1e6))
        var figures: [(String, Double)] = []
        func step(_ name: String, _ body: () throws -> Void) {
            let start = DispatchTime.now().uptimeNanoseconds
            do { try body() } catch {
                print("  \(name) failed at \(count) entries: \(error)")
                figures.append((name, .nan))
                return
            }
            figures.append((name, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
        }
        var folder = try LocalizationFolder(directory: dir)
        step("load") { folder = try LocalizationFolder(directory: dir) }
        step("lint") { _ = folder.lint() }
        var xliff = ""
        step("export-xliff") { xliff = XLIFF.export(folder, language: "de") }
        step("import-xliff") {
            var copy = folder
            _ = XLIFF.importFiles(try XLIFF.parse(Data(xliff.utf8), file: "de.xliff"), into: &copy)
        }
        var po: [(path: String, text: String)] = []
        step("export-po") { po = POExport.files(folder, languages: ["de"]).map { ($0.path, $0.document.text()) } }
        step("import-po") {
            var copy = folder
            for (path, text) in po where path.hasSuffix("de.po") {
                _ = POImport.apply(POFile(parsing: text, file: path), file: path, into: &copy)
            }
        }
        step("pseudo") {
            var copy = folder
            _ = try copy.pseudolocalize(Pseudolocalizer(style: .accented), into: "en-XA")
        }
        step("generate swift") { _ = try SwiftAccessors.source(for: folder) }
        for (i, (name, seconds)) in figures.enumerated() {
            if rows.count <= i { rows.append((name, [])) }
            rows[i].1.append(seconds)
        }
    }
    print("strings-tools: \(sizes.joined(separator: " / "))")
    for (name, t) in rows {
        let label = name.padding(toLength: 16, withPad: " ", startingAt: 0)
        print("  " + label + String(format: " %8.2f s  %8.2f s   ratio %5.2f (4.00 = linear)", t[0], t[1], t[1] / t[0]))
    }
}

/// Writes the benchmark project of ``runStringsToolsBench(args:)``; returns its size in bytes.
func writeTranslatorProject(_ dir: URL, entries: Int) throws -> Int {
    var en = "/* Generated benchmark table */\n"
    var de = ""
    var dict = ""
    var catalog = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n"
    for i in 0..<entries {
        en +=
            "\n/* Shown on screen \(i); %@ is a name. */\n\"key.\(i)\" = \"Value number \(i) for %@, {name} and {{tag}}\";\n"
        if i % 2 == 0 { de += "\"key.\(i)\" = \"Wert Nummer \(i) für %@\";\n" }
        if i % 20 == 0 {
            dict += """
                \t<key>files.\(i)</key>
                \t<dict>
                \t\t<key>NSStringLocalizedFormatKey</key>
                \t\t<string>%#@n@ in folder \(i)</string>
                \t\t<key>n</key>
                \t\t<dict>
                \t\t\t<key>NSStringFormatSpecTypeKey</key>
                \t\t\t<string>NSStringPluralRuleType</string>
                \t\t\t<key>NSStringFormatValueTypeKey</key>
                \t\t\t<string>d</string>
                \t\t\t<key>one</key>
                \t\t\t<string>%d file</string>
                \t\t\t<key>other</key>
                \t\t\t<string>%d files</string>
                \t\t</dict>
                \t</dict>

                """
        }
        catalog +=
            "    \"cat.\(i) %lld\" : {\n      \"comment\" : \"Counter \(i)\",\n      \"localizations\" : {\n"
            + "        \"de\" : {\n          \"stringUnit\" : {\n            \"state\" : \"translated\",\n"
            + "            \"value\" : \"Zähler \(i): %lld\"\n          }\n        }\n      }\n    }"
            + (i == entries - 1 ? "\n" : ",\n")
    }
    catalog += "  },\n  \"version\" : \"1.0\"\n}\n"
    let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(dict)</dict>
        </plist>

        """
    let files = [
        ("en.lproj/Localizable.strings", en), ("de.lproj/Localizable.strings", de),
        ("en.lproj/Localizable.stringsdict", plist), ("Catalog.xcstrings", catalog),
    ]
    var total = 0
    for (path, text) in files {
        let url = dir.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        total += text.utf8.count
    }
    return total
}
