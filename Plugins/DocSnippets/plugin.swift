import Foundation
import PackagePlugin

/// Compiles the documentation's examples into the target it is applied to: README.md, the DocC articles
/// and the `///` comments of every library target (see DocSnippetExtractor).
@main
struct DocSnippets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        var inputs = [root.appending(path: "README.md")]
        var imports: [String] = []
        for case let module as SwiftSourceModuleTarget in context.package.targets where module.kind == .generic {
            guard module.moduleName != "TestSupport" else { continue }
            imports += ["--import", module.moduleName]
            for file in module.sourceFiles {
                let path = file.url.path
                if path.hasSuffix(".swift") || (path.contains(".docc/") && path.hasSuffix(".md")) {
                    inputs.append(file.url)
                }
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
