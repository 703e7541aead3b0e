import Campaigns
import ContactsCore
import ContactsSelection
import Foundation
import ICUKit
import Locales
import PackageResources
import StringsCatalog
import Templating

/// The fuzz targets of the package: each takes arbitrary bytes, drives one parser (and what is built
/// on its result) the way the library and the `contacts` tool do, and swallows thrown errors. Thrown
/// errors are the expected answer to bad input; only crashes, traps, hangs and sanitizer reports are
/// findings.
///
/// The libFuzzer executable (`FuzzTargets`, built by `make fuzz`) and the regression tests
/// (`Fuzz/Regressions/<target>/`, replayed by `make test`) both call these functions.
///
/// ```swift
/// FuzzTarget.vcard.run(Array("BEGIN:VCARD\r\nFN:Ada\r\nEND:VCARD\r\n".utf8))
/// ```
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// vCard 2.1/3.0/4.0 reader (`AddressBook`), then the writer on what was read.
    case vcard
    /// The vCard reader in pieces on two threads, and streamed, against the whole input read at once: the
    /// same contacts, ids and diagnostics, or the run traps (a difference is a finding).
    case vcardPieces = "vcard-pieces"
    /// The compact list (`list`/`search` of the tool) against the data source of the same input: the same
    /// rows, sections, skipped contacts and search answers, or the run traps. The first byte picks the
    /// locale, mode and skip rule.
    case contactList = "contact-list"
    /// `.strings` parser (text in any encoding, or a property list), lossless write-back and one edit.
    case strings
    /// `.stringsdict` property lists, the ICU patterns made from them, edits and write-back.
    case stringsdict
    /// `.xcstrings` JSON catalogs: lookups, plural entries, edits and write-back.
    case xcstrings
    /// XLIFF 1.2 import into the bundled localizations, and export of what was read.
    case xliff
    /// Mustache parser and renderer: template source, then an optional NUL and a JSON context.
    case mustache
    /// ICU MessageFormat: compile and format directly, and through `{{#t}}` in a template.
    case messageformat
    /// JSON recipient data (`RecipientData` from a `.json` file).
    case recipientsJSON = "recipients-json"
    /// CSV recipient data (`RecipientData` from a `.csv` file).
    case recipientsCSV = "recipients-csv"

    /// Runs the target on one input.
    public func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .vcard: FuzzEntries.vcard(bytes)
        case .vcardPieces: FuzzEntries.vcardPieces(bytes)
        case .contactList: FuzzEntries.contactList(bytes)
        case .strings: FuzzEntries.strings(bytes)
        case .stringsdict: FuzzEntries.stringsdict(bytes)
        case .xcstrings: FuzzEntries.xcstrings(bytes)
        case .xliff: FuzzEntries.xliff(bytes)
        case .mustache: FuzzEntries.mustache(bytes)
        case .messageformat: FuzzEntries.messageformat(bytes)
        case .recipientsJSON: FuzzEntries.recipientsJSON(bytes)
        case .recipientsCSV: FuzzEntries.recipientsCSV(bytes)
        }
    }

    /// Runs the target on one input.
    public func run(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { run($0) }
    }
}

/// One function per fuzz target; see ``FuzzTarget``.
public enum FuzzEntries {
    public static func vcard(_ bytes: UnsafeRawBufferPointer) {
        let book = AddressBook(data: Data(bytes), fileName: "fuzz.vcf")
        for d in book.diagnostics { _ = d.description }
        // One writer version per input (alternating) keeps the executions per second up.
        let versions = VCardWriter.Version.allCases
        let version = versions[bytes.count % versions.count]
        let text = VCardWriter.data(for: book, version: version)
        _ = AddressBook(data: text, fileName: "fuzz-\(version.rawValue).vcf")
        for contact in book.contacts.prefix(8) {
            _ = book.groups(containing: contact.id)
        }
    }

    /// Traps with `what` when two readings of one input disagree: for the fuzzer, a finding like a crash.
    static func agree(_ same: Bool, _ what: @autoclosure () -> String) {
        if !same { fatalError("fuzz: \(what())") }
    }

