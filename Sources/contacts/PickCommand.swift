import ArgumentModel
import ContactsCore
import ContactsSelection
import Foundation
import ICUKit
import PickerModel
import Support
import TerminalUI

/// `contacts pick`: the full-screen picker. The screen is drawn on `/dev/tty`; the result goes to stdout,
/// so `contacts pick | …` works as fzf does.
enum PickCommand: Command {
    static let name = "pick"
    static let summary = "Pick contacts in a full-screen list (the result on stdout)"
    static let outputs = ContactPrinter.Format.rowFormats.map(\.rawValue)
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            A sectioned list with a search field and the section index, drawn on the terminal (/dev/tty).
            Type to search (words in any order; fzf's 'exact ^prefix suffix$ !not), ? (empty search) or F1
            shows every key, ↑ ↓ PgUp PgDn Home End move, Tab toggles and moves down, Shift-Tab toggles and
            moves up; the search text edits as in readline (← → Ctrl-B Ctrl-F Alt-B Alt-F Ctrl-A Ctrl-E Ctrl-D
            Ctrl-K Ctrl-U Ctrl-W), and at its end (or start) those keys do the list's: Ctrl-F fuzzy search,
            Ctrl-K keyword search, Ctrl-A selects every enabled row shown, Ctrl-D deselects all, → or Ctrl-E
            chooses which phone or email of the row, Alt-letter jumps to that section, Ctrl-O shows the
            contact's card (every property; Esc goes back), Ctrl-T the groups of likely duplicates (as
            'contacts duplicates' finds them; Esc goes back), the mouse
            toggles (click), scrolls (wheel) and jumps (index); Enter selects (the row under the cursor when
            none is toggled), Esc or Ctrl-C cancels (nothing printed, exit 130), Ctrl-Z suspends.
            The selection is printed in the order it was selected (as fzf). --output: lines (an RFC 5322
            address a line, '"Smith, John" <john@example.org>', the name quoted when it has a comma, dot or
            quote; a number as 'Name <+15550100>'), json ([{"channel", "id", "name", "value"}]), ids (ID,ID,…
            for 'compose --ids'), tsv (name<TAB>value<TAB>id), vcard. Enter on a pinned row prints its id ([{"pin": ID}] with --output
            json). --json is --output json; with another --output it is an error. Fax and pager numbers are
            never offered for text messages. --enable RULE dims the contacts that fail RULE: terms joined by
            ',' — has:photo|email|phone|birthday|nickname|org, group:NAME (the groups of --group; an unknown
            one is an error), lang:TAG — each negated by '!'. NO_COLOR turns colour off. Without a
            terminal: exit 2.
            With --subject/--body (or --template), Select opens the compose sheet instead: each recipient's
            message as they will get it (← → pages, ↑ ↓ PgUp PgDn scroll), e edits the subject and body in
            $VISUAL or $EDITOR, s delivers as 'compose' does with the same options (--out, --maildir, --mbox
            and --uri write at once; --smtp, --sendmail and --sms-program send only with --send, else s
            prints what would be sent; --send needs --source), Esc goes back to the list; without a delivery
            that can carry the messages it shows the documented alert; when the delivery options can carry
            none of what the mode makes (none given, say), that alert comes before the list opens, names
            the options that would add a way to send, and OK ends pick (exit 2).
            For example: contacts pick --mode email --output json;
            contacts compose --ids "$(contacts pick --output ids)" --out drafts.
            """,
        options: ListOptions.options.map { option in
            guard option.name == "--json" else { return option }
            var json = option
            json.help =
                #"the same as --output json ([{"channel", "id", "name", "value"}]); another --output is an error"#
            return json
        } + [
            .flag("--keywords", help: "start in keyword search (Ctrl-K toggles it)"),
            .flag("--single", help: "pick one contact: Enter prints it at once (no toggling)"),
            .option("--output", help: "what is printed for the selection (default: lines)", allowed: outputs),
            .option("--title", value: "T", help: "the title bar's title (default: the localized 'Search contacts')"),
            .option("--info", value: "TEXT", help: "a line under the title bar, kept while searching"),
            .option("--select-title", value: "T", help: "the select button's title (default: the localized 'Select')"),
            .flag("--no-title-bar", help: "hide the title bar (Cancel, title, Select (n))"),
            .option(
                "--tint", help: "the accent colour (ignored with NO_COLOR)", allowed: TerminalSession.colors),
            .option("--enable", value: "RULE", help: "contacts failing RULE are dimmed and cannot be selected"),
            .repeated(
                "--pin", value: "ID=TITLE",
                help: #"a row above the list; Enter on it prints ID ([{"pin": ID}] with --output json)"#),
        ] + PickComposer.options + PickListOptions.options,
        examples: ["TERM=dumb contacts pick  # a terminal that cannot move its cursor cannot show it [exit 2]"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let keywords = args.flag("--keywords")
        let single = args.flag("--single")
        let outputOption = try args.option("--output")
        let listOptions = try ListOptions.parse(&args)
        let composer = try PickComposer.parse(&args, listOptions: listOptions)
        // --json (of every listing command) is --output json; another --output beside it is an error.
        if listOptions.json, let outputOption, outputOption != "json" {
            throw CLIError.usage("pick: --json is --output json: give one of --json and --output \(outputOption)")
        }
        let output = listOptions.json ? "json" : outputOption ?? "lines"
        _ = try args.positionals(max: 0, names: "no arguments (use --source FILE)")
        var config = listOptions.configuration(keywords: keywords)
        config.title = try args.option("--title")
        config.selectButtonTitle = try args.option("--select-title")
        config.shouldShowNavigationBar = !args.flag("--no-title-bar")
        config.tintColor = try args.option("--tint")
        var rule: ContactRule?
        if let text = try args.option("--enable") {
            do { rule = try ContactRule(text) } catch { throw CLIError.usage("pick: --enable: \(error)") }
        }
        config.pinnedRows = try args.options("--pin").map { text in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw CLIError.usage("pick: --pin: expected ID=TITLE, got '\(text)'")
            }
            return PinnedRow(id: String(text[..<equals]), title: String(text[text.index(after: equals)...]))
        }
        var pickerOptions = PickerOptions(locale: config.locale)
        pickerOptions.info = try args.option("--info")
        pickerOptions.single = single
        pickerOptions.showsTitleBar = config.shouldShowNavigationBar
        let listAnswer = try PickListOptions.parse(&args, into: &pickerOptions, config: &config)

        // The saved index when there is a current one; else the book read, its progress shown at once. A
        // rule of --enable is the book's: its groups are those of --group (an unknown one is an error).
        let (listing, contacts): (any ContactListing, ContactLookup)
        if let rule {
            let book = try listOptions.sourcedBook().book
            do { config.contactEnabledValidation = try rule.resolved(in: book).validation } catch {
                throw CLIError.usage("pick: --enable: " + terminalSafe(error.description))
            }
            let source = try listOptions.dataSource(book: book, config: config)
            (listing, contacts) = (source, .dataSource(source))
        } else {
            (listing, contacts) = try listOptions.openedListing(config: config, progressAfter: 0)
        }
        let selection = SelectionController(listing: listing, configuration: config, contacts: contacts)
        if let code = try listAnswer.answer(selection, pickerOptions, output: output) { return code }
        // A book the mode lists no one of, that the other channel would: said on stderr (seen when the
        // picker ends) and on the picker's info line.
        if let note = noteOtherChannel(listing, mode: config.mode), pickerOptions.info == nil {
            pickerOptions.info = note
        }

        let session: TerminalSession
        do {
            session = try TerminalSession(tint: config.tintColor, environment: ProcessInfoEnvironment.current)
        } catch let error as TerminalError {
            throw CLIError.usage("pick: \(error)")
        }
        // A composer with no way to send what the mode makes says so before anyone is picked.
        if let error = PickComposeSheet.alertBeforeList(
            composer, mode: config.mode, locale: config.locale, session: session)
        {
            throw error
        }
        let outcome: PickerOutcome
        do {
            defer { session.end() }
            let size = session.size
            let picker = ContactPicker(
                selection: selection, options: pickerOptions, columns: size.columns, lines: size.lines)
            // A selection goes to the compose sheet first: back to the list, or the process exits with its code.
            outcome = try session.run(picker) { outcome in
                guard let composer, case .selected(let contacts) = outcome else { return false }
                guard
                    let code = try PickComposeSheet.run(
                        contacts, composer: composer, listOptions: listOptions, locale: config.locale, session: session)
                else { return true }
                session.end()
                exit(code.rawValue)
            }
        }
        switch outcome {
        case .cancelled:
            return .interrupted
        case .pinned(let id):
            var out = Output()
            out.write(
                ContactPrinter(ContactPrinter.Format(rawValue: output) ?? .lines, formatter: .terminal).pinned(id))
            out.flush()
        case .selected(let contacts):
            try printPicked(contacts, output: output, lookup: selection.contacts)
        }
        return .ok
    }

    /// Prints the picked contacts in the `--output` format (``ContactPrinter``; `vcard` looks their cards
    /// up by id), in the order they were picked.
    static func printPicked(_ contacts: [FormattedContact], output: String, lookup: ContactLookup) throws {
        var out = Output()
        do {
            try ContactPrinter(ContactPrinter.Format(rawValue: output) ?? .lines, formatter: .terminal).write(
                selection: contacts, contacts: lookup, to: &out)
        } catch {
            throw CLIError.failure("pick: \(error)")
        }
        out.flush()
    }
}
