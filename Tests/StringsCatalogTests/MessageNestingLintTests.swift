import Foundation
import TestSupport
import Testing

@testable import StringsCatalog

@Suite struct MessageNestingLintTests {
    static let deep =
        String(repeating: "{a, select, other {", count: 3600) + "x" + String(repeating: "}}", count: 3600)

    @Test func lintReportsTooDeeplyNestedMessagesWithFileLineColumnKeyAndLanguage() throws {
        let root = Scratch.path("nesting-lint")
        defer { try? FileManager.default.removeItem(at: root) }
        for language in ["en", "de"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("\(language).lproj"), withIntermediateDirectories: true)
        }
        try "\"greet\" = \"Hello {name}\";\n\"deep\" = \"x\";\n\"esc\" = \"y\";\n".write(
            to: root.appendingPathComponent("en.lproj/Mail.strings"), atomically: true, encoding: .utf8)
        try
            "\"greet\" = \"Hallo {name}\";\n/* nested */\n  \"deep\" = \"\(Self.deep)\";\n\"esc\" = \"\\n\(Self.deep)\";\n"
            .write(
                to: root.appendingPathComponent("de.lproj/Mail.strings"), atomically: true, encoding: .utf8)
        let catalog = """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "ok" : { "localizations" : { "fr" : { "stringUnit" : { "state" : "translated", "value" : "{n}" } } } },
                "deep" : {
                  "localizations" : {
                    "fr" : { "stringUnit" : { "state" : "translated", "value" : "\(Self.deep)" } }
                  }
                }
              },
              "version" : "1.0"
            }
            """
        try catalog.write(to: root.appendingPathComponent("App.xcstrings"), atomically: true, encoding: .utf8)

        let folder = try LocalizationFolder(directory: root, displayRoot: "L")
        let findings = folder.lint().filter { $0.code == "message-nesting" }
        #expect(findings.count == 3, "\(findings)")
        let strings = try #require(findings.first { $0.file == "L/de.lproj/Mail.strings" })
        // The value starts at column 12 of line 3 (its opening quote); level 65 opens 65 × 19 scalars in.
        #expect(strings.line == 3)
        #expect(strings.column == 12 + 65 * 19)
        #expect(strings.severity == .error)
        #expect(strings.message.contains("\"deep\" (de)"))
        #expect(strings.message.contains("more than 64 levels"))
        // With an escape in the value, the finding is at the value's start and says where inside it.
        let escaped = try #require(findings.first { $0.message.contains("\"esc\" (de)") })
        #expect(escaped.line == 4 && escaped.column == 9)
        #expect(escaped.message.contains("at line 2, column \(65 * 19) of the value"))
        let xc = try #require(findings.first { $0.file == "L/App.xcstrings" })
        #expect(xc.line == 5)
        #expect(xc.message.contains("\"deep\" (fr)"))
        #expect(xc.message.contains("at line 1, column \(65 * 19) of the value"))
    }
}
