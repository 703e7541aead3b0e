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
        o.line(
            "\(report.updated) updated, \(report.unchanged) unchanged, \(report.problems.count) skipped\(dry ? " (dry run, nothing written)" : "")"
        )
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

    static func folder(_ path: String?, command: String) throws -> (URL, String) {
        let path = path ?? "Localizations"
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw CLIError.usage("\(command): no such folder: \(path)")
        }
        guard isDir.boolValue else { throw CLIError.usage("\(command): \(path) is not a folder") }
        return (URL(fileURLWithPath: path), path)
    }

    /// What to do with files that could not be read at all.
    enum Unreadable {
        /// The caller reports them (lint lists them among its findings).
        case keep
        /// Report them on stderr and go on; the command exits 1 (status).
        case report
        /// Report them and stop before anything is written or exported.
        case refuse
    }

    /// Loads the folder's localizations (searched through its subfolders). A folder with none at all is an
    /// error (exit 1) that says where the tool looked.
    static func load(_ path: String?, dev: String?, command: String, unreadable: Unreadable = .refuse) throws
        -> LocalizationFolder
    {
        let (url, display) = try folder(path, command: command)
        let folder: LocalizationFolder
        do {
            folder = try TerminalProgress.run("reading \(display)") {
                try LocalizationFolder(directory: url, displayRoot: display, developmentLanguage: dev ?? "en")
            }
        } catch {
            throw CLIError.failure("\(command): \(error)")
        }
        if folder.isEmpty { throw nothingFound(display, command: command) }
        if !folder.loadErrors.isEmpty && unreadable != .keep {
            for d in folder.loadErrors { printError("contacts: \(command): \(d)") }
            if unreadable == .refuse {
                let n = folder.loadErrors.count
                throw CLIError.failure(
                    "\(command): \(n) file\(n == 1 ? "" : "s") could not be read (see above); nothing done")
            }
        }
        return folder
    }

    /// The catalog a rendering command reads its words from (`--strings DIR`): a folder with no localization
    /// files, or one with a file that could not be read or has syntax errors, stops the command (exit 1)
    /// after each problem is printed with its file, line and column: drafts made from a damaged catalog
    /// would say the wrong thing.
    static func renderingCatalog(_ path: String, command: String) throws -> Catalog {
        let (url, display) = try folder(path, command: command)
        let catalog: Catalog
        do {
            catalog = try Catalog(directory: url)
        } catch {
            throw CLIError.failure("\(command): cannot read strings folder \(display): \(error)")
        }
        if catalog.files.isEmpty { throw nothingFound(display, command: command) }
        let errors = catalog.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else {
            for d in errors { printError("contacts: \(command): \(d)") }
            let files = Set(errors.map(\.file)).count
            throw CLIError.failure(
                "\(command): \(files) strings file\(files == 1 ? " has" : "s have") errors (see above; "
                    + "'contacts strings lint \(path)' lists them all); nothing done")
        }
        return catalog
    }

    static func nothingFound(_ display: String, command: String) -> CLIError {
        CLIError.failure(
            "\(command): no localization files in \(display): no <lang>.lproj folder with .strings or "
                + ".stringsdict files and no .xcstrings file, at any depth (hidden folders such as .build and "
                + ".git, DerivedData, Pods and node_modules are not searched)")
    }
}
