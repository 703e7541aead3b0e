import Foundation

/// `Benchmarks <area> [args…]`; `make bench` runs every area. Each area prints its figures and its ratio
/// against a baseline measured in the same run.
let areas: [(name: String, run: ([String]) throws -> Void)] = [
    ("collation", runCollationBench),
    ("vcard", runVCardBench),
    ("strings", runStringsBench),
    ("strings-tools", runStringsToolsBench),
    ("lint", runLintBench),
    ("templates", runTemplateBench),
    ("messageformat2", runMessageFormat2Bench),
    ("compose", runComposeBench),
    ("selection", runSelectionBench),
    ("inputs", runInputsBench),
    ("process", runProcessBench),
    ("carddav", runCardDAVBench),
    ("pick", runPickBench),
    ("duplicates", runDuplicatesBench),
    ("query", runQueryBench),
    ("floor", runFloorBench),
]

let arguments = Array(CommandLine.arguments.dropFirst())
let selected = arguments.first.map { name in areas.filter { $0.name == name } } ?? areas
if selected.isEmpty {
    FileHandle.standardError.write(
        Data("usage: Benchmarks [\(areas.map(\.name).joined(separator: "|"))] [args…]\n".utf8))
    exit(2)
}
for area in selected {
    do {
        try area.run(arguments.count > 1 && selected.count == 1 ? Array(arguments.dropFirst()) : [])
    } catch {
        FileHandle.standardError.write(Data("\(area.name): \(error)\n".utf8))
        exit(1)
    }
    print()
}
