import Foundation
import Testing

@testable import StringsCatalog

/// `Catalog.formatMessage`: MessageFormat 2 values by MessageFormat 2, other values as ICU patterns.
@Suite struct CatalogMessagesTests {
    static let localizations = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/StringsCatalog/Localizations").standardized

    @Test func syntaxIsTheKeysOrTheValuesStart() {
        #expect(MessageSyntax(key: "others_mf2", value: "{$n} others") == .messageFormat2)
        #expect(MessageSyntax(key: "a.mf2", value: "plain") == .messageFormat2)
        #expect(MessageSyntax(key: "k", value: "\n  .input {$n :number} {{{$n}}}") == .messageFormat2)
        #expect(MessageSyntax(key: "k", value: ".local $x = {1} {{{$x}}}") == .messageFormat2)
        #expect(MessageSyntax(key: "k", value: ".match $n * {{x}}") == .messageFormat2)
        #expect(MessageSyntax(key: "k", value: "{{quoted}}") == .messageFormat1)
        #expect(MessageSyntax(key: "k_mf2", value: "{{quoted}}") == .messageFormat2)
        #expect(MessageSyntax(key: "k", value: "{n, plural, one {# file} other {# files}}") == .messageFormat1)
        #expect(MessageSyntax(key: "k", value: ".matched by nothing") == .messageFormat1)
    }

    @Test func theShippedMF2MessageFormatsInItsLanguage() throws {
        let catalog = try Catalog(directory: Self.localizations)
        let one = try catalog.formatMessage(
            "others_mf2", table: "invite", locale: "en", arguments: ["others_count": 1, "others_list": "Ada"],
            bidiIsolation: .none)
        #expect(one == FormattedMessage(text: "Ada is invited too.", errors: [], syntax: .messageFormat2))
        let missing = try catalog.formatMessage(
            "others_mf2", table: "invite", locale: "en", arguments: ["others_count": 1], bidiIsolation: .none)
        #expect(missing.text == "{$others_list} is invited too.")
        #expect(missing.errors.count == 1 && missing.errors[0].contains("unresolved-variable"))
        let subject = try catalog.formatMessage(
            "subject", table: "invite", locale: "de", arguments: ["inviter": "Ada", "project": "Atlas"])
        #expect(subject.syntax == .messageFormat1)
        #expect(subject.text == "Ada hat Sie zu Atlas eingeladen")
        #expect(throws: StringsCatalogError.missingKey(key: "nope", table: "invite", locale: "de")) {
            try catalog.formatMessage("nope", table: "invite", locale: "de", arguments: [:])
        }
    }

    @Test func brokenValuesAndPluralEntriesAreRefused() throws {
        var catalog = Catalog(developmentLanguage: "en")
        var table = Catalog.Table()
        table.strings["bad_mf2"] = ".match {{x}}"
        table.strings["bad"] = "{n, plural, one {x}"
        table.plurals["files"] = StringsDictEntry(key: "files", formatKey: "%#@n@")
        catalog.add(table, language: "en", table: "Localizable")
        for key in ["bad_mf2", "bad", "files"] {
            #expect(throws: StringsCatalogError.self) {
                try catalog.formatMessage(key, locale: "en", arguments: ["n": 1])
            }
        }
        do {
            _ = try catalog.formatMessage("bad_mf2", locale: "en", arguments: [:])
        } catch {
            #expect("\(error)".contains("MessageFormat 2 syntax error at line 1, column"), "\(error)")
        }
    }
}
