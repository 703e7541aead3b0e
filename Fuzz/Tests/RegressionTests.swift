import Foundation
import Testing

@testable import FuzzEntries

/// Every saved fuzz finding (`Fuzz/Regressions/<target>/`) and every seed (`Fuzz/Corpus/<target>/`) goes
/// through the same entry function the fuzzer calls: a crash, trap or hang here is a regression.
@Suite struct FuzzRegressionTests {
    static func inputs(_ folder: String, _ target: FuzzTarget) throws -> [URL] {
        let root = try #require(Bundle.module.url(forResource: folder, withExtension: nil))
        let dir = root.appendingPathComponent(target.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        return names.filter { !$0.hasPrefix(".") }.sorted().map { dir.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func savedFindingsStayFixed(_ target: FuzzTarget) throws {
        for url in try Self.inputs("Regressions", target) {
            target.run([UInt8](try Data(contentsOf: url)))
        }
    }

    /// The XLIFF target imports into the bundled localizations; without them it would only test the parser.
    @Test func xliffTargetFindsTheBundledLocalizations() throws {
        let folder = try #require(Fixtures.localizations)
        #expect(folder.languages.contains("de"))
        #expect(Fixtures.messageTemplate != nil)
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedCorpusRuns(_ target: FuzzTarget) throws {
        let seeds = try Self.inputs("Corpus", target)
        #expect(!seeds.isEmpty, "Fuzz/Corpus/\(target.rawValue) has no seeds")
        for url in seeds {
            target.run([UInt8](try Data(contentsOf: url)))
        }
    }
}