    public static func vcardPieces(_ bytes: UnsafeRawBufferPointer) {
        let data = Data(bytes)
        let whole = AddressBook(data: data, fileName: "fuzz.vcf", maxChunks: 1)
        // A piece may start at any line that begins a card: minimum size 1 byte, up to four pieces.
        let pieces = AddressBook(data: data, fileName: "fuzz.vcf", maxChunks: 4, minChunkSize: 1)
        agree(pieces == whole, "the book read in pieces differs from the book read whole")
        agree(pieces.diagnostics == whole.diagnostics, "the diagnostics of the pieces differ")
        let stream = VCardReader.stream(
            data: data, fileName: "fuzz.vcf", releasingPagesRead: false, makePiece: { [String]() },
            { ids, contact in ids.append(contact.id) }, maxChunks: 4, threads: 2, minChunkSize: 1)
        var ids = stream.pieces.flatMap { $0 }
        agree(
            ids.count == whole.contacts.count,
            "the streamed read saw \(ids.count) contacts, not \(whole.contacts.count)")
        for (n, id) in stream.renamedIDs { ids[n] = id }
        agree(ids == whole.contacts.map(\.id), "the streamed ids differ")
        agree(stream.diagnostics == whole.diagnostics, "the streamed diagnostics differ")
    }

    public static func contactList(_ bytes: UnsafeRawBufferPointer) {
        guard let selector = bytes.first else { return }
        let data = Data(UnsafeRawBufferPointer(rebasing: bytes.dropFirst()))
        var config = Configuration()
        config.locale = ["en", "sv", "ja", "zh-Hans", "de", "ko", "ru", "ar"][Int(selector & 7)]
        config.mode = [SelectionMode.messages, .email, .both, .both][Int(selector >> 3 & 3)]
        config.skipUnnamedContacts = selector & 0x20 != 0
        let book = AddressBook(data: data, fileName: "fuzz.vcf")
        guard let source = try? ContactsDataSource(contacts: book.contacts, configuration: config) else { return }
        let list: CompactContactList
        do {
            list = try CompactContactList(
                data: data, fileName: "fuzz.vcf", configuration: config, maxChunks: 3, threads: 2, minChunkSize: 1)
        } catch {
            return agree(false, "the compact list failed where the data source did not: \(error)")
        }
        agree(list.rowCount == source.rows.count, "\(list.rowCount) rows, the data source has \(source.rows.count)")
        agree(list.sections == source.sections, "the sections differ")
        agree(list.skipped.map(\.id) == source.skipped.map(\.id), "the skipped contacts differ")
        agree(list.skipped.map(\.reason) == source.skipped.map(\.reason), "the reasons for skipping differ")
        agree(list.diagnostics == book.diagnostics, "the diagnostics differ")
        func rows(_ listing: any ContactListing, _ result: SearchResult) -> [ListedRow] {
            result.rowNumbers.map { listing.listedRow(Int($0)) }
        }
        // Fixed queries, and pieces of the listed names and values (the first and the middle row).
        var queries = ["", "a", "an", "1", "55", "@", "f b", "é", "ㄱ", "zh"]
        for number in Set([0, list.rowCount / 2]) where number < list.rowCount {
            let row = list.listedRow(number)
            queries += [
                String(row.displayName.prefix(2)), String(row.displayName.suffix(3)), String(row.value.prefix(4)),
            ]
        }
        for query in queries {
            for keywords in [false, true] {
                let expected = source.search(query, keywords: keywords)
                let got = list.search(query, keywords: keywords, refining: nil)
                agree(
                    got.rowNumbers == expected.rowNumbers, "search \(query.debugDescription) \(keywords): rows differ")
                agree(rows(list, got) == rows(source, expected), "search \(query.debugDescription): row values differ")
            }
        }
    }

    public static func strings(_ bytes: UnsafeRawBufferPointer) {
        var doc = StringsDocument(parsing: [UInt8](bytes), file: "fuzz.strings")
        _ = try? doc.data()
        for d in doc.diagnostics { _ = d.description }
        let keys = doc.segments.compactMap { segment -> String? in
            if case .entry(let e) = segment { return e.key }
            return nil
        }
        guard let first = keys.first else {
            doc.setValue("new \"value\"\n", forKey: "fuzz key", comment: "added */ by the fuzzer")
            _ = try? doc.data()
            return
        }
        _ = doc.comment(forKey: first)
        doc.setValue("edited \u{1F600} \\ value", forKey: first, comment: "edited")
        _ = try? doc.data()
        if let last = keys.last { _ = doc.removeEntry(forKey: last) }
        _ = try? doc.data()
    }

