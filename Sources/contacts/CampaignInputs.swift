import ArgumentModel
import Campaigns
import Composer
import Foundation
import StringsCatalog
import Templating

// What compose and pick read beside the book: the template library, the campaign's variables, and the
// folders and addresses of compose's options.

/// Loads the template library: the built-in one, or `--templates DIR` with `--strings DIR` for its words.
func loadTemplateLibrary(templates: String?, strings: String?, command: String) throws -> TemplateLibrary {
    let catalog: Catalog?
    if let strings {
        catalog = try StringsCommandSupport.renderingCatalog(strings, command: command)
    } else {
        do { catalog = try Catalog.bundled() } catch {
            throw CLIError.failure("\(command): cannot load the bundled strings catalog: \(error)")
        }
    }
    do {
        return try loadLibrary(templates, catalog: catalog)
    } catch {
        throw CLIError.failure("\(command): cannot load templates: \(error)")
    }
}

/// Reads a JSON object of campaign variables (`Campaign.variables(json:file:)`).
func loadCampaignData(_ path: String, command: String) throws -> [String: MustacheValue] {
    let bytes = [UInt8](try readInput(path, command: command))
    do { return try Campaign.variables(json: bytes, file: path) } catch {
        throw CLIError.failure("\(command): \(error)")
    }
}

/// The folder `path` names, which must exist (a usage error naming `option` otherwise).
func existingFolder(_ path: String, option: String) throws -> URL {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw CLIError.usage("compose: \(option): \(path): not a folder")
    }
    return URL(fileURLWithPath: path)
}

/// The addresses of a repeated address option (each value one address or a `,`/`;`-separated list).
func addressOptions(_ values: [String], _ option: String) throws -> [MailAddress] {
    do { return try values.flatMap { try MailAddress.list(parsing: $0) } } catch {
        throw CLIError.usage("compose: \(option): \(error)")
    }
}
