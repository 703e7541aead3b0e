import ArgumentModel
import ContactsCore
import Foundation

/// What `add`, `edit` and `delete` share: the source to change and the property edits.
enum EditOptions {
    static let source = OptionSpec.option(
        "--source", value: "FILE.vcf|DIR",
        help: "the vCard file or vdir folder to change (a file that does not exist yet is created by add)",
        required: true, completion: .file)
    static let edits: [OptionSpec] = [
        .repeated(
            "--set", value: "PROP=VALUE",
            help: "replace every PROP line by this one (any property, X- ones too; PROP;TYPE=cell=VALUE for parameters)"
        ),
        .repeated("--add", value: "PROP=VALUE", help: "add a PROP line"),
        .repeated("--remove", value: "PROP[=VALUE]", help: "remove the PROP lines (those with VALUE only, when given)"),
        .repeated("--add-to-group", value: "NAME", help: "add to a group: its group card, else CATEGORIES"),
        ListOptions.regionOption,
    ]

    /// The editor of `--source`.
    static func editor(_ args: inout Arguments) throws -> ContactEditor {
        guard let path = try args.option("--source") else { throw CLIError.usage("\(args.command): missing --source") }
        let region = try parseRegion(&args)
        do { return try ContactEditor(source: ContactSource(path: path), region: region) } catch {
            throw CLIError.usage("\(args.command): \(error)")
        }
    }

    /// `--set`, `--add` and (when the command has it) `--remove`, in the order of their kinds: sets, then
    /// adds, then removals.
    static func edits(_ args: inout Arguments) throws -> [PropertyEdit] {
        do {
            let removals = args.spec.option("--remove") == nil ? [] : try args.options("--remove")
            return try args.options("--set").map(PropertyEdit.set(parsing:))
                + args.options("--add").map(PropertyEdit.add(parsing:))
                + removals.map(PropertyEdit.remove(parsing:))
        } catch let error as ContactsCoreError {
            throw CLIError.usage("\(args.command): \(error)")
        }
    }

    /// Runs a change, turning a library error into the tool's: a bad edit is a usage error (exit 2), an
    /// unknown id or a file that cannot be read or written a failure (exit 1). Nothing is written on error.
    static func run<T>(_ command: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ContactsCoreError {
            if case .invalidEdit = error { throw CLIError.usage("\(command): \(error)") }
            throw CLIError.failure("\(command): \(error)")
        }
    }
}

/// `contacts add --source DIR|FILE --given G --family F [--email E]… [--phone P]… [--set PROP=VALUE]…`
enum AddCommand: Command {
    static let name = "add"
    static let summary = "Add a contact to a vCard file or vdir folder"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Adds a contact with a new UID and prints its id. In a vdir folder it is a new file <UID>.vcf; in a
            vCard file it is a card added at the end, every other card kept byte for byte. Emails and phone
            numbers are checked (numbers without a country code need --region); --set adds any other property.
            The file is written atomically (a temporary file in the same folder, then renamed).
            """,
        options: [
            EditOptions.source, .option("--given", value: "NAME", help: "given name"),
            .option("--family", value: "NAME", help: "family name"),
            .repeated("--email", value: "ADDRESS", help: "an email address"),
            .repeated("--phone", value: "NUMBER", help: "a phone number"),
        ] + EditOptions.edits.filter { $0.name != "--remove" },
        examples: [
            "contacts add --source family --given Ada --family Lovelace --email ada@example.org",
            "contacts add --source contacts.vcf --given Ada --family Lovelace --phone '+44 20 7946 0000' --set X-TWITTER=@ada",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        _ = try args.positionals(max: 0, names: "no arguments")
        let editor = try EditOptions.editor(&args)
        let edits = try EditOptions.edits(&args)
        let given = try args.option("--given") ?? ""
        let family = try args.option("--family") ?? ""
        let emails = try args.options("--email")
        let phones = try args.options("--phone")
        let groups = try args.options("--add-to-group")
        let id = try EditOptions.run(name) {
            try editor.add(
                givenName: given, familyName: family, emails: emails, phones: phones, groups: groups, edits: edits)
        }
        print(id)
        return .ok
    }
}

/// `contacts edit ID --source … --set PROP=VALUE --add PROP=VALUE --remove PROP[=VALUE]`
enum EditCommand: Command {
    static let name = "edit"
    static let summary = "Change the properties of a contact"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Changes the card of contact ID (as 'contacts list --json' and 'vcard inspect' show it): --set
            replaces every line of a property, --add adds one, --remove removes them. Any property can be
            named, X- ones included; EMAIL, TEL, BDAY and ANNIVERSARY values are checked, and FN follows a
            changed N. Only the lines named change: the other lines of the card, with their parameters, and
            every other card or file stay byte for byte. Writes are atomic.
            """,
        options: [EditOptions.source] + EditOptions.edits,
        arguments: [ArgumentSpec("ID", help: "the contact's id", required: true)],
        examples: [
            "contacts edit felipe-baytelman --source contacts.vcf --set 'TEL;TYPE=cell=+1 415 555 0100' --add X-TWITTER=@felipe",
            "contacts edit bruno-finstein --source contacts.vcf --set 'N=Finstein;Bruno;;Dr.;' --add-to-group Friends",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let positionals = try args.positionals(max: 1, names: "one ID")
        guard let id = positionals.first else { throw CLIError.usage("edit: expected the contact's ID") }
        let editor = try EditOptions.editor(&args)
        let edits = try EditOptions.edits(&args)
        let groups = try args.options("--add-to-group")
        guard !edits.isEmpty || !groups.isEmpty else {
            throw CLIError.usage("edit: nothing to change (expected --set, --add, --remove or --add-to-group)")
        }
        try EditOptions.run(name) { try editor.edit(id: id, edits, addingToGroups: groups) }
        return .ok
    }
}

/// `contacts delete ID --source …`
enum DeleteCommand: Command {
    static let name = "delete"
    static let summary = "Delete a contact from a vCard file or vdir folder"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Removes the card of contact ID: from a vCard file (every other card kept byte for byte), or its
            file from a vdir folder. Writes are atomic.
            """,
        options: [EditOptions.source],
        arguments: [ArgumentSpec("ID", help: "the contact's id", required: true)],
        examples: ["contacts delete bruno-finstein --source contacts.vcf"])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let positionals = try args.positionals(max: 1, names: "one ID")
        guard let id = positionals.first else { throw CLIError.usage("delete: expected the contact's ID") }
        guard let path = try args.option("--source") else { throw CLIError.usage("delete: missing --source") }
        let editor: ContactEditor
        do { editor = try ContactEditor(source: ContactSource(path: path)) } catch {
            throw CLIError.usage("delete: \(error)")
        }
        try EditOptions.run(name) { try editor.delete(id: id) }
        return .ok
    }
}
