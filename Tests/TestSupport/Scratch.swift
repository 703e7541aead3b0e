import Foundation

/// Temporary files and folders for tests. Everything lives under one folder per test process
/// (`$TMPDIR/contacts-tests-<pid>-<random>`), removed when the process exits, so a test run leaves nothing
/// behind even when a test stops half-way; tests may still remove their own folders earlier.
public enum Scratch {
    /// The folder of this process, created on first use.
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "contacts-tests-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.root) }
        return url
    }()

    /// A new, unique path under `root` whose name starts with `label` and ends with `suffix`; nothing is
    /// created there.
    public static func path(_ label: String, suffix: String = "") -> URL {
        root.appendingPathComponent("\(label)-\(UUID().uuidString)\(suffix)")
    }

    /// A new, empty folder under `root` whose name starts with `label`.
    public static func directory(_ label: String) throws -> URL {
        let url = path(label)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` (UTF-8) to `url`, creating the folders above it.
    public static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}
