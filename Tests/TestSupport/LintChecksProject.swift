import Foundation

/// The hand-made project of Tests/StringsCatalogTests/Fixtures/LintChecks (one key per `strings lint` check),
/// written into a new scratch folder as a real localization folder: `<lang>/` becomes `<lang>.lproj/` and
/// `Catalog.xcstrings.json` becomes `Catalog.xcstrings` (stored under other names so that linting the package
/// itself does not find a project broken on purpose).
public enum LintChecksProject {
    /// The stored fixture.
    public static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("StringsCatalogTests/Fixtures/LintChecks", isDirectory: true)

    /// A fresh copy under `Scratch.root`, ready to lint.
    public static func make() throws -> URL {
        let dir = try Scratch.directory("lint-checks")
        let fm = FileManager.default
        for name in try fm.contentsOfDirectory(atPath: fixture.path).sorted() {
            let from = fixture.appendingPathComponent(name)
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: from.path, isDirectory: &isDir) else { continue }
            if isDir.boolValue {
                try fm.copyItem(at: from, to: dir.appendingPathComponent(name + ".lproj"))
            } else if name.hasSuffix(".xcstrings.json") {
                try fm.copyItem(at: from, to: dir.appendingPathComponent(String(name.dropLast(".json".count))))
            }
        }
        return dir
    }
}