    public static func stringsdict(_ bytes: UnsafeRawBufferPointer) {
        var doc = StringsDictDocument(parsing: Data(bytes), file: "fuzz.stringsdict")
        for d in doc.diagnostics { _ = d.description }
        let entries = doc.entries.values.sorted { $0.key < $1.key }.prefix(8)
        for entry in entries {
            for locale in ["en", "ru", "ar"] {
                for variable in entry.variables.values {
                    for n in [0.0, 1, 2, 5, 1.5] { _ = variable.form(for: n, locale: locale) }
                }
                _ = entry.variant(forWidth: 20)
                _ = try? entry.format(locale: locale, arguments: [.int(3), .string("x"), .double(2.5)])
            }
            if let pattern = StringsdictPattern.icuPattern(entry),
                let format = try? MessageFormat(pattern, locale: "ru")
            {
                var arguments: [String: MessageFormat.Argument] = [:]
                for name in format.argumentNames { arguments[name] = .int(21) }
                _ = try? format.format(arguments)
            }
        }
        if let entry = entries.first {
            if let variable = entry.variables.keys.sorted().first {
                _ = doc.setForm("%d edited", key: entry.key, variable: variable, category: "few")
            }
            _ = doc.setFormatKey("%#@edited@", key: entry.key)
            _ = doc.removeEntry(entry.key)
        }
        _ = doc.data()
    }

    public static func xcstrings(_ bytes: UnsafeRawBufferPointer) {
        guard var doc = try? XCStringsDocument(parsing: Data(bytes), file: "fuzz.xcstrings") else { return }
        _ = doc.data()
        let keys = doc.keys.prefix(8)
        for key in keys {
            _ = doc.entry(key)
            for language in ["en", "de", "ru"] {
                _ = doc.value(key, language: language)
                if let entry = doc.pluralEntry(key, language: language) {
                    _ = StringsdictPattern.icuPattern(entry)
                }
            }
        }
        if let key = keys.first {
            doc.setValue("übersetzt", forKey: key, language: "de")
            doc.setPluralForm("%lld Stück", category: "other", forKey: key, language: "de")
            _ = doc.removeLocalization(forKey: key, language: "en")
            _ = doc.removeKey(key)
        }
        doc.addKey("fuzz \"key\"", comment: "added")
        _ = doc.data()
    }

    public static func xliff(_ bytes: UnsafeRawBufferPointer) {
        guard let files = try? XLIFF.parse(Data(bytes), file: "fuzz.xliff") else { return }
        _ = try? XLIFF.parse(Data(XLIFF.document(files).utf8), file: "fuzz-export.xliff")
        guard var folder = Fixtures.localizations else { return }
        let report = XLIFF.importFiles(files, into: &folder)
        _ = report.problems.count
        for file in files {
            let language = LocalePolicy.bcp47(fromLocalizationName: file.targetLanguage)
            for doc in (folder.strings[language] ?? [:]).values { _ = try? doc.data() }
            for doc in (folder.stringsDicts[language] ?? [:]).values { _ = doc.data() }
        }
        for doc in folder.catalogs.values { _ = doc.data() }
    }

