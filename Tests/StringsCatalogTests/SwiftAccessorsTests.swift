import Foundation
import TestSupport
import Testing

@testable import StringsCatalog

/// `SwiftAccessors`: the generated file compiles with swiftc (Swift 6 mode) and a program calling it gets
/// the arguments in the right order and types (fixtures written for these tests).
@Suite("Swift accessors")
struct SwiftAccessorsTests {

    static func folder() throws -> URL {
        let dir = try Scratch.directory("accessors")
        try Scratch.write(
            """
            /* Greeting on the start screen.
               %1$@: first name, %2$d: unread messages. */
            "greet" = "Hello %@, you have %d new";
            "swap" = "%2$@ wrote to %1$@ at %3$c";
            "settings.title" = "Settings";
            "Settings title" = "Settings!";
            "100 \\"quoted\\"" = "Quoted \\\\ back";

            """, to: dir.appendingPathComponent("en.lproj/Localizable.strings"))
        try Scratch.write(
            "\"greet\" = \"Hallo %@, %d neu\";\n", to: dir.appendingPathComponent("de.lproj/Localizable.strings"))
        try Scratch.write(
            StringsDictDocument.xmlDocument([
                StringsDictEntry(
                    key: "%d files in %@", formatKey: "%#@files@ in %@",
                    variables: [
                        "files": PluralVariable(name: "files", forms: ["one": "%d file", "other": "%d files"])
                    ],
                    comment: "Files of a folder")
            ]), to: dir.appendingPathComponent("en.lproj/Localizable.stringsdict"))
        try Scratch.write(
            PseudolocalizerTests.photosCatalog(keys: ["default", "Rate %.1f of %u"]),
            to: dir.appendingPathComponent("Media.xcstrings"))
        return dir
    }

    @Test func identifiersAndParameters() throws {
        #expect(SwiftAccessors.identifier("Delete %d contacts?", upper: false) == "deleteContacts")
        #expect(SwiftAccessors.identifier("settings.title", upper: false) == "settingsTitle")
        #expect(SwiftAccessors.identifier("default", upper: false) == "`default`")
        #expect(SwiftAccessors.identifier("3 days", upper: false) == "_3Days")
        #expect(SwiftAccessors.identifier("Привет", upper: false) == "key")
        #expect(SwiftAccessors.identifier("URL of %@", upper: true) == "UrlOf")
        let p = try SwiftAccessors.parameters(pattern: "%2$@ has %1$lu, %f", variables: [:])
        // CoreFoundation's numbering: the plain %f is argument 1 too; %1$lu, met first, types it.
        #expect(p.map(\.type) == ["UInt", "String"])
        #expect(p.map(\.label) == ["p1", "p2"])
    }

    @Test func generatedFileCompilesAndRuns() throws {
        let dir = try Self.folder()
        let folder = try LocalizationFolder(directory: dir, displayRoot: "Localizations")
        let generated = try SwiftAccessors.source(for: folder)
        #expect(generated.accessors == 9)
        #expect(generated.source.contains("/// Greeting on the start screen."))
        #expect(generated.source.contains("public static func greet(_ p1: String, _ p2: Int) -> String"))
        #expect(generated.source.contains("public static func filesIn(_ files: Int, _ p2: String) -> String"))
        #expect(generated.source.contains("public static func photos(_ count: Int) -> String"))
        #expect(
            generated.source.contains(
                "/// Key \"%lld photos\"\n        /// one \"%lld photo\", other \"%lld photos\"\n"))
        #expect(generated.source.contains("public static func rateOf(_ p1: Double, _ p2: UInt) -> String"))
        #expect(generated.source.contains("public static func swap(_ p1: String, _ p2: String, _ p3: Character)"))
        #expect(generated.source.contains("public static var settingsTitle: String"))
        #expect(generated.source.contains("public static var settingsTitle2: String"))
        #expect(generated.source.contains("public static var `default`: String"))
        #expect(throws: StringsCatalogError.self) { try SwiftAccessors.source(for: folder, table: "Nope") }
        #expect(try SwiftAccessors.source(for: folder, table: "Media").accessors == 3)

        let build = try Scratch.directory("accessors-build")
        try generated.source.write(to: build.appendingPathComponent("Strings.swift"), atomically: true, encoding: .utf8)
        let main = #"""
            import Foundation

            // The app's own lookup: formats by key, formatted as Foundation formats them.
            Strings.lookup = { table, key, arguments in
                let formats = [
                    "greet": "Hello %@, you have %d new", "swap": "%2$@ wrote to %1$@ at %3$c",
                    "%d files in %@": "%d file(s) in %@", "%lld photos": "%lld photo(s)", "Rate %.1f of %u": "Rate %.1f of %u",
                ]
                let format = formats[key] ?? key
                return table + ": " + String(format: format, arguments: arguments.map(\.cVarArg))
            }
            print(Strings.Localizable.greet("Ana", 3))
            print(Strings.Localizable.swap("Bo", "Ana", "x"))
            print(Strings.Localizable.filesIn(2, "Docs"))
            print(Strings.Localizable.settingsTitle)
            print(Strings.Media.photos(5))
            print(Strings.Media.rateOf(4.5, 5))
            print(Strings.Media.`default`)
            """#
        try main.write(to: build.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let compile = try run(
            ["swiftc", "-swift-version", "6", "-Onone", "Strings.swift", "main.swift", "-o", "accessors"], in: build)
        #expect(compile.status == 0, "\(compile.output)")
        guard compile.status == 0 else { return }
        let program = try run(["./accessors"], in: build)
        #expect(
            program.output == """
                Localizable: Hello Ana, you have 3 new
                Localizable: Ana wrote to Bo at x
                Localizable: 2 file(s) in Docs
                Localizable: Settings title
                Media: 5 photo(s)
                Media: Rate 4.5 of 5
                Media: default

                """)
    }

    func run(_ arguments: [String], in dir: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = dir
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
