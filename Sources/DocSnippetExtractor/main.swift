import Foundation

// Collects the ```swift examples of the documentation (of internal API too: modules are imported
// @testable) — README.md, DocC articles (*.docc/*.md) and `///`
// comments in the sources — into one Swift file, each example the body of its own function, with
// `#sourceLocation` pointing back at the documentation line, so that an example that no longer compiles
// fails the build where it is written. A block opened with "```swift no-compile" is skipped (for a
// Package.swift fragment, say).
//
// Usage: DocSnippetExtractor OUTPUT.swift [--import MODULE]... FILE...

struct Snippet {
    var file: String
    var line: Int  // 1-based line of the first code line
    var code: [String]
}

/// The fenced ```swift blocks of `lines`; `prefix` strips the comment marker of doc comments ("///").
func snippets(in lines: [Substring], file: String, docComments: Bool) -> [Snippet] {
    var result: [Snippet] = []
    var open: Snippet?
    var indent = 0
    for (i, raw) in lines.enumerated() {
        var text = raw
        if docComments {
            let trimmed = text.drop(while: { $0 == " " || $0 == "\t" })
            guard trimmed.hasPrefix("///") else {
                open = nil  // a doc comment ended inside a block: not an example
                continue
            }
            text = trimmed.dropFirst(3)
            if text.first == " " { text = text.dropFirst() }
        }
        let fence = text.drop(while: { $0 == " " })
        if var current = open {
            if fence.hasPrefix("```") {
                result.append(current)
                open = nil
            } else {
                current.code.append(String(text.dropFirst(min(indent, text.prefix(while: { $0 == " " }).count))))
                open = current
            }
        } else if fence.hasPrefix("```swift") {
            let info = fence.dropFirst(3).split(separator: " ")
            if info.contains("no-compile") { continue }
            indent = text.count - fence.count
            open = Snippet(file: file, line: i + 2, code: [])
        }
    }
    return result
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard !arguments.isEmpty else {
    FileHandle.standardError.write(Data("usage: DocSnippetExtractor OUTPUT.swift [--import MODULE]... FILE...\n".utf8))
    exit(2)
}
let output = arguments.removeFirst()
var imports: [String] = []
var files: [String] = []
while !arguments.isEmpty {
    let a = arguments.removeFirst()
    if a == "--import", !arguments.isEmpty { imports.append(arguments.removeFirst()) } else { files.append(a) }
}
var all: [Snippet] = []
for path in files.sorted() {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("\(path): cannot read\n".utf8))
        exit(1)
    }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    all += snippets(in: lines, file: path, docComments: path.hasSuffix(".swift"))
}

var out = """
    // Generated from the documentation by DocSnippetExtractor: every ```swift example, compiled.
    // Do not edit: edit the example where #sourceLocation says it is.

    import Foundation
    #if canImport(FoundationXML)
    import FoundationXML
    #endif
    \(imports.sorted().map { "@testable import " + $0 }.joined(separator: "\n"))

    /// How many examples were compiled.
    let documentationExampleCount = \(all.count)

    """
// An example's `import` lines go to file scope (where a wrong module name still fails); the rest is the
// body of a function.
for (n, snippet) in all.enumerated() {
    for (i, line) in snippet.code.enumerated() where line.hasPrefix("import ") {
        out += "#sourceLocation(file: \"\(snippet.file)\", line: \(snippet.line + i))\n\(line)\n#sourceLocation()\n"
    }
    out += "\n"
    out += "func documentationExample\(n)() async throws {\n"
    out += "#sourceLocation(file: \"\(snippet.file)\", line: \(snippet.line))\n"
    for line in snippet.code { out += (line.hasPrefix("import ") ? "" : line) + "\n" }
    out += "#sourceLocation()\n}\n"
}
do {
    try Data(out.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("\(output): \(error.localizedDescription)\n".utf8))
    exit(1)
}
