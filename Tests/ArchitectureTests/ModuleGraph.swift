import Foundation

/// The package as written: each target's declared dependencies (Package.swift) and each module's `import`
/// lines (every Swift file under Sources/), read as text so that nothing has to be built to check them.
struct ModuleGraph {
    /// The package's folder (three levels above this file).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A Swift file under Sources/: its module (the folder below Sources), its path from the package's folder
    /// and its lines.
    struct SourceFile {
        var module: String
        var path: String
        var lines: [String]
        /// The modules its import lines name.
        var imports: Set<String>

        init(module: String, path: String, lines: [String]) {
            self.module = module
            self.path = path
            self.lines = lines
            imports = Set(ModuleGraph.imports(in: lines))
        }
    }

    /// "Target → dependency" as Package.swift declares it (targets of every kind, tests included).
    var declared: Set<Edge> = []
    /// "Module → imported module" as the import lines of Sources/ say.
    var imported: Set<Edge> = []
    /// Every Swift file under Sources/.
    var sources: [SourceFile] = []

    struct Edge: Hashable, Comparable, CustomStringConvertible {
        var from: String
        var to: String
        var description: String { "\(from) → \(to)" }
        static func < (a: Edge, b: Edge) -> Bool { a.description < b.description }
    }

    /// The package in `root` as written.
    init(root: URL = ModuleGraph.root) throws {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        self.init(
            manifest: manifest, sources: try Self.swiftFiles(under: root.appendingPathComponent("Sources"), root: root))
    }

    /// A package of this manifest text and these files.
    init(manifest: String, sources: [SourceFile]) {
        declared = Self.declaredDependencies(manifest)
        self.sources = sources
        for file in sources {
            for module in file.imports { imported.insert(Edge(from: file.module, to: module)) }
        }
    }

    /// `.target(name: "A", dependencies: ["B", .product(name: "C", …)] …)`: A → B and A → C, for every kind
    /// of target (each call's text runs to the next target's call).
    static func declaredDependencies(_ manifest: String) -> Set<Edge> {
        let starts = manifest.ranges(of: /\.(target|executableTarget|testTarget|systemLibrary|plugin|macro)\(/)
            .map(\.lowerBound)
        var edges: Set<Edge> = []
        for (k, start) in starts.enumerated() {
            let body = String(manifest[start..<(k + 1 < starts.count ? starts[k + 1] : manifest.endIndex)])
            guard let name = firstQuoted(after: "name:", in: body),
                let list = bracketed(after: "dependencies:", in: body)
            else { continue }
            for dependency in quoted(in: list) where dependency != name {
                edges.insert(Edge(from: name, to: dependency))
            }
        }
        return edges
    }

    /// The modules a file imports: `import X`, `@testable import X`, `internal import X`, `import struct X.Y`,
    /// also inside `#if`; not in comments or multi-line string literals.
    static func imports(in lines: [String]) -> [String] {
        var modules: [String] = []
        for (_, line) in codeLines(lines) {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            if let first = words.first, ["public", "package", "internal", "fileprivate", "private"].contains(first) {
                words.removeFirst()
            }
            guard words.count >= 2, words[0] == "import" else { continue }
            var name = words[1]
            if ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"].contains(name),
                words.count >= 3
            {
                name = words[2]
            }
            modules.append(String(name.split(separator: ".")[0]))
        }
        return modules
    }

    /// The lines that are code (outside `//` comments and multi-line string literals), trimmed, with their
    /// line numbers.
    static func codeLines(_ lines: [String]) -> [(number: Int, text: String)] {
        var inString = false
        var code: [(number: Int, text: String)] = []
        for (index, raw) in lines.enumerated() {
            let line = String(raw.drop { $0 == " " || $0 == "\t" })
            let quotes = line.contains("\"\"\"") ? line.components(separatedBy: "\"\"\"").count - 1 : 0
            if inString {
                if quotes % 2 == 1 { inString = false }
                continue
            }
            if line.hasPrefix("//") { continue }
            if quotes % 2 == 1 { inString = true }
            code.append((index + 1, line))
        }
        return code
    }

    static func swiftFiles(under folder: URL, root: URL) throws -> [SourceFile] {
        let prefix = folder.path + "/"
        guard let walk = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var files: [SourceFile] = []
        for case let relative as String in walk where relative.hasSuffix(".swift") {
            let path = prefix + relative
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var lines = text.components(separatedBy: "\n")
            if lines.last == "" { lines.removeLast() }
            files.append(
                SourceFile(
                    module: String(relative.split(separator: "/")[0]),
                    path: String(path.dropFirst(root.path.count + 1)), lines: lines))
        }
        return files.sorted { $0.path < $1.path }
    }

    private static func firstQuoted(after label: String, in text: String) -> String? {
        guard let at = text.range(of: label) else { return nil }
        return quoted(in: String(text[at.upperBound...])).first
    }

    /// The text between the `[` after `label` and its matching `]`.
    private static func bracketed(after label: String, in text: String) -> String? {
        guard let at = text.range(of: label), let open = text[at.upperBound...].firstIndex(of: "[") else {
            return nil
        }
        var depth = 0
        var index = open
        while index < text.endIndex {
            if text[index] == "[" { depth += 1 }
            if text[index] == "]" {
                depth -= 1
                if depth == 0 { return String(text[text.index(after: open)..<index]) }
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// Every "…" string in `text` (for `.product(name: "C", package: "p")`, both C and p).
    private static func quoted(in text: String) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
