import Foundation
import TestSupport
import Testing

/// `strings export-xliff --xcloc` and `strings import-xliff <lang>.xcloc`.
@Suite("contacts strings and .xcloc bundles")
struct StringsXCLocCLITests {
    @Test func exportAndImportAnXcloc() throws {
        let dir = try Scratch.directory("xcloc-cli")
        try Scratch.write("\"title\" = \"Shop\";\n", to: dir.appendingPathComponent("L/en.lproj/Localizable.strings"))
        try Scratch.write("\"title\" = \"Laden\";\n", to: dir.appendingPathComponent("L/de.lproj/Localizable.strings"))
        let l = dir.appendingPathComponent("L").path
        let out = dir.appendingPathComponent("out").path
        let export = try CLI.run(["strings", "export-xliff", "--dir", l, "--out", out, "--xcloc"])
        #expect(export.status == 0 && export.stdout.contains("de.xcloc: 1 units"), "\(export.stdout) \(export.stderr)")
        let xliff = dir.appendingPathComponent("out/de.xcloc/Localized Contents/de.xliff")
        let text = try String(contentsOf: xliff, encoding: .utf8)
        try text.replacingOccurrences(of: ">Laden<", with: ">Geschäft<").write(
            to: xliff, atomically: true, encoding: .utf8)
        let r = try CLI.run(["strings", "import-xliff", dir.appendingPathComponent("out/de.xcloc").path, "--dir", l])
        #expect(r.status == 0 && r.stdout.contains("1 updated"), "\(r.stdout) \(r.stderr)")
        #expect(
            try String(contentsOf: dir.appendingPathComponent("L/de.lproj/Localizable.strings"), encoding: .utf8)
                == "\"title\" = \"Geschäft\";\n")
        let empty = try Scratch.directory("empty.xcloc")
        let bad = try CLI.run(["strings", "import-xliff", empty.path, "--dir", l])
        #expect(bad.status == 1 && bad.stderr.contains("no .xliff file"), "\(bad.stderr)")
    }
}
