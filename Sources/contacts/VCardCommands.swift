import ArgumentModel
import ContactsCore
import Foundation

/// Reads FILE or stdin into an address book; a file with no card at all is a failure.
private func loadBook(_ path: String, command: String) throws -> AddressBook {
    let data = try readInput(path, command: command)
    let name = path == "-" ? "<stdin>" : path
    let book = AddressBook(data: data, fileName: name)
    if book.contacts.isEmpty && book.groups.isEmpty && !book.diagnostics.isEmpty {
        for d in book.diagnostics { printError(d.description) }
        throw CLIError.failure("\(command): no vCard could be read from \(name)")
    }
    return book
}

/// `contacts vcard inspect [--json] [--region CC] FILE|-`
enum VCardInspectCommand: Command {
    static let name = "vcard inspect"
    static let summary = "List the contacts, groups and problems of a vCard file"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Reads a vCard file (2.1, 3.0 or 4.0; '-' reads stdin) and prints each contact: id, name, emails,
            phones (with E.164 when the number parses) and groups. Problems in the file are listed as
            file:line:column: message (on stderr, or in "diagnostics" with --json).

            Exit codes: 0 the file was read (even with diagnostics), 1 nothing could be read, 2 usage.
            """,
        options: [
            .flag(
                "--json",
                help: """
                    {"contacts": [{"id", "name", "emails", "phones", "phonesE164", "groups"}],
                     "diagnostics": [{"line", "column", "message"}]}, also on exit 1 (then with
                    "error": why nothing could be read)
                    """),
            .option(
                "--region", value: "CC",
                help: """
                    default region for numbers without a country code (e.g. US, DE);
                    default: the region of --locale / $LANG
                    """),
            .option("--locale", value: "TAG", help: "BCP 47 locale whose region is the default"),
        ],
        arguments: [
            ArgumentSpec("FILE|-", help: "the vCard file ('-' reads stdin)", required: true, completion: .file)
        ],
        examples: ["contacts vcard inspect --region US contacts.vcf"])

    struct JSONContact: Encodable {
        var id: String
        var name: String
        var emails: [String]
        var phones: [String]
        var phonesE164: [String?]
        var groups: [String]
    }

    struct JSONDiagnostic: Encodable {
        var line: Int
        var column: Int?
        var message: String
    }

    struct JSONReport: Encodable {
        var contacts: [JSONContact]
        var diagnostics: [JSONDiagnostic]
        /// Why nothing could be read (exit 1); absent otherwise.
        var error: String?
    }

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let json = args.flag("--json")
        let regionOption = try args.option("--region")
        let locale = try args.option("--locale")
        let files = try args.positionals(max: 1, names: "FILE")
        guard let path = files.first else { throw CLIError.usage("vcard inspect: expected FILE or '-'") }
        let region = regionOption?.uppercased() ?? PhoneNumber.defaultRegion(forLocale: environmentLocale(locale))
        let data: Data
        do { data = try readInput(path, command: name) } catch let error as CLIError
            where json && error.code == .failure
        {
            // --json answers in JSON also when nothing could be read.
            var out = Output()
            out.line(try jsonString(JSONReport(contacts: [], diagnostics: [], error: error.message)))
            out.flush()
            throw error
        }
        let fileName = path == "-" ? "<stdin>" : path
        let book = AddressBook(data: data, fileName: fileName)
        let nothingRead = book.contacts.isEmpty && book.groups.isEmpty && !book.diagnostics.isEmpty
        let failure = "\(name): no vCard could be read from \(fileName)"
        if nothingRead && !json {
            for d in book.diagnostics { printError(d.description) }
            throw CLIError.failure(failure)
        }
        var out = Output()
        if json {
            let contacts = book.contacts.map { c in
                let numbers = c.phones.map { PhoneNumber.parse($0.value, region: region) }
                return JSONContact(
                    id: c.id, name: c.displayName, emails: c.emails.map(\.value),
                    phones: c.phones.map(\.value), phonesE164: numbers.map(\.e164),
                    groups: book.groups(containing: c.id).map(\.name))
            }
            let diagnostics = book.diagnostics.map {
                JSONDiagnostic(line: $0.line, column: $0.column, message: $0.message)
            }
            out.line(
                try jsonString(
                    JSONReport(contacts: contacts, diagnostics: diagnostics, error: nothingRead ? failure : nil)))
            if nothingRead {
                out.flush()
                throw CLIError.failure(failure)
            }
        } else {
            for c in book.contacts {
                out.line("\(terminalSafe(c.id))  \(c.displayName.isEmpty ? "(no name)" : terminalSafe(c.displayName))")
                for e in c.emails { out.line("  email: \(terminalSafe(e.value))\(labelSuffix(e.label))") }
                for p in c.phones {
                    let n = PhoneNumber.parse(p.value, region: region)
                    out.line(
                        "  phone: \(terminalSafe(p.value))\(n.e164.map { " (\($0))" } ?? "")\(labelSuffix(p.label))")
                }
                let groups = book.groups(containing: c.id).map(\.name)
                if !groups.isEmpty { out.line("  groups: \(terminalSafe(groups.joined(separator: ", ")))") }
            }
            out.line("\(book.contacts.count) contacts, \(book.groups.count) groups, \(book.diagnostics.count) problems")
            out.flush()
            for d in book.diagnostics { printError(terminalSafe(d.description)) }
        }
        out.flush()
        return .ok
    }

    private static func labelSuffix(_ label: ContactLabel) -> String {
        label == .unlabeled ? "" : " [\(terminalSafe(label.identifier))]"
    }
}

/// `contacts vcard convert --to 4.0|3.0 FILE|-`
enum VCardConvertCommand: Command {
    static let name = "vcard convert"
    static let summary = "Rewrite a vCard file as vCard 4.0 or 3.0"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Reads a vCard file (2.1, 3.0 or 4.0; '-' reads stdin) and writes every card to stdout as vCard 4.0
            (default) or 3.0: UTF-8, CRLF, folded at 75 octets. Properties it does not know are kept verbatim,
            except 3.0's PROFILE in 4.0 output. In 4.0 a UUID id is written as urn:uuid:…, another id that is not
            a URI as UID;VALUE=text.
            Problems in the input are listed on stderr as file:line:column: message.

            Exit codes: 0 converted (even with diagnostics), 1 nothing could be read, 2 usage.
            """,
        options: [
            .option(
                "--to", value: "4.0|3.0", help: "the vCard version to write (default: 4.0)",
                completion: .values(["4.0", "3.0"]))
        ],
        arguments: [
            ArgumentSpec("FILE|-", help: "the vCard file ('-' reads stdin)", required: true, completion: .file)
        ],
        examples: ["contacts vcard convert --to 3.0 old.vcf > new.vcf"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let target = try args.option("--to") ?? "4.0"
        let files = try args.positionals(max: 1, names: "FILE")
        guard let path = files.first else { throw CLIError.usage("vcard convert: expected FILE or '-'") }
        guard let version = VCardWriter.Version(rawValue: target) else {
            throw CLIError.usage("vcard convert: --to must be 4.0 or 3.0, not '\(target)'")
        }
        let book = try loadBook(path, command: name)
        VCardWriter.write(book, version: version) { FileHandle.standardOutput.write($0) }
        for d in book.diagnostics { printError(d.description) }
        return .ok
    }
}
