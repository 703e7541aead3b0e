import ArgumentModel
import ContactsCore
import ContactsSelection
import Foundation

/// `contacts duplicates [--source …] [--json]`
enum DuplicatesCommand: Command {
    static let name = "duplicates"
    static let summary = "List groups of contacts that are likely the same person"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Groups contacts linked by the same email address (any case), the same phone number (written in
            any way: compared in E.164 form, numbers without a country code read with --region), the same
            name after folding case, accents and width and transliterating to Latin (Борис Иванов is Boris
            Ivanov, words in any order), or a nickname that is another's given name with the same family
            name. A value shared by more than 20 contacts (a switchboard, a common name) links no one.
            Each group is a line 'SCORE<TAB>REASONS', then '<TAB>ID<TAB>NAME' per contact and an empty
            line; the surest groups first. Merge a group with 'contacts merge ID ID… --source …'.
            Exits 1 when there is none.
            """,
        options: [
            ListOptions.options[0], ListOptions.regionOption,
            .flag("--json", help: #"[{"score", "reasons": [String], "contacts": [{"id", "name"}]}]"#),
        ],
        examples: [
            "contacts duplicates --source contacts.vcf",
            "contacts duplicates --source work.vcf --source friends.vcf --json",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        _ = try args.positionals(max: 0, names: "no arguments")
        let region = try parseRegion(&args)
        let json = args.flag("--json")
        let book = try readSources(try args.options("--source")).book
        let groups = try DuplicateFinder.groups(in: book.contacts, region: region)
        var out = Output()
        out.write(DuplicateFinder.report(groups, contacts: book.contacts, json: json))
        out.flush()
        return groups.isEmpty && !json ? .failure : .ok
    }
}

/// `contacts merge ID ID… --source … [--into ID] [--undo-file FILE]`, `contacts merge --undo FILE`
enum MergeCommand: Command {
    static let name = "merge"
    static let summary = "Merge contacts into one without losing a value (undoable)"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Merges the contacts into the card of --into (default: the first ID): every email, phone, address,
            URL, category and other property of the others that it lacks is added (emails compared without
            case, phones by their digits; grouped lines such as item1.EMAIL with their label travel
            together); a single-valued property (FN, N, BDAY, ANNIVERSARY, GENDER, KIND) that differs is kept
            in a NOTE line 'Merged from NAME (ID): PROP VALUE'. The kept card's own lines stay byte for byte;
            the other cards are removed (in a vdir, their files). Every write is atomic.
            Before anything is written, an undo file is created (--undo-file, default
            contacts-merge-ID-TIME.undo.json in the current folder); 'contacts merge --undo FILE' puts every
            byte back, unless a file changed since the merge (then nothing is written).
            """,
        options: [
            {
                var source = EditOptions.source
                source.isRequired = false
                source.help = "the vCard file or vdir folder of the contacts (not with --undo)"
                return source
            }(),
            ListOptions.regionOption,
            .option("--into", value: "ID", help: "the contact that keeps its card (default: the first ID)"),
            .option("--undo-file", value: "FILE", help: "where to record the undo (a new file)", completion: .file),
            .option(
                "--undo", value: "FILE", help: "restore the contacts of a merge from its undo file", completion: .file),
        ],
        arguments: [ArgumentSpec("ID", help: "the contacts to merge (two or more)", repeated: true)],
        examples: [
            "contacts merge felipe-baytelman bruno-finstein --source contacts.vcf",
            "contacts merge felipe-baytelman bruno-finstein --source contacts.vcf --into bruno-finstein --undo-file merge.json",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let ids = try args.positionals(max: Int.max, names: "ID")
        if let undoFile = try args.option("--undo") {
            guard ids.isEmpty else { throw CLIError.usage("merge: --undo FILE takes no ID") }
            let undo = try EditOptions.run(name) { try MergeUndo(contentsOf: undoFile) }
            try EditOptions.run(name) { try undo.restore() }
            print("restored \(([undo.kept] + undo.merged).joined(separator: ", ")) in \(undo.source)")
            return .ok
        }
        guard ids.count >= 2 else { throw CLIError.usage("merge: expected two or more IDs (or --undo FILE)") }
        let editor = try EditOptions.editor(&args)
        let into = try args.option("--into")
        if let into, !ids.contains(into) { throw CLIError.usage("merge: --into \(into) is not one of the IDs") }
        let undoFile = try args.option("--undo-file") ?? MergeUndo.defaultFileName(kept: into ?? ids[0])
        let undo = try EditOptions.run(name) { try editor.merge(ids: ids, into: into, undoFile: undoFile) }
        print(
            "merged \(undo.merged.joined(separator: ", ")) into \(undo.kept); undo: contacts merge --undo \(undoFile)")
        return .ok
    }
}
