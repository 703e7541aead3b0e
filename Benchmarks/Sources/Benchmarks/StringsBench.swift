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
