import ArgumentModel
import Campaigns
import ContactsCore
import Foundation
import TerminalUI

/// `contacts vcard import SHEET.csv --into BOOK.vcf|DIR`
enum VCardImportCommand: Command {
    static let name = "vcard import"
    static let summary = "Turn a spreadsheet (CSV) of people into contacts"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Reads a CSV sheet as spreadsheets and address books export it (comma, semicolon or tab separated;
            UTF-8 with or without a BOM, or UTF-16 "Unicode text") and adds one contact per row with a new UID:
            cards appended to a vCard file (created when missing) or one new file per contact in a vdir
            folder; an existing card is never changed. Columns: email, name or given_name/family_name, phone,
            lang, and the headers of Google Contacts ("Given Name", "E-mail 1 - Value", "Phone 1 - Value"),
            Outlook ("First Name", "Last Name", "E-mail Address", "Mobile Phone") and Thunderbird exports.
            A row that cannot be read is named as FILE:LINE:COLUMN on stderr and skipped; the others are
            added. Prints the number of contacts added.

            Exit codes: 0 every row was added, 1 some rows were skipped or nothing could be written, 2 usage.
            """,
        options: [
            .option(
                "--into", value: "FILE.vcf|DIR", help: "the vCard file or vdir folder the contacts are added to",
                required: true, completion: .file)
        ],
        arguments: [
            ArgumentSpec("SHEET.csv|-", help: "the sheet ('-' reads stdin)", required: true, completion: .file)
        ],
        examples: [
            "contacts vcard import people.csv --into contacts.vcf",
            "contacts vcard import google-contacts.csv --into family",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        guard let into = try args.option("--into") else { throw CLIError.usage("\(name): missing --into") }
        let files = try args.positionals(max: 1, names: "SHEET")
        guard let path = files.first else { throw CLIError.usage("\(name): expected SHEET.csv or '-'") }
        let data = try readInput(path, command: name)
        let list: RecipientList
        do { list = try RecipientList(data: data, fileName: path) } catch {
            throw CLIError.failure("\(name): \(error)")
        }
        for d in list.diagnostics { printError(terminalSafe(d.description)) }
        let ids = try EditOptions.run(name) {
            try ContactEditor(source: ContactSource(path: into)).add(contacts: list.contacts())
        }
        print("\(ids.count) contact\(ids.count == 1 ? "" : "s") added to \(terminalSafe(into))")
        return list.skippedLines.isEmpty ? .ok : .failure
    }
}
