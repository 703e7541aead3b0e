import Foundation
import PackagePlugin

/// Compiles the documentation's examples into the target it is applied to: README.md and Documentation/*.md, the DocC articles
/// and the `///` comments of every library target the target depends on (see DocSnippetExtractor). Only those
/// modules are imported: a library the target does not depend on may not be built yet when it compiles.
@main
struct DocSnippets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        var inputs = [root.appending(path: "README.md")]
        // The user's guide beside it: Documentation/*.md.
        let guide = root.appending(path: "Documentation")
        let pages = (try? FileManager.default.contentsOfDirectory(at: guide, includingPropertiesForKeys: nil)) ?? []
        inputs += pages.filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
        var imports: [String] = []
        for case let module as SwiftSourceModuleTarget in target.recursiveTargetDependencies
        where module.kind == .generic {
            guard module.moduleName != "TestSupport" else { continue }
            imports += ["--import", module.moduleName]
            for file in module.sourceFiles where file.url.pathExtension == "swift" { inputs.append(file.url) }
            // DocC articles: `<Module>.docc/*.md` beside the sources.
            let catalogs =
                (try? FileManager.default.contentsOfDirectory(
                    at: module.directoryURL, includingPropertiesForKeys: nil)) ?? []
            for catalog in catalogs where catalog.pathExtension == "docc" {
                let articles =
                    (try? FileManager.default.contentsOfDirectory(
                        at: catalog, includingPropertiesForKeys: nil)) ?? []
                inputs += articles.filter { $0.pathExtension == "md" }
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "DocumentationExamples.swift")
        return [
            .buildCommand(
                displayName: "Collecting documentation examples",
                executable: try context.tool(named: "DocSnippetExtractor").url,
                arguments: [output.path] + imports + inputs.map(\.path),
                inputFiles: inputs, outputFiles: [output])
        ]
    }
}
