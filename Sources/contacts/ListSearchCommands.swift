import ArgumentModel
import Collation
import ContactsCore
import ContactsSelection
import Foundation
import Locales
import Support
import TerminalUI

enum ListCommand: Command {
    static let name = "list"
    static let summary = "List an address book sectioned for a locale"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Lists the contacts that have what the mode needs (a phone for messages, an email for email),
            without duplicates, sorted and sectioned for the locale, each with the value it would be reached at.
            """,
        options: ListOptions.options + [ListFormat.option],
        examples: [
            "contacts list --locale sv", "contacts list --source friends.vcf --mode email --json",
            "contacts list --mode email --format tsv | cut -f1,2",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let options = try ListOptions.parse(&args)
        _ = try args.positionals(max: 0, names: "no arguments (use --source FILE)")
        if let format = try ListFormat.parse(&args, json: options.json) {
            let listing = try ListFormat.print(options, format: format, query: "", keywords: false)
            noteOtherChannel(listing, mode: options.mode)
            return .ok
        }
        let (source, sourced) = try options.sourcedListing()
        try printListing(source, source.search("", keywords: nil, refining: nil), json: options.json, sources: sourced)
        noteOtherChannel(source, mode: options.mode)
        _ = Unmanaged.passRetained(source as AnyObject)  // the process ends now: no teardown of every row
        return .ok
    }
}

enum SearchCommand: Command {
    static let name = "search"
    static let summary = "Search an address book (plain or keywords)"
    static let spec = CommandSpec(
        name: name, summary: summary,
        discussion: """
            Plain search: the query, folded for case, accents and width, is part of the name (or nickname,
            organization, Pinyin or initials of a Chinese name, Hangul initial consonants, an email, the digits
            of a phone number). --keywords: every word of the query starts a word of the contact, in any order.
            Results are sectioned like 'contacts list'.
            """,
        options: ListOptions.options + [
            .flag("--keywords", help: #"keyword search ("f b" finds Felipe Baytelman and Bruno Finstein)"#),
            ListFormat.option,
        ],
        arguments: [ArgumentSpec("QUERY", help: "what to look for", required: true)],
        examples: [
            "contacts search hele", #"contacts search "f b" --keywords --json"#, "contacts search zj --locale zh-Hans",
        ])

    static func run(_ args: inout Arguments) throws -> ExitCode {
        let keywords = args.flag("--keywords")
        let options = try ListOptions.parse(&args)
        let positionals = try args.positionals(max: 1, names: "one QUERY")
        guard let query = positionals.first else { throw CLIError.usage("search: missing QUERY") }
        if let format = try ListFormat.parse(&args, json: options.json) {
            let listing = try ListFormat.print(options, format: format, query: query, keywords: keywords)
            noteOtherChannel(listing, mode: options.mode)
            return .ok
        }
        let (source, sourced) = try options.sourcedListing(keywords: keywords)
        try printListing(
            source, source.search(query, keywords: keywords, refining: nil), json: options.json, sources: sourced)
        noteOtherChannel(source, mode: options.mode)
        _ = Unmanaged.passRetained(source as AnyObject)  // the process ends now: no teardown of every row
        return .ok
    }
}
