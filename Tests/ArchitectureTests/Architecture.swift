/// ARCHITECTURE.md's directions as data, and the check of a ``ModuleGraph`` against them.
enum Architecture {
    /// A forbidden edge: no module of `from` depends on (Package.swift) or imports a module of `to`.
    struct Rule {
        var from: [String]
        var to: [String]
        var why: String
    }

    static let rules: [Rule] = [
        Rule(from: ["TerminalUI"], to: ["Composer"], why: "TerminalUI knows terminals only"),
        Rule(
            from: ["PickerModel"], to: ["Composer", "Campaigns", "Templating", "TerminalUI"],
            why: "the view model knows the list model and gets rendered messages through a protocol"),
        Rule(
            from: ["ContactsSelection"], to: ["StringsCatalog", "PickerModel", "TerminalUI"],
            why: "the list model gets UI literals from its caller and never imports the view model"),
        Rule(
            from: ["Collation", "ContactsCore", "StringsCatalog", "Templating", "Composer"],
            to: ["ContactsSelection", "Campaigns", "PickerModel", "TerminalUI", "contacts"],
            why: "the libraries never import the list model, campaigns, the picker or the CLI"),
        Rule(
            from: ["Composer"], to: ["ContactsCore", "Templating", "StringsCatalog", "Collation"],
            why: "Composer knows nothing of contacts or templates; its callers localize its typed errors"),
        Rule(from: ["Templating"], to: ["Composer"], why: "the template engine knows nothing of mail"),
        Rule(from: ["ContactsCore"], to: ["CardDAV"], why: "ContactsCore never imports CardDAV"),
        Rule(from: ["CardDAV"], to: ["ContactsSelection"], why: "CardDAV knows ContactsCore, not lists"),
        Rule(from: ["MessageFormat2"], to: ["Templating"], why: "MessageFormat2 has no Templating import"),
    ]

    /// The one curl layer and its bridge: the only modules that may name curl.
    static let curlModules: Set<String> = ["CurlTransfer", "CCurl"]
    /// The platform's C library (Glibc, Musl, Darwin) comes through `import Foundation`, which re-exports it on
    /// every platform: no file imports it by name (one fence instead of the same `#if canImport` block in many).
    static let platformLibraries: Set<String> = ["Glibc", "Musl", "Darwin", "WinSDK", "Android"]
    static let maximumFileLines = 600
    static let maximumCLIFileLines = 300
    static let maximumCLILines = 2_500

    struct Violation: CustomStringConvertible {
        /// What is broken, the same wherever it occurs (the pending exceptions name these).
        var key: String
        /// Where, and the rule's reason.
        var detail: String
        var description: String { "\(key): \(detail)" }
    }

    static func violations(in graph: ModuleGraph) -> [Violation] {
        var found: [Violation] = []
        for rule in rules {
            for from in rule.from {
                for to in rule.to {
                    let edge = ModuleGraph.Edge(from: from, to: to)
                    var places: [String] = []
                    if graph.declared.contains(edge) { places.append("Package.swift") }
                    places += graph.sources.filter {
                        $0.module == from && $0.imports.contains(to)
                    }
                    .map(\.path)
                    if !places.isEmpty {
                        found.append(
                            Violation(key: edge.description, detail: "\(rule.why) (\(places.joined(separator: ", ")))"))
                    }
                }
            }
        }
        for edge in graph.declared.union(graph.imported).sorted()
        where edge.to == "CCurl" && !curlModules.contains(edge.from) {
            found.append(Violation(key: edge.description, detail: "no curl outside CurlTransfer"))
        }
        var curlFiles: [String: [String]] = [:]
        var cliLines = 0
        for file in graph.sources {
            let code = ModuleGraph.codeLines(file.lines)
            if !curlModules.contains(file.module), code.contains(where: { namesCurl($0.text) }) {
                curlFiles[file.module, default: []].append(file.path)
            }
            for line in code where line.text.contains("@_exported") {
                found.append(
                    Violation(key: "@_exported import", detail: "\(file.path):\(line.number): one public name per type")
                )
            }
            for library in file.imports.intersection(platformLibraries).sorted() {
                found.append(
                    Violation(
                        key: "platform import: \(file.path)",
                        detail: "imports \(library) by name: import Foundation, which brings the platform's C library"))
            }
            if file.lines.count > maximumFileLines {
                found.append(
                    Violation(key: "over \(maximumFileLines) lines: \(file.path)", detail: "\(file.lines.count) lines"))
            }
            if file.module == "contacts" {
                cliLines += file.lines.count
                if file.lines.count > maximumCLIFileLines {
                    found.append(
                        Violation(
                            key: "CLI file over \(maximumCLIFileLines) lines: \(file.path)",
                            detail: "\(file.lines.count) lines: the CLI declares options and calls"))
                }
            }
        }
        found += secondNames(in: graph)
        for (module, files) in curlFiles.sorted(by: { $0.key < $1.key }) {
            found.append(
                Violation(
                    key: "curl call in \(module)",
                    detail: "no curl outside CurlTransfer (\(files.joined(separator: ", ")))"))
        }
        if cliLines > maximumCLILines {
            found.append(
                Violation(
                    key: "Sources/contacts over 2,500 lines", detail: "\(cliLines) lines: the CLI is a thin shell"))
        }
        return found
    }

    /// One public name per type: `public typealias A = B` where B is a type the package declares.
    static func secondNames(in graph: ModuleGraph) -> [Violation] {
        var types: Set<String> = []
        var aliases: [(alias: String, type: String, path: String)] = []
        for file in graph.sources {
            for line in ModuleGraph.codeLines(file.lines) where line.text.contains("public ") {
                if let match = line.text.wholeMatch(of: /public typealias (\w+) = (\w+)/) {
                    aliases.append((String(match.1), String(match.2), file.path))
                } else if let match = line.text.firstMatch(
                    of: /^(?:@\w+ )*public (?:final )?(?:struct|enum|class|actor|protocol) (\w+)/)
                {
                    types.insert(String(match.1))
                }
            }
        }
        return aliases.filter { types.contains($0.type) }.map {
            Violation(
                key: "second public name: \($0.alias) = \($0.type)",
                detail: "\($0.path): one public name per type")
        }
    }

    /// A curl function, option or code (`curl_easy_perform(`, `CURLOPT_URL`, `CURLE_OK`) on a line of code.
    static func namesCurl(_ line: String) -> Bool {
        (line.contains("curl_") || line.contains("CURL"))
            && line.contains(/\bcurl_[a-z_]+\s*\(|\bCURL(OPT|E|INFO|M|SSH|AUTH|PROTO|USESSL|MOPT)?_[A-Z_]+/)
    }
}
