import Foundation
import Support
import TestSupport
import Testing

/// Files and folders made for people's data are owner-only whatever the umask.
@Suite(.serialized) struct PrivateFilesTests {
    func mode(_ path: String) -> mode_t {
        var st = stat()
        _ = stat(path, &st)
        return st.st_mode & 0o777
    }

    @Test func ownerOnlyUnderAnOpenUmask() throws {
        for mask: mode_t in [0o022, 0o002] {
            let old = umask(mask)
            defer { umask(old) }
            let root = Scratch.path("private", suffix: "").path
            try PrivateFiles.makeDirectories(root + "/a/b/")
            for folder in [root, root + "/a", root + "/a/b"] { #expect(mode(folder) == 0o700, "\(folder) \(mask)") }
            let fd = PrivateFiles.open(root + "/a/b/f", O_WRONLY | O_CREAT | O_EXCL)
            #expect(fd >= 0)
            close(fd)
            #expect(mode(root + "/a/b/f") == 0o600, "umask \(String(mask, radix: 8))")
            // An existing folder is fine and keeps its mode.
            chmod(root + "/a", 0o755)
            try PrivateFiles.makeDirectories(root + "/a")
            #expect(mode(root + "/a") == 0o755)
        }
    }

    @Test func aFileInTheWayIsNamed() throws {
        let root = Scratch.path("private", suffix: "").path
        try PrivateFiles.makeDirectories(root)
        _ = FileManager.default.createFile(atPath: root + "/file", contents: Data())
        #expect(throws: PrivateFilesError.self) { try PrivateFiles.makeDirectories(root + "/file/sub") }
        do { try PrivateFiles.makeDirectories(root + "/file/sub") } catch {
            #expect(error.description == root + "/file: Not a directory")
        }
    }
}
