import Foundation
import Testing

@testable import StringsCatalog

/// Translators' XML files pass the package's one XML guard (Support's `GuardedXML`, which CardDAV's answers
/// pass too): entity definitions and elements nested too deep are refused with file, line and column.
@Suite struct XMLGuardTests {
    static let plistDoctype =
        #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#

    @Test func anXLIFFWithEntityDefinitionsIsRefused() {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE xliff [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
            <xliff version="1.2"><file original="a.strings" target-language="de"><body>
            <trans-unit id="a"><source>A</source><target>&lol2;</target></trans-unit></body></file></xliff>
            """
        #expect(
            throws: StringsCatalogError.malformed(
                file: "de.xliff", line: 2, column: 1,
                message: "XLIFF: a DOCTYPE (entity definitions) is not accepted here")
        ) { try XLIFF.parse(Data(xml.utf8), file: "de.xliff") }
    }

    @Test func anXLIFFNestedTooDeeplyIsRefused() {
        let xml =
            "<xliff>\n" + String(repeating: "<g>", count: 300) + String(repeating: "</g>", count: 300) + "</xliff>"
        #expect {
            try XLIFF.parse(Data(xml.utf8), file: "de.xliff")
        } throws: { error in
            guard case StringsCatalogError.malformed("de.xliff", 2, let column, let message) = error else {
                return false
            }
            return column > 1 && message == "XLIFF: elements nested deeper than 256"
        }
    }

    @Test func aStringsdictMayNameItsDTDButNotDefineEntities() {
        let entry = """
            <plist version="1.0"><dict><key>k</key><dict><key>NSStringLocalizedFormatKey</key>\
            <string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key>\
            <string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string>\
            <key>other</key><string>%d &x;</string></dict></dict></dict></plist>
            """
        let plain = StringsDictDocument(
            parsing: Data(
                ("<?xml version=\"1.0\"?>\n" + Self.plistDoctype + "\n"
                    + entry.replacingOccurrences(
                        of: "&x;", with: "items")).utf8), file: "de.lproj/a.stringsdict")
        #expect(plain.diagnostics.isEmpty, "\(plain.diagnostics)")
        #expect(plain.entries["k"] != nil)
        let withEntities = StringsDictDocument(
            parsing: Data(("<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY x \"items\">]>\n" + entry).utf8),
            file: "de.lproj/a.stringsdict")
        #expect(withEntities.entries.isEmpty)
        #expect(
            withEntities.diagnostics.map(\.description) == [
                "de.lproj/a.stringsdict:2:1: error: stringsdict: a DOCTYPE with an internal subset (entity "
                    + "definitions) is not accepted here"
            ])
    }
}