    public static func mustache(_ bytes: UnsafeRawBufferPointer) {
        let split = bytes.firstIndex(of: 0) ?? bytes.count
        let source = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<split]), as: UTF8.self)
        var context = Fixtures.context
        if split < bytes.count,
            let value = try? MustacheValue(json: [UInt8](bytes[(split + 1)...]), file: "fuzz.json")
        {
            context = value
        }
        guard let template = try? MustacheTemplate(source, name: "fuzz") else { return }
        let escapings: [Escaping] = [.html, .text, .header(.fold), .header(.reject)]
        var options = RenderOptions(
            escaping: escapings[bytes.count % escapings.count], strict: bytes.count % 2 == 1,
            locale: Fixtures.locales[bytes.count % Fixtures.locales.count], recipient: "fuzz@example.org",
            catalog: Fixtures.messages, table: "fuzz")
        _ = try? template.render(context, partials: Fixtures.partials, options: options)
        options.helpers = false
        _ = try? template.render(context, partials: Fixtures.partials, options: options)
    }

    public static func messageformat(_ bytes: UnsafeRawBufferPointer) {
        guard let selector = bytes.first else { return }
        let pattern = String(decoding: UnsafeRawBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self)
        let locale = Fixtures.locales[Int(selector) % Fixtures.locales.count]
        if let format = try? MessageFormat(pattern, locale: locale) {
            var arguments: [String: MessageFormat.Argument] = [:]
            for (i, name) in format.argumentNames.enumerated() {
                switch (Int(selector) >> 4 &+ i) % 4 {
                case 0: arguments[name] = .int(Int64(selector) - 100)
                case 1: arguments[name] = .double(Double(selector) / 7)
                case 2: arguments[name] = .string("Ada & {Bob} 'x'")
                default: arguments[name] = .date(1_767_225_600_000)
                }
            }
            _ = try? format.format(arguments)
        }
        // The same pattern as a catalog message, formatted by `{{#t}}` with values from the context.
        let catalog = Fixtures.Messages(extra: pattern)
        let options = RenderOptions(
            escaping: .html, strict: selector & 1 == 1, locale: locale, catalog: catalog, table: "fuzz")
        _ = try? Fixtures.messageTemplate?.render(Fixtures.context, options: options)
    }

    public static func recipientsJSON(_ bytes: UnsafeRawBufferPointer) {
        recipients(bytes, fileName: "fuzz.json")
    }

    public static func recipientsCSV(_ bytes: UnsafeRawBufferPointer) {
        recipients(bytes, fileName: "fuzz.csv")
    }

    static func recipients(_ bytes: UnsafeRawBufferPointer, fileName: String) {
        do {
            let data = try RecipientData(data: Data(bytes), fileName: fileName)
            for d in data.diagnostics { _ = d.description }
            for (_, row) in data.rows.prefix(8) {
                for (_, value) in row { _ = value.scalarText }
            }
        } catch {
            _ = "\(error)"
        }
    }
}

/// Fixed inputs beside the fuzzed bytes, built once.
enum Fixtures {
    static let locales = ["en", "de", "ru", "ar", "ja", "zh-Hans", "pl", "fr"]

    /// The bundled localizations as an editable folder (XLIFF imports go into a copy).
    static let localizations: LocalizationFolder? = {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/StringsCatalog/Localizations")
        guard
            let url = ResourceFolder.find(
                bundle: "ContactsSelection_StringsCatalog", folder: "Localizations", source: source)
        else { return nil }
        return try? LocalizationFolder(directory: url)
    }()

    /// A context with every kind of value the helpers and sections look at.
    static let context: MustacheValue = [
        "name": "Ada & <Bob>",
        "count": 3,
        "price": 12.5,
        "admin": true,
        "none": nil,
        "when": .date(1_767_225_600_000),
        "gender": "female",
        "people": [
            ["givenName": "Ada", "familyName": "Lovelace", "email": "ada@example.org"],
            ["givenName": "张", "familyName": "伟"],
            ["givenName": "Jürgen", "familyName": "Müller"],
        ],
        "tags": ["a", "b", "c"],
        "nested": ["inner": ["deep": "value\nwith break"]],
        "dynamic": "p",
    ]

    static let partials: MustachePartials = {
        (try? MustachePartials(sources: [
            "p": "[{{name}}{{#tags}}<{{.}}>{{/tags}}]",
            "layout": "<{{$title}}default{{/title}}|{{$body}}{{/body}}>",
            "indented": "  {{name}}\n  {{#people}}{{givenName}}\n{{/people}}",
        ])) ?? MustachePartials()
    }()

    static let messages = Messages(extra: nil)

    /// `{{#t}}` keys for the mustache target, plus one fuzzed pattern for the messageformat target.
    struct Messages: MessageCatalog {
        let extra: String?
        func message(forKey key: String, table: String, locale: String) -> String? {
            switch key {
            case "fuzz": return extra
            case "greet": return "Hello {name}!"
            case "guests": return "{count, plural, =0 {no guests} one {# guest} other {# guests}}"
            case "when": return "{when, date, long} {price, number, currency}"
            case "who": return "{gender, select, female {She} male {He} other {They}} and {people_list}"
            case "many": return "{people_count, plural, offset:1 one {{name}} other {{name} and # others}}"
            default: return nil
            }
        }
    }

    static let messageTemplate = try? MustacheTemplate("{{#t}}fuzz{{/t}}|{{#people}}{{#t}}fuzz{{/t}}{{/people}}")
}
