import ArgumentModel
import Campaigns
import Composer
import ContactsCore
import ContactsSelection
import Foundation
import StringsCatalog
import Templating
import TerminalUI

/// Loads the template library: the built-in one, or `--templates DIR` with `--strings DIR` for its words.
func loadTemplateLibrary(templates: String?, strings: String?, command: String) throws -> TemplateLibrary {
    let catalog: Catalog?
    if let strings {
        catalog = try StringsCommandSupport.renderingCatalog(strings, command: command)
    } else {
        do { catalog = try Catalog.bundled() } catch {
            throw CLIError.failure("\(command): cannot load the bundled strings catalog: \(error)")
        }
    }
    do {
        return try loadLibrary(templates, catalog: catalog)
    } catch {
        throw CLIError.failure("\(command): cannot load templates: \(error)")
    }
}

/// Reads a JSON object of campaign variables (`Campaign.variables(json:file:)`).
func loadCampaignData(_ path: String, command: String) throws -> [String: MustacheValue] {
    let bytes = [UInt8](try readInput(path, command: command))
    do { return try Campaign.variables(json: bytes, file: path) } catch {
        throw CLIError.failure("\(command): \(error)")
    }
}

/// The folder `path` names, which must exist (a usage error naming `option` otherwise).
private func existingFolder(_ path: String, option: String) throws -> URL {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw CLIError.usage("compose: \(option): \(path): not a folder")
    }
    return URL(fileURLWithPath: path)
}

/// The addresses of a repeated address option (each value one address or a `,`/`;`-separated list).
private func addressOptions(_ values: [String], _ option: String) throws -> [MailAddress] {
    do { return try values.flatMap { try MailAddress.list(parsing: $0) } } catch {
        throw CLIError.usage("compose: \(option): \(error)")
    }
}

