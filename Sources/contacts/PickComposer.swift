import ArgumentModel
import Campaigns
import Composer
import ContactsSelection
import Foundation
import PickerModel
import Templating
import TerminalUI

/// `pick`'s composer options (the mailSubject, mailBody, mailIsHTML and messageBody of KBContactsSelection,
/// the iOS picker this package re-creates, or a template of the library) and the delivery options `compose`
/// has; after Select they open the compose sheet (``PickComposeSheet``).
struct PickComposer {
    /// The help section of the composer options.
    static let section = "Compose"

    static let options: [OptionSpec] =
        [
            .option(
                "--subject", value: "S", help: "compose after Select: the mail subject (Mustache, per recipient)",
                section: section),
            .option(
                "--body", value: "TEXT|@FILE",
                help: "the mail body, or @FILE's text (FILE.md: Markdown, sent as HTML and plain text)",
                completion: .file, section: section),
            .flag("--html", help: "the body is HTML (a plain-text part is made of it)", section: section),
            .option(
                "--message-body", value: "TEXT|@FILE", help: "the text message body (default: the mail body)",
                completion: .file, section: section),
        ]
        + [
            ComposeCommand.templateOption, ComposeCommand.dataOption, ComposeCommand.templatesOption,
            ComposeCommand.stringsOption,
        ].map { option in
            var option = option
            option.section = section
            return option
        } + DeliveryOptions.options

    /// The message as written, or nil with `--template`.
    var text: ComposerText?
    var campaign: Campaign
    var library: TemplateLibrary
    var delivery: DeliveryOptions

    /// Reads the options; nil when none of the composer options is given (the delivery options then
    /// cannot be either). Templates, `--data` and a written message are checked here, before the picker
    /// starts.
    static func parse(_ args: inout Arguments, listOptions: ListOptions) throws -> PickComposer? {
        let command = PickCommand.name
        let subject = try args.option("--subject")
        let body = try args.option("--body")
        let html = args.flag("--html")
        let messageBody = try args.option("--message-body")
        let template = try args.option(ComposeCommand.templateOption.name)
        let dataPath = try args.option(ComposeCommand.dataOption.name)
        let templatesDir = try args.option(ComposeCommand.templatesOption.name)
        let stringsDir = try args.option(ComposeCommand.stringsOption.name)
        let delivery = try DeliveryOptions.parse(&args, command: command)
        let written = subject != nil || body != nil || messageBody != nil
        guard written || template != nil else {
            if html || dataPath != nil || templatesDir != nil || stringsDir != nil || delivery.given {
                throw CLIError.usage(
                    "\(command): --html, --data, --templates, --strings and the delivery options go with "
                        + "--subject/--body/--message-body or --template")
            }
            return nil
        }
        guard !(written && template != nil) else {
            throw CLIError.usage("\(command): give --subject/--body/--message-body or --template, not both")
        }
        if listOptions.sources.contains("-") {
            throw CLIError.usage(
                "\(command): composing reads the picked contacts again from their source: give files, not --source -")
        }
        // Mail needs a sender (compose says so after rendering): said before anyone is picked.
        if delivery.given, delivery.from == nil, listOptions.mode != .messages {
            throw CLIError.usage("\(command): --from ADDR is needed for mail (the sender of every message)")
        }
        do { try delivery.sending.checkBook(isSample: listOptions.sources.isEmpty) } catch {
            throw CLIError.usage("\(command): \(error)")
        }
        try delivery.prepare(command: command)
        let library = try loadTemplateLibrary(templates: templatesDir, strings: stringsDir, command: command)
        var text: ComposerText?
        if written {
            let (bodyText, bodyFile) = try bodyOption(body, "--body")
            text = ComposerText(
                subject: subject, body: bodyText, bodyFile: bodyFile, html: html,
                messageBody: try bodyOption(messageBody, "--message-body").text)
        } else if let template, library.templates[template] == nil {
            throw CLIError.usage(
                "\(command): no template '\(template)' (have: \(library.names.joined(separator: ", ")))")
        }
        var campaign: Campaign
        do {
            campaign = try CampaignPreview.campaign(
                text: text, template: template, library: library, locale: listOptions.locale, from: delivery.from)
        } catch { throw CLIError.usage("\(command): \(error)") }
        if let dataPath { campaign.data = try loadCampaignData(dataPath, command: command) }
        return PickComposer(text: text, campaign: campaign, library: library, delivery: delivery)
    }

