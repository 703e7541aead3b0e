import Foundation
import TestSupport
import Testing

/// `contacts strings generate swift` (the generated code itself is compiled by SwiftAccessorsTests).
@Suite("contacts strings generate swift")
struct StringsGenerateCLITests {
    @Test func writesAccessorsAndRefusesBadInput() throws {
        let dir = try Scratch.directory("generate-cli")
        try Scratch.write(
            "/* Button */\n\"Cancel\" = \"Cancel\";\n\"greet\" = \"Hello %@\";\n",
            to: dir.appendingPathComponent("Localizations/en.lproj/Localizable.strings"))
        try Scratch.write("\"x\" = \"X\";\n", to: dir.appendingPathComponent("Localizations/en.lproj/Other.strings"))
        let out = dir.appendingPathComponent("Strings.swift").path
        let r = try CLI.run([
            "strings", "generate", "swift", "--dir", dir.appendingPathComponent("Localizations").path, "--out", out,
            "--table", "Localizable", "--name", "L10n",
        ])
        #expect(r.status == 0 && r.stdout == "wrote \(out): 2 accessors\n", "\(r.stdout) \(r.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(
            text.contains("public enum L10n {") && text.contains("public static func greet(_ p1: String) -> String"))
        #expect(text.contains("        /// Button\n") && !text.contains("enum Other"))
        let missing = try CLI.run([
            "strings", "generate", "swift", "--dir", dir.appendingPathComponent("Localizations").path, "--out", out,
            "--table", "Nope",
        ])
        #expect(missing.status == 1 && missing.stderr.contains("no table \"Nope\""), "\(missing.stderr)")
        let badName = try CLI.run([
            "strings", "generate", "swift", "--dir", dir.path, "--out", out, "--name", "my-strings",
        ])
        #expect(badName.status == 2, "\(badName.stderr)")
    }
}
