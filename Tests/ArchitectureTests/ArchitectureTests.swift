import Foundation
import Testing

/// ARCHITECTURE.md's directions, checked on the package as written: Package.swift's target dependencies, the
/// `import` lines under Sources/, curl calls, `@_exported` and file sizes. A new forbidden edge fails here.
@Suite struct ArchitectureTests {
    /// Forbidden edges and limits that other branches of issue 30 are removing right now. The test passes with
    /// them today; delete an entry when its branch lands (``everyPendingExceptionIsStillNeeded()`` names the
    /// ones that no longer occur). Never add one: fix the edge instead.
    static let pendingExceptions: Set<String> = [
        // issue 30 item 1 (compose, listing, strings): the CLI a thin shell
        "Sources/contacts over 2,500 lines"
    ]

    /// The package as written, read once for the tests below.
    static let package = Result { try ModuleGraph() }

    @Test func noForbiddenEdgeOrOversizedFileBeyondThePendingOnes() throws {
        let found = Architecture.violations(in: try Self.package.get())
        let new = found.filter { !Self.pendingExceptions.contains($0.key) }
        #expect(new.isEmpty, "ARCHITECTURE.md forbids:\n\(new.map(\.description).joined(separator: "\n"))")
    }

    @Test func everyPendingExceptionIsStillNeeded() throws {
        let keys = Set(Architecture.violations(in: try Self.package.get()).map(\.key))
        let stale = Self.pendingExceptions.subtracting(keys).sorted()
        #expect(stale.isEmpty, "no longer occurs, delete from pendingExceptions: \(stale.joined(separator: "; "))")
    }

    /// The graph read from the package has the edges every build relies on (so a reader that finds nothing
    /// cannot pass for a clean graph).
    @Test func theGraphIsReadFromThePackage() throws {
        let graph = try Self.package.get()
        #expect(graph.declared.contains(.init(from: "Campaigns", to: "Composer")))
        #expect(graph.declared.contains(.init(from: "CurlTransfer", to: "CCurl")))
        #expect(graph.imported.contains(.init(from: "Campaigns", to: "Composer")))
        #expect(graph.imported.contains(.init(from: "TerminalUI", to: "CNcurses")))
        #expect(graph.sources.count > 200)
    }

    /// Each kind of rule fires on a package that breaks it.
    @Test func eachRuleFiresOnAPackageThatBreaksIt() {
        let manifest = """
            .target(name: "Collation", dependencies: ["ICUKit", .product(name: "ContactsSelection", package: "x")]),
            .target(name: "ContactsCore", dependencies: ["CardDAV"]),
            """
        var graph = ModuleGraph(manifest: manifest, sources: [])
        #expect(
            Set(Architecture.violations(in: graph).map(\.key)) == [
                "Collation → ContactsSelection", "ContactsCore → CardDAV",
            ])

        let long = Array(repeating: "let x = 1", count: 601)
        graph = ModuleGraph(
            manifest: "",
            sources: [
                .init(
                    module: "TerminalUI", path: "Sources/TerminalUI/A.swift", lines: ["@preconcurrency import Composer"]
                ),
                .init(
                    module: "MessageFormat2", path: "Sources/MessageFormat2/B.swift",
                    lines: ["  #if os(Linux)", "internal import Templating"]),
                .init(module: "Support", path: "Sources/Support/C.swift", lines: ["@_exported import Foundation"]),
                .init(
                    module: "Locales", path: "Sources/Locales/I.swift",
                    lines: ["public struct LocalePolicy {", "}", "public typealias LanguageMatcher = LocalePolicy"]),
                .init(
                    module: "Support", path: "Sources/Support/H.swift",
                    lines: [
                        "#if canImport(Glibc)", "    import Glibc", "#elseif canImport(Darwin)", "    import Darwin",
                        "#endif",
                    ]),
                .init(module: "CardDAV", path: "Sources/CardDAV/D.swift", lines: ["curl_easy_perform(handle)"]),
                .init(module: "Templating", path: "Sources/Templating/E.swift", lines: long),
                .init(module: "contacts", path: "Sources/contacts/F.swift", lines: Array(long[..<301])),
                .init(module: "contacts", path: "Sources/contacts/G.swift", lines: Array(repeating: "", count: 2_200)),
            ])
        #expect(
            Set(Architecture.violations(in: graph).map(\.key)) == [
                "TerminalUI → Composer", "MessageFormat2 → Templating", "@_exported import", "curl call in CardDAV",
                "platform import: Sources/Support/H.swift", "second public name: LanguageMatcher = LocalePolicy",
                "over 600 lines: Sources/Templating/E.swift", "CLI file over 300 lines: Sources/contacts/F.swift",
                "CLI file over 300 lines: Sources/contacts/G.swift", "over 600 lines: Sources/contacts/G.swift",
                "Sources/contacts over 2,500 lines",
            ])

        // Not imports: comments, doc comments and multi-line string literals (generated code).
        graph = ModuleGraph(
            manifest: "",
            sources: [
                .init(
                    module: "TerminalUI", path: "Sources/TerminalUI/A.swift",
                    lines: ["// import Composer", "/// import Composer", "let s = \"\"\"", "import Composer", "\"\"\""])
            ])
        #expect(Architecture.violations(in: graph).isEmpty)
    }
}
