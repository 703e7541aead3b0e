import ArgumentModel
import Foundation
import Locales
import StringsCatalog
import TerminalUI

/// `contacts strings …`: translator tools over `.strings`, `.stringsdict` and `.xcstrings` folders.
enum StringsCommandSupport {
    /// `--language L[,L…]` of the export commands, as BCP 47 (empty: every language).
    static func languages(_ args: inout Arguments) throws -> [String] {
        (try args.option("--language") ?? "").split(separator: ",").map {
            LocalePolicy.bcp47(fromLocalizationName: $0.trimmingCharacters(in: .whitespaces))
        }
    }

    /// The end of an import (`import-xliff`, `import-po`): its problems on stderr, the changed files written
    /// unless `dryRun`, a summary line; exit 1 when any entry was skipped.
    static func finishImport(
        _ report: XLIFF.ImportReport, folder: LocalizationFolder, dryRun dry: Bool, command name: String
    ) throws -> ExitCode {
        var o = Output()
        for p in report.problems { printError("contacts: \(name): \(p)") }
        try save(folder, dryRun: dry, output: &o, command: name)
        o.line(report.summary(dryRun: dry))
        o.flush()
        return report.problems.isEmpty ? .ok : .failure
    }

    /// Writes the folder's changed files unless `dryRun`, a "wrote PATH" line for each.
    static func save(_ folder: LocalizationFolder, dryRun: Bool, output o: inout Output, command name: String) throws {
        guard !dryRun else { return }
        do {
            for url in try folder.save() { o.line("wrote \(url.path)") }
        } catch {
            o.flush()
            throw CLIError.failure("\(name): \(error)")
        }
    }

    /// `--dev LANG` of the commands that compare languages.
    static let devOption = OptionSpec.option("--dev", value: "LANG", help: "the development language (default: en)")
    /// `[DIR]` of the commands that read a localizations folder.
    static let dirArgument = ArgumentSpec(
        "DIR", help: "the localizations folder, searched at any depth (default: ./Localizations)",
        completion: .directory)

    /// Runs `body`; a strings error becomes the command's failure (exit 1; a folder that is not there, exit 2)
    /// after the findings behind it are printed, each with its file, line and column.
    static func run<T>(_ command: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StringsCatalogError {
            for d in error.findings { printError("contacts: \(command): \(d)") }
            switch error {
            case .noSuchFolder, .notAFolder: throw CLIError.usage("\(command): \(error)")
            default: throw CLIError.failure("\(command): \(error)")
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.failure("\(command): \(error)")
        }
    }

    /// Loads the folder's localizations (searched through its subfolders) as
    /// `LocalizationFolder.init(at:developmentLanguage:unreadable:)` does; with `.report` the files that could
    /// not be read are printed on stderr.
    static func load(
        _ path: String?, dev: String?, command: String, unreadable: LocalizationFolder.UnreadableFiles = .refuse
    ) throws -> LocalizationFolder {
        let folder = try run(command) {
            let place = try LocalizationPlace(path)
            return try TerminalProgress.run("reading \(place.display)") {
                try LocalizationFolder(at: place, developmentLanguage: dev ?? "en", unreadable: unreadable)
            }
        }
        if unreadable == .report { for d in folder.loadErrors { printError("contacts: \(command): \(d)") } }
        return folder
    }

    /// The catalog a rendering command reads its words from (`--strings DIR`), refused when damaged
    /// (`Catalog.init(renderingFrom:)`).
    static func renderingCatalog(_ path: String, command: String) throws -> Catalog {
        try run(command) { try Catalog(renderingFrom: LocalizationPlace(path)) }
    }
}
