import Foundation
import TestSupport
import Testing

@testable import StringsCatalog

/// Units of storyboards, XIBs and intent definitions in an XLIFF file as Xcode exports it go to
/// `<lang>.lproj/<name>.strings` beside the file's `.lproj` folder (fixture written for these tests, in
/// the layout of Xcode 15's export).
@Suite("XLIFF units of storyboards, XIBs and intent definitions")
struct XLIFFInterfaceTests {
    static func file(_ original: String, _ units: [(id: String, source: String, target: String, note: String)])
        -> String
    {
        var out = """
              <file original="\(original)" source-language="en" target-language="de" datatype="plaintext">
                <header>
                  <tool tool-id="com.apple.dt.xcode" tool-name="Xcode" tool-version="15.0" build-num="15A240d"/>
                </header>
                <body>

            """
        for u in units {
            out += """
                      <trans-unit id="\(u.id)" xml:space="preserve">
                        <source>\(u.source)</source>
                        <target>\(u.target)</target>
                        <note>\(u.note)</note>
                      </trans-unit>

                """
        }
        return out + "    </body>\n  </file>\n"
    }

    @Test func interfaceUnitsGoToTheirStringsFiles() throws {
        let dir = try Scratch.directory("interface")
        try Scratch.write("\"title\" = \"Shop\";\n", to: dir.appendingPathComponent("App/en.lproj/Localizable.strings"))
        try Scratch.write("<document/>\n", to: dir.appendingPathComponent("App/Base.lproj/Main.storyboard"))
        try Scratch.write("<document/>\n", to: dir.appendingPathComponent("App/Base.lproj/Settings.xib"))
        try Scratch.write("<plist/>\n", to: dir.appendingPathComponent("App/Base.lproj/Intents.intentdefinition"))
        try Scratch.write(
            "/* Class = \"UIButton\"; normalTitle = \"Buy\"; ObjectID = \"xyz-34-uvw\"; */\n\"xyz-34-uvw.normalTitle\" = \"Kaufen\";\n",
            to: dir.appendingPathComponent("App/de.lproj/Main.strings"))
        let xliff =
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">

            """
            + Self.file(
                "MyApp/App/Base.lproj/Main.storyboard",
                [
                    (
                        "abc-12-def.text", "Hello", "Hallo",
                        #"Class = "UILabel"; text = "Hello"; ObjectID = "abc-12-def";"#
                    ),
                    (
                        "xyz-34-uvw.normalTitle", "Buy", "Kaufen",
                        #"Class = "UIButton"; normalTitle = "Buy"; ObjectID = "xyz-34-uvw";"#
                    ),
                ])
            + Self.file(
                "MyApp/App/Base.lproj/Settings.xib",
                [
                    (
                        "k3L-aa-0Qz.title", "Settings", "Einstellungen",
                        #"Class = "NSWindow"; title = "Settings"; ObjectID = "k3L-aa-0Qz";"#
                    )
                ])
            + Self.file(
                "MyApp/App/Base.lproj/Intents.intentdefinition",
                [("tX8bS1", "Order coffee", "Kaffee bestellen", "")])
            + Self.file("MyApp/Gone/Base.lproj/Old.storyboard", [("a.text", "A", "A", "")])
            + "</xliff>\n"
        var folder = try LocalizationFolder(directory: dir)
        let report = XLIFF.importFiles(try XLIFF.parse(Data(xliff.utf8), file: "de.xliff"), into: &folder)
        #expect(report.updated == 3 && report.unchanged == 1, "\(report)")
        #expect(
            report.problems == [
                "MyApp/Gone/Base.lproj/Old.storyboard: trans-unit \"a.text\" does not match the project; skipped"
            ])
        _ = try folder.save()
        let main = try StringsDocument(contentsOf: dir.appendingPathComponent("App/de.lproj/Main.strings"))
        #expect(main.dictionary == ["abc-12-def.text": "Hallo", "xyz-34-uvw.normalTitle": "Kaufen"])
        #expect(
            main.comment(forKey: "abc-12-def.text") == #"Class = "UILabel"; text = "Hello"; ObjectID = "abc-12-def";"#)
        let settings = try StringsDocument(contentsOf: dir.appendingPathComponent("App/de.lproj/Settings.strings"))
        #expect(settings.dictionary == ["k3L-aa-0Qz.title": "Einstellungen"])
        let intents = try StringsDocument(contentsOf: dir.appendingPathComponent("App/de.lproj/Intents.strings"))
        #expect(intents.dictionary == ["tX8bS1": "Kaffee bestellen"])
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("Gone").path))
    }
}
