import Foundation
import Testing

@testable import StringsCatalog

/// An XLIFF file larger than the 10 MB libxml2 accepts in one piece still parses (it is read as a stream).
@Suite("XLIFF size")
struct XLIFFSizeTests {
    @Test func aFileOfMoreThanTenMegabytesParses() throws {
        let units = (0..<60_000).map { i in
            XLIFFUnit(
                id: "key.\(i)", source: "Value number \(i) for %@ and {name}", target: "Wert \(i) für %@",
                state: "translated", note: "Shown on screen \(i)")
        }
        let text = XLIFF.document([
            XLIFFFile(
                original: "en.lproj/Localizable.strings", sourceLanguage: "en", targetLanguage: "de", units: units)
        ])
        #expect(text.utf8.count > 10_500_000)
        let files = try XLIFF.parse(Data(text.utf8), file: "de.xliff")
        #expect(files.first?.units.count == 60_000)
        #expect(files.first?.units.last?.target == "Wert 59999 für %@")
    }
}