enum ComposeCommand: Command {
    static let name = "compose"
    static let summary = "Render a template for each selected contact and deliver the drafts"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Selects contacts (by search or by id), renders template NAME for each one in the contact's own
            language (vCard LANG; else --locale; else the environment's), and makes one mail draft per email
            recipient or one text message per phone recipient. Rendering is strict: a recipient whose template
            needs a variable that is missing is reported and skipped; the others are delivered.
            No recipient is named to another: the template's 'others' list comes from --data or
            --recipients, or is every co-recipient only with --share-recipient-names (empty otherwise).
            Give exactly one of --query (with --keywords for keyword search) or --ids, or a --recipients
            sheet alone (mail merge: every row is a recipient). Each contact asked
            for (--ids, or a member of --group) that has no address for the mode is named on stderr and
            counted in the summary ('no address N'), and the exit code is 1.
            Without a delivery option the drafts are written into the current folder; --out, --maildir,
            --mbox and --uri write at once. --smtp, --sendmail and --sms-program send nothing without
            --send: they print what would be sent. --send needs --source or --recipients (the built-in
            sample book is never mailed) and sends through an outbox folder made in the current folder, exactly once; when an
            unfinished outbox of the same batch (template, data, recipients, transport) is there, it sends
            nothing and prints the command that resumes that one (--new-batch sends the batch anew).
            With --send, a Ctrl-C or SIGTERM while the drafts are rendered and queued stops with nothing
            queued and nothing sent (exit 130); once sending, it finishes the message in flight, prints the
            summary and how to resume (exit 130). A second one stops at once and prints the command that
            resumes the outbox. 'contacts outbox prune' removes outboxes once every message is settled.
            """,
        options: [
            templateOption,
            .option("--query", value: "Q", help: "select every contact the search finds"),
            .flag("--keywords", help: "with --query: keyword search"),
            .option("--ids", value: "ID,…", help: "select these contact ids"),
            groupOption,
            .repeated(
                "--source", value: "FILE.vcf|DIR",
                help: """
                    address book: a vCard file, '-' for stdin or a vdir folder; repeat to read several as one
                    (default: the embedded sample)
                    """, completion: .file),
            .option("--mode", help: "how recipients are reached (default: email)", allowed: ListOptions.modes),
            .option("--locale", value: "L", help: "the campaign's locale (recipients without LANG, sorting)"),
            .option(
                "--template-language", value: "L",
                help: """
                    the language a --templates template's own words are in (Content-Language; default:
                    its folder's 'language' file, else --locale); not a recipient's LANG
                    """),
            ListOptions.regionOption,
            ListOptions.preferNicknamesFlag,
            dataOption,
            .option(
                "--recipients", value: "FILE",
                help: """
                    the recipients' sheet (CSV: ',', ';' or tab; UTF-8 or UTF-16). Alone (no --source,
                    --query, --ids, --group) every row is mailed, in order: email, name, lang (the message's language), from,
                    cc, bcc, reply_to, attachments, phone, any other column a variable; a bad row is
                    named and skipped, a repeated address mailed once. Else: variables (CSV or a
                    JSON array of objects) joined to the contacts by an 'id' or 'email' column
                    """, completion: .file),
            .flag(
                "--share-recipient-names",
                help: """
                    fill the template's 'others' with every co-recipient (names and addresses):
                    each message then names all the others (default: off)
                    """),
            .flag(
                "--check",
                help: """
                    try the delivery without sending: connect, EHLO, TLS and AUTH for --smtp, saying
                    what happened (TLS or not, AUTH accepted or not offered) and what the server offers
                    (extensions, SIZE); that --sendmail and --sms-program can run; that --out, --maildir,
                    --mbox can be written
                    """),
            .repeated(
                "--attach", value: "FILE",
                help: "attach FILE to every mail; an 'attachments' column (';' between files) adds per recipient",
                completion: .file),
            .repeated(
                "--attach-from", value: "DIR",
                help: """
                    a folder the 'attachments' column may name files in (repeatable); without it
                    only files inside the --recipients file's folder, symbolic links followed
                    """, completion: .directory),
            .repeated(
                "--cc", value: "ADDR", help: "a copy of every mail to ADDR (Cc); also a 'cc' column in --recipients"),
            .repeated(
                "--bcc", value: "ADDR",
                help: "a blind copy to ADDR (envelope only, never a header); also a 'bcc' column"),
            .repeated(
                "--reply-to", value: "ADDR", help: "replies go to ADDR; a 'reply-to' column replaces it per recipient"),
            .repeated(
                "--unsubscribe", value: "TEMPLATE",
                help: """
                    a List-Unsubscribe URI (https: or mailto:) rendered per recipient, e.g.
                    'https://example.com/leave?id={{recipient.id}}' (each value URL-encoded,
                    the template's text kept as written); makes the mail bulk
                    (Precedence: bulk, Auto-Submitted: auto-generated); https: adds one-click
                    """),
            templatesOption, stringsOption,
            OutputLimitOption.option, RenderStepsOption.option,
        ] + ComposeListOptions.options + ComposePreviewOptions.options + DeliveryOptions.options,
        examples: [
            #"contacts compose --template invite --query "f b" --keywords --data invite.json --from ada@example.org --out drafts/"#,
            "contacts compose --template invite --ids felipe-baytelman,bruno-finstein --mode messages --data invite.json --uri",
            "contacts compose --recipients people.csv --template invite --data invite.json --from ada@example.org --out drafts/",
            #"contacts compose --source contacts.vcf --template invite --query felipe --data invite.json --from "Ada <ada@example.org>" --smtp smtp://127.0.0.1:2525 --send"#,
        ])

    /// The template options `compose` and `pick` share.
    static let templateOption = OptionSpec.option(
        "--template", value: "NAME",
        help: "a template of the library ('contacts templates list')")
    static let dataOption = OptionSpec.option(
        "--data", value: "FILE.json", help: #"campaign variables (a JSON object), e.g. {"project": "Atlas", …}"#,
        completion: .file)
    static let templatesOption = OptionSpec.option(
        "--templates", value: "DIR", help: "a template library folder instead of the built-in one",
        completion: .directory)
    static let stringsOption = OptionSpec.option(
        "--strings", value: "DIR", help: "the .lproj folders with that library's words", completion: .directory)

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let templateName = try args.option("--template")
        let query = try args.option("--query")
        let keywords = args.flag("--keywords")
        let ids = try args.option("--ids")
        let group = try args.option(groupOption.name)
        let sources = try args.options("--source")
        let modeText = try args.option("--mode") ?? "email"
        let locales = commandLocales(try args.option("--locale"))
        let locale = locales[0]
        let templateLanguage = try args.option("--template-language")
        let region = try parseRegion(&args)
        let preferNicknames = args.flag(ListOptions.preferNicknamesFlag.name)
        let dataPath = try args.option("--data")
        let recipientsPath = try args.option("--recipients")
        let shareNames = args.flag("--share-recipient-names")
        let cc = try addressOptions(try args.options("--cc"), "--cc")
        let bcc = try addressOptions(try args.options("--bcc"), "--bcc")
        let replyTo = try addressOptions(try args.options("--reply-to"), "--reply-to")
        var attachments: [Attachment] = []
        for path in try args.options("--attach") {
            do { attachments.append(try Attachment(contentsOfFile: path)) } catch {
                throw CLIError.usage("compose: --attach: \(error)")
            }
        }
        let attachFrom = try args.options("--attach-from").map { try existingFolder($0, option: "--attach-from") }
        var unsubscribe: [MustacheTemplate] = []
        for text in try args.options("--unsubscribe") {
            do { unsubscribe.append(try MustacheTemplate(text, name: "--unsubscribe")) } catch {
                throw CLIError.usage("compose: \(error)")
            }
        }
        let templatesDir = try args.option("--templates")
        let stringsDir = try args.option("--strings")
        let maxOutput = try OutputLimitOption.parse(&args, command: name)
        let maxSteps = try RenderStepsOption.parse(&args, command: name)
        let check = args.flag("--check")
        let listOptions = try ComposeListOptions.parse(&args)
        let previewOptions = try ComposePreviewOptions.parse(&args, command: name)
        let delivery = try DeliveryOptions.parse(&args, command: name)
        _ = try args.positionals(max: 0, names: "no arguments")
        if check { return ComposeDelivery.check(delivery, command: name, locale: locale) }
        guard let templateName else { throw CLIError.usage("compose: --template NAME is required (or --check)") }
        // A sheet without --source and a selection is the recipient list on its own: every row is mailed.
        let sheetAlone = recipientsPath != nil && sources.isEmpty && query == nil && ids == nil && group == nil
        guard sheetAlone || (query == nil || ids == nil) && (query != nil || ids != nil || group != nil) else {
            throw CLIError.usage(
                "compose: give --query or --ids (or --group alone for the whole group), not both; or --recipients FILE")
        }
        let mode = try parseMode(modeText)
        do { try delivery.sending.checkBook(isSample: sources.isEmpty && !sheetAlone) } catch {
            throw CLIError.usage("compose: \(error)")
        }
        // A folder that cannot take the drafts fails once, before anything is read or rendered.
        try delivery.prepare(command: name)
        // A send takes SIGINT and SIGTERM from here: a stop while reading, rendering or queueing ends it
        // before anything is sent, with nothing queued (exit 130); once sending, after the message in flight.
        let stop = OutboxStop()
        if delivery.sending.sendsThroughOutbox { Interrupts.watch(stop) }
        defer { Interrupts.unwatch() }

        var library = try loadTemplateLibrary(templates: templatesDir, strings: stringsDir, command: name)
        library.maxOutputBytes = maxOutput
        library.maxSteps = maxSteps
        if let refusal = library.refused[templateName] {
            throw CLIError.failure("compose: \(terminalSafe("\(refusal)"))")
        }
        guard library.templates[templateName] != nil else {
            throw CLIError.usage(
                "compose: no template '\(templateName)' (have: \(library.names.joined(separator: ", ")))")
        }
        if let templateLanguage {
            do { try library.declareLanguage(templateLanguage, of: templateName) } catch {
                throw CLIError.usage("compose: --template-language: \(error)")
            }
        }
        var campaign = Campaign(template: templateName)
        try listOptions.apply(to: &campaign, command: name)
        var contacts: [Contact]
        var skippedRows = false
        if sheetAlone, let recipientsPath {
            let list: RecipientList
            do {
                list = try RecipientList(data: try readInput(recipientsPath, command: name), fileName: recipientsPath)
            } catch { throw CLIError.failure("compose: \(error)") }
            for d in list.diagnostics { printError("compose: " + terminalSafe("\(d)")) }
            contacts = campaign.useSheet(list, from: recipientsPath)
            skippedRows = !list.skippedLines.isEmpty
        } else {
            contacts = try groupMembers(of: try readSources(sources).book, group: group)
        }
        let selection: SelectionController
        do {
            selection = try SelectionController(contacts: contacts) {
                $0.mode = mode
                $0.locales = locales
                $0.phoneRegion = region
                $0.searchByKeywords = keywords
                $0.preferNicknames = preferNicknames
            }
        } catch {
            throw CLIError.usage("compose: cannot use locale '\(locale)': \(error)")
        }
        // Every contact asked for that cannot be reached is named and counted (leftOut), never dropped.
        let leftOut =
            sheetAlone
            ? selection.selectRecipients(ids: contacts.map(\.id), from: contacts)
            : selection.selectRecipients(query: query, ids: ids, from: contacts)
        if selection.selectedRows.isEmpty {
            for failure in leftOut { printError("compose: " + terminalSafe("\(failure)")) }
            var what = query.map { "query '\($0)'" } ?? ids.map { "ids \($0)" } ?? "every member"
            if let group { what += " of group '\(group)'" }
            printError("compose: no contact selected (\(terminalSafe(what)) with mode \(modeText))")
            return .failure
        }

        campaign.locale = locale
        campaign.from = delivery.from
        campaign.shareRecipientNames = shareNames
        campaign.cc = cc
        campaign.bcc = bcc
        campaign.replyTo = replyTo
        campaign.unsubscribe = unsubscribe
        campaign.attachments = attachments
        campaign.attachmentFolders = attachFrom
        if let dataPath { campaign.data = try loadCampaignData(dataPath, command: name) }
        if let recipientsPath, !sheetAlone {
            do {
                let extra = try RecipientData(
                    data: try readInput(recipientsPath, command: name), fileName: recipientsPath)
                for d in extra.diagnostics { printError("compose: \(d)") }
                let unmatched = try extra.unmatchedRows(in: selection)
                if !unmatched.isEmpty {
                    printError(
                        "compose: --recipients: \(unmatched.count) of \(extra.rows.count) row(s) match no selected contact"
                            + (unmatched.count > 5 ? " (the first 5):" : ":"))
                    for d in unmatched.prefix(5) { printError("compose: " + terminalSafe("\(d)")) }
                }
                campaign.useRecipients(extra, from: recipientsPath)
            } catch let CampaignError.recipientData(problem) {
                throw CLIError.failure("compose: \(problem)")
            }
        }
        let sending = previewOptions.apply(to: delivery.sending)
        if previewOptions.preview != nil {
            return previewOptions.printPreviews(
                campaign, selection: selection, library: library, sending: sending, leftOut: leftOut, command: name)
        }
        let code = try ComposeDelivery.run(options: delivery, command: name, locale: locale) {
            events throws(ComposerError) in
            try campaign.deliver(
                selection, library: library, sending: sending, leftOut: leftOut, stop: stop, events: events)
        }
        if let testTo = previewOptions.testTo {
            print("test: to \(terminalSafe(testTo.asciiAddress)) only; no real recipient counts as sent")
        }
        return skippedRows && code == .ok ? .failure : code
    }
}
