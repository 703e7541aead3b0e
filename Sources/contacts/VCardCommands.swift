import ArgumentModel
import Collation
import ContactsCore
import Foundation
import Locales
import Support
import TerminalUI

/// Reads FILE or stdin into an address book; a file with no card at all is a failure.
private func loadBook(_ path: String, command: String) throws -> AddressBook {
    let book = try readBook(path, command: command)
    if book.nothingRead {
        for d in book.diagnostics { printError(terminalSafe(d.description)) }
        throw nothingReadFailure(path, command: command)
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
            ListOptions.regionOption,
            .option("--locale", value: "TAG", help: "BCP 47 locale whose region subtag (en-GB: GB) is the default"),
        ],
        arguments: [
            ArgumentSpec("FILE|-", help: "the vCard file ('-' reads stdin)", required: true, completion: .file)
        ],
        examples: ["contacts vcard inspect --region US contacts.vcf"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let json = args.flag("--json")
        let regionOption = try parseRegion(&args)
        let locale = try args.option("--locale")
        let files = try args.positionals(max: 1, names: "FILE")
        guard let path = files.first else { throw CLIError.usage("vcard inspect: expected FILE or '-'") }
        let region =
            LocalePolicy.phoneRegion(
                explicit: regionOption, locale: environmentLocale(locale))
            ?? "ZZ"
        let failure = nothingReadFailure(path, command: name).message
        let book: AddressBook
        do {
            book = try readBook(path, command: name)
        } catch let error as CLIError where json && error.code == .failure {
            // --json answers in JSON also when nothing could be read (JSONEncoder's layout).
            var out = Output()
            out.line(
                "{\n  \"contacts\" : [\n\n  ],\n  \"diagnostics\" : [\n\n  ],\n  \"error\" : "
                    + JSONText.quoted(error.message) + "\n}")
            out.flush()
            throw error
        }
        let nothingRead = book.nothingRead
        if nothingRead && !json {
            for d in book.diagnostics { printError(terminalSafe(d.description)) }
            throw CLIError.failure(failure)
        }
        // Every number normalized up front by the phone-region rule (as `list` does): each distinct text
        // once, numbers in international form without libphonenumber, the others on all cores.
        let phoneCount = book.contacts.reduce(0) { $0 + $1.phones.count }
        let e164s = TerminalProgress.run("normalizing \(phoneCount) phone numbers") {
            PhoneNormalizer.shared.normalizePhones(of: book.contacts, region: region).map(\.e164)
        }
        var out = Output()
        var next = 0
        if json {
            // Streamed in the layout of JSONEncoder (pretty, sorted keys, slashes unescaped): nothing is
            // built in memory but the output buffer.
            out.write("{\n  \"contacts\" : [")
            for (n, c) in book.contacts.enumerated() {
                out.write(n == 0 ? "\n    {\n" : ",\n    {\n")
                writeJSONArray(&out, "emails", c.emails.map { JSONText.quoted($0.value) })
                out.write(",\n")
                writeJSONArray(&out, "groups", book.groups(containing: c.id).map { JSONText.quoted($0.name) })
                out.write(",\n      \"id\" : " + JSONText.quoted(c.id))
                out.write(",\n      \"name\" : " + JSONText.quoted(c.displayName) + ",\n")
                writeJSONArray(&out, "phones", c.phones.map { JSONText.quoted($0.value) })
                out.write(",\n")
                let numbers = e164s[next..<(next + c.phones.count)]
                next += c.phones.count
                writeJSONArray(&out, "phonesE164", numbers.map { $0.map(JSONText.quoted) ?? "null" })
                out.write("\n    }")
            }
            out.write(book.contacts.isEmpty ? "\n\n  ],\n  \"diagnostics\" : [" : "\n  ],\n  \"diagnostics\" : [")
            for (n, d) in book.diagnostics.enumerated() {
                out.write(n == 0 ? "\n    {\n" : ",\n    {\n")
                if let column = d.column { out.write("      \"column\" : \(column),\n") }
                out.write("      \"line\" : \(d.line),\n      \"message\" : " + JSONText.quoted(d.message) + "\n    }")
            }
            out.write(book.diagnostics.isEmpty ? "\n\n  ]" : "\n  ]")
            // Why nothing could be read, as the last key (JSONEncoder's sorted order).
            if nothingRead { out.write(",\n  \"error\" : " + JSONText.quoted(failure)) }
            out.line("\n}")
            if nothingRead {
                out.flush()
                throw CLIError.failure(failure)
            }
        } else {
            for c in book.contacts {
                out.line("\(terminalSafe(c.id))  \(c.displayName.isEmpty ? "(no name)" : terminalSafe(c.displayName))")
                for e in c.emails { out.line("  email: \(terminalSafe(e.value))\(labelSuffix(e.label))") }
                for p in c.phones {
                    let e164 = e164s[next]
                    next += 1
                    out.line("  phone: \(terminalSafe(p.value))\(e164.map { " (\($0))" } ?? "")\(labelSuffix(p.label))")
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

    /// `      "name" : [ items ]` at the depth of a contact's members, as JSONEncoder lays it out.
    private static func writeJSONArray(_ out: inout Output, _ name: String, _ items: [String]) {
        out.write("      \"" + name + "\" : [")
        if items.isEmpty {
            out.write("\n\n      ]")
            return
        }
        for (n, item) in items.enumerated() { out.write((n == 0 ? "\n        " : ",\n        ") + item) }
        out.write("\n      ]")
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