    /// TEXT as it is, or `@FILE`'s text with FILE's name.
    static func bodyOption(_ value: String?, _ option: String) throws -> (text: String?, file: String?) {
        guard let value else { return (nil, nil) }
        guard value.hasPrefix("@") else { return (value, nil) }
        let path = String(value.dropFirst())
        let data = try readInput(path, command: "\(PickCommand.name) \(option)")
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIError.usage("\(PickCommand.name): \(option): \(path): not UTF-8 text")
        }
        return (text, path)
    }
}

/// The compose sheet in the picker's terminal session: drawn from ``ComposeSheet``, with the editor and the
/// delivery it asks for.
enum PickComposeSheet {
    /// Shows the sheet for `picked` until it ends: nil to go back to the list (Esc, or OK on the alert), the
    /// selection kept, else the code to exit with (the session has been ended). The picked contacts are
    /// resolved by id in the book of the sources, read again as `compose --ids` reads it (not in the
    /// picker's listing).
    static func run(
        _ picked: [FormattedContact], composer: PickComposer, listOptions: ListOptions, locale: String,
        session: TerminalSession
    ) throws -> ExitCode? {
        // Its diagnostics and progress go to the terminal's own screen, not over the picker's.
        let selection = try session.handOver {
            let book = try readSources(listOptions.sources).book
            let contacts = try groupMembers(of: book, group: listOptions.group)
            let config = listOptions.configuration(keywords: false)
            let selection = try SelectionController(contacts: contacts) { $0 = config }
            try selection.select(picked)
            return selection
        }
        let size = session.size
        let preview = try CampaignPreview(
            selection: selection, campaign: composer.campaign, library: composer.library, text: composer.text,
            delivery: composer.delivery.given ? composer.delivery.delivery : nil, locale: locale)
        let sheet = ComposeSheet(content: preview, locale: locale, columns: size.columns, lines: size.lines)
        let action = session.run(sheet, fileExtension: preview.editableFileExtension)
        guard action == .send || action == .cancel else { return nil }
        session.end()
        return action == .cancel ? .interrupted : try send(preview, composer: composer, locale: locale)
    }

    /// Before the list opens: when the delivery options can carry none of the messages `mode` makes (none
    /// was given, say), shows the documented alert with the options that would add a way to send, until
    /// OK (Enter, Esc, Space, o) or Ctrl-C; then ends the session and returns the usage error to exit with.
    /// Nil, with nothing shown, when the messages can go somewhere (or nothing is composed).
    static func alertBeforeList(
        _ composer: PickComposer?, mode: SelectionMode, locale: String, session: TerminalSession
    ) -> CLIError? {
        guard let composer,
            var alert = ComposeAlert.noTransport(
                mode: mode, through: composer.delivery.given ? composer.delivery.delivery : nil, locale: locale)
        else { return nil }
        alert.detail = DeliveryRequest.transportOptions(mail: mode.contains(.email), texts: mode.contains(.messages))
        session.show(alert.pickerAlert, locale: locale)
        session.end()
        return CLIError.usage(
            "\(PickCommand.name): \(alert.line) Add one of: \(alert.detail ?? "") (see 'contacts pick --help')")
    }

    /// Delivers the sheet's messages through the library's one campaign path, as `compose` does with the
    /// same options (printing the same lines, the progress bar on stderr and the summary), after the
    /// session ended: a server, sendmail or the SMS program only with `--send`, else a dry run that prints
    /// what would be sent.
    static func send(_ preview: CampaignPreview, composer: PickComposer, locale: String) throws -> ExitCode {
        let options = composer.delivery
        let sending = options.sending
        let stop = OutboxStop()
        if sending.sendsThroughOutbox { Interrupts.watch(stop) }
        defer { Interrupts.unwatch() }
        return try ComposeDelivery.run(options: options, command: PickCommand.name, locale: locale) {
            events throws(ComposerError) in
            try preview.deliver(sending: sending, stop: stop, events: events)
        }
    }
}
