import ArgumentModel
import Campaigns
import Collation
import Composer
import ContactsCore
import ContactsSelection
import Foundation
import ICUKit
import StringsCatalog
import Support
import Templating

/// `contacts demo`: the whole system on the embedded sample address book — sections in three locales,
/// a keyword and a Pinyin search, a selection kept across searches, the `invite` template rendered for
/// each recipient in that recipient's language, `.eml` and `sms:` drafts written to a folder, a summary.
enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "Run the main job on the embedded sample address book"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            1. lists the sample address book sectioned in several locales (default: en, sv, zh-Hans) with the
               index bar (the first names of each section);
            2. runs a keyword search ("f b") and a Pinyin search ("wangwei"), then a few more searches, selecting
               contacts as it goes (the selection is kept across searches);
            3. renders the built-in 'invite' template for every selected contact in the contact's own language;
            4. writes one .eml per mail recipient and the sms: URIs of the text messages (messages.sms.txt)
               into DIR (default: ./demo-out; the files of the previous demo run there are replaced, nothing
               else is touched);
            5. prints a summary table and the localized "Select" / "Search contacts" in the recipients' languages.
            """,
        options: [
            .option("--out", value: "DIR", help: "where the drafts go (default: demo-out)", completion: .directory),
            .repeated("--locale", value: "L", help: "a locale (or a list: en,zh-Hans) to section in (repeatable)"),
            .option(
                "--region", value: "CC",
                help: "phone region for the sample's numbers without a country code (default: CONTACTS_REGION, else US)"
            ),
            .flag("--deterministic", help: "fixed dates and Message-IDs, so runs can be compared byte for byte"),
            .flag("--json", help: "the summary as JSON instead of text (the listings are not printed)"),
        ],
        examples: ["contacts demo --out demo-out --deterministic"])

    /// The searches of the demo and which results it selects (index into the result, and whether the
    /// contact is reached by email when it has one).
    struct Step {
        var query: String
        var keywords: Bool
        var locale: String
        var pick: [(index: Int, byEmail: Bool)]
    }

    static let steps = [
        Step(query: "f b", keywords: true, locale: "en", pick: [(0, true), (1, false)]),
        Step(query: "wangwei", keywords: false, locale: "zh-Hans", pick: [(0, true)]),
        Step(query: "müller", keywords: false, locale: "de", pick: [(0, true)]),
        Step(query: "yamada", keywords: false, locale: "ja", pick: [(0, true)]),
        Step(query: "мария", keywords: false, locale: "ru", pick: [(0, false)]),
        Step(query: "فاطمة", keywords: false, locale: "ar", pick: [(0, true)]),
        Step(query: "elodie", keywords: false, locale: "fr", pick: [(0, true)]),
    ]

    struct SummaryRow: Encodable {
        var recipient: String
        var id: String
        var language: String
        var channel: String
        var to: String
        var subject: String
        var file: String
    }

    struct Literal: Encodable {
        var language: String
        var select: String
        var searchContacts: String
    }

    struct JSONSummary: Encodable {
        var recipients: [SummaryRow]
        var literals: [Literal]
        var failures: [String]
        var outputDirectory: String
    }

    static let manifestName = ".contacts-demo"

    static func run(_ args: inout Arguments) throws -> ExitCode {
        var locales = try args.options("--locale")
        let outPath = try args.option("--out") ?? "demo-out"
        // The sample's own numbers are written in the US national form: the demo reads them as such (the
        // same output on every machine), unless told otherwise.
        let region = try parseRegion(&args) ?? "US"
        let deterministic = args.flag("--deterministic")
        let json = args.flag("--json")
        _ = try args.positionals(max: 0, names: "no arguments")
        if locales.isEmpty { locales = ["en", "sv", "zh-Hans"] }
        var out = Output()

        let book = try readSources([]).book
        let library = try loadTemplateLibrary(templates: nil, strings: nil, command: name)

        // 1. Sections in several locales.
        if !json {
            out.line("Sample address book: \(book.contacts.count) contacts, \(book.groups.count) groups")
            for locale in locales {
                let source = try dataSource(book, locales: commandLocales(locale), region: region)
                out.line()
                out.line("== Sections (\(locale), \(source.rows.count) contacts reachable by phone or email)")
                out.line("Index: " + source.indexTitles.joined(separator: " "))
                for section in source.sections {
                    let rows = source.rows(in: section)
                    let names = rows.prefix(3).map(\.displayName).joined(separator: ", ")
                    out.line("  \(section.title) (\(rows.count)): \(names)\(rows.count > 3 ? ", …" : "")")
                }
            }
        }

        // 2. Searches, selecting across them (one selection per locale's list, kept by id).
        var selectedIDs: [String] = []
        var byEmail = Set<String>()
        for step in steps {
            let source = try dataSource(book, locale: step.locale, region: region)
            let result = source.search(step.query, keywords: step.keywords)
            if !json {
                out.line()
                out.line(
                    "== Search \(step.keywords ? "(keywords) " : "")\"\(step.query)\" in \(step.locale): \(result.count) found"
                )
                for section in result.sections {
                    let names = source.rows(in: section, of: result).map(\.displayName).joined(
                        separator: ", ")
                    out.line("  \(section.title): \(names)")
                }
            }
            for pick in step.pick where pick.index < result.count {
                let row = source.rows[Int(result.rowNumbers[pick.index])]
                if !selectedIDs.contains(row.id) {
                    selectedIDs.append(row.id)
                    if pick.byEmail && !row.contact.emails.isEmpty { byEmail.insert(row.id) }
                    if !json { out.line("  selected: \(row.displayName)") }
                }
            }
        }

        // 3. One selection over the whole book holds every pick; each contact is reached as chosen.
        let source = try dataSource(book, locale: "en", region: region)
        let selection = SelectionController(dataSource: source)
        for id in selectedIDs {
            try selection.select(id: id)
            if byEmail.contains(id), let email = source.row(id: id)?.contact.emails.first?.value {
                try selection.choose(value: email, for: id)
            }
        }
        var campaign = Campaign(template: "invite")
        campaign.locale = "en"
        campaign.from = try MailAddress(name: "Ada Lovelace", address: "ada@example.org")
        if let sample = try library.template(named: "invite").sample, case .dictionary(let dict) = sample {
            for (key, value) in dict.entries where key != "recipient" && key != "others" { campaign.data[key] = value }
        }
        campaign.data["inviter"] = ["givenName": "Ada", "familyName": "Lovelace"]
        let (messages, failures) = campaign.compose(selection, library: library)

        // 4. Drafts into the output folder (replacing only the previous demo run's files).
        let dir = URL(fileURLWithPath: outPath)
        try removePreviousRun(dir)
        var files = FileTransport(directory: dir)
        if deterministic {
            files.date = { Date(timeIntervalSince1970: 1_767_268_800) }  // 2026-01-01 12:00 UTC
            files.messageID = { draft in
                "<demo-\(abs(draft.to.first?.address.hashValueStable ?? 0))@contacts.example.org>"
            }
        }
        var written: [String] = []
        var rows: [SummaryRow] = []
        for (n, message) in messages.enumerated() {
            var file = ""
            do {
                if let mail = message.mail {
                    let url = try files.save(mail, name: String(format: "%02d-", n + 1) + message.displayName)
                    file = url.lastPathComponent
                } else if let sms = message.message {
                    _ = try files.send(sms)
                    file = "messages.sms.txt"
                }
                if !written.contains(file) { written.append(file) }
            } catch {
                printError("demo: \(message.displayName): \(error)")
                file = "(failed: \(error))"
            }
            rows.append(
                SummaryRow(
                    recipient: message.displayName, id: message.contactID, language: message.locale,
                    channel: message.channel.rawValue, to: message.value, subject: message.rendered.subject, file: file)
            )
        }
        try written.joined(separator: "\n").appending("\n").write(
            to: dir.appendingPathComponent(manifestName), atomically: true, encoding: .utf8)

        // 5. Summary and literals.
        var languages: [String] = []
        for m in messages where !languages.contains(m.locale) { languages.append(m.locale) }
        let literals = languages.map {
            Literal(
                language: $0, select: Strings.select(locale: $0), searchContacts: Strings.searchContacts(locale: $0))
        }
        if json {
            out.line(
                try jsonString(
                    JSONSummary(
                        recipients: rows, literals: literals, failures: failures.map(\.description),
                        outputDirectory: dir.path)))
        } else {
            out.line()
            out.line("== Drafts in \(dir.path)")
            let table =
                [["Recipient", "Language", "Channel", "To", "File"]]
                + rows.map { [$0.recipient, $0.language, $0.channel, $0.to, $0.file] }
            for line in try formatTable(table) { out.line(line) }
            for r in rows { out.line("  \(r.language): \(r.subject)") }
            out.line()
            out.line("== \"Select\" / \"Search contacts\" in the recipients' languages")
            for l in literals { out.line("  \(l.language): \(l.select) / \(l.searchContacts)") }
            if !failures.isEmpty {
                out.line()
                for f in failures { out.line("not rendered: \(f)") }
            }
        }
        out.flush()
        return failures.isEmpty ? .ok : .failure
    }

    static func dataSource(_ book: AddressBook, locale: String, region: String?) throws -> ContactsDataSource {
        try dataSource(book, locales: [locale], region: region)
    }

    static func dataSource(_ book: AddressBook, locales: [String], region: String?) throws -> ContactsDataSource {
        var config = Configuration()
        config.mode = .both
        config.locales = locales
        config.phoneRegion = region
        config.skipUnnamedContacts = true
        return try ContactsDataSource(contacts: book.contacts, configuration: config)
    }

    /// Deletes the files the previous demo run listed in its manifest (and nothing else).
    static func removePreviousRun(_ dir: URL) throws {
        let manifest = dir.appendingPathComponent(manifestName)
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else { return }
        for name in text.split(separator: "\n") where !name.contains("/") && !name.hasPrefix(".") {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent(String(name)))
        }
        try? FileManager.default.removeItem(at: manifest)
    }

    /// Left-aligned columns, padded by display width (per grapheme cluster, from ICU: CJK characters take
    /// two columns, combining marks none, right-to-left letters one).
    static func formatTable(_ rows: [[String]]) throws -> [String] {
        let widths = try rows.map { row in try row.map { try DisplayWidth.columns($0) } }
        let columns = rows.map(\.count).max() ?? 0
        var widest = [Int](repeating: 0, count: columns)
        for row in widths { for (i, w) in row.enumerated() { widest[i] = max(widest[i], w) } }
        return zip(rows, widths).map { row, width in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widest[i] - width[i] + 2)
            }.joined()
        }
    }
}
