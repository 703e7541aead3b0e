import Foundation
import Support
import TestSupport
import Testing

/// A path named in a document reaches a file inside an allowed folder, or nothing.
@Suite struct ContainedPathTests {
    @Test("inside, climbing out, absolute elsewhere, links out and in, and a second allowed folder")
    func containment() throws {
        let root = try Scratch.directory("contained")
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        let base = root.appendingPathComponent("mail").path
        try fm.createDirectory(atPath: base + "/files", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root.path + "/other", withIntermediateDirectories: true)
        try "x".write(toFile: base + "/files/a.txt", atomically: true, encoding: .utf8)
        try "y".write(toFile: root.path + "/other/b.txt", atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: base + "/in", withDestinationPath: "files/a.txt")
        try fm.createSymbolicLink(atPath: base + "/out", withDestinationPath: root.path + "/other/b.txt")
        try fm.createSymbolicLink(atPath: base + "/dir", withDestinationPath: "../other")
        let real = try ContainedPath.realPath(base, named: base)
        let other = try ContainedPath.realPath(root.path + "/other", named: "other")
        #expect(try ContainedPath.resolve("files/a.txt", relativeTo: base, inside: [base]) == real + "/files/a.txt")
        #expect(try ContainedPath.resolve("in", relativeTo: base, inside: [base]) == real + "/files/a.txt")
        #expect(
            try ContainedPath.resolve(real + "/files/./a.txt", relativeTo: "/", inside: [base]) == real + "/files/a.txt"
        )
        for path in ["../other/b.txt", "out", "dir/b.txt", "/etc/hostname", "files/../../other/b.txt"] {
            #expect(throws: ContainedPathError.self, "\(path)") {
                try ContainedPath.resolve(path, relativeTo: base, inside: [base])
            }
            #expect(
                (try? ContainedPath.resolve(path, relativeTo: base, inside: [base, "/etc"] + [root.path + "/other"]))
                    != nil, "\(path)")
        }
        #expect(throws: ContainedPathError.outside(path: "out", realPath: other + "/b.txt", folders: [real])) {
            try ContainedPath.resolve("out", relativeTo: base, inside: [base])
        }
        #expect(throws: ContainedPathError.cannotResolve(path: base + "/missing", code: ENOENT)) {
            try ContainedPath.resolve("missing", relativeTo: base, inside: [base])
        }
        // A folder that is only a prefix of another's name is not its parent.
        #expect(
            !ContainedPath.isInside("/srv/mail-other/x", "/srv/mail")
                && ContainedPath.isInside("/srv/mail", "/srv/mail"))
        #expect(ContainedPath.isInside("/etc/passwd", "/"))
    }
}
