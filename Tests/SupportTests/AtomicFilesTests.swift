import Foundation
import Support
import TestSupport
import Testing

/// The package's one atomic-write path: a new file under the first free name, never replacing one.
@Suite struct AtomicFilesTests {
    @Test func aNewFileTakesTheFirstFreeNameAndLeavesNoTemporary() throws {
        let folder = try Scratch.directory("atomic-create").path
        let name: (Int) -> String = { $0 == 1 ? "m.eml" : "m-\($0).eml" }
        let first = try AtomicFiles.create(in: folder, with: Array("one".utf8), named: name)
        let second = try AtomicFiles.create(in: folder, with: Array("two".utf8), named: name)
        #expect(first == folder + "/m.eml")
        #expect(second == folder + "/m-2.eml")
        #expect(FileManager.default.contents(atPath: first) == Data("one".utf8))
        #expect(FileManager.default.contents(atPath: second) == Data("two".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["m-2.eml", "m.eml"])

        // One name only: a file in the way is an error naming it, and it keeps its bytes.
        #expect(throws: PrivateFilesError.self) { try AtomicFiles.create(first, with: Array("three".utf8)) }
        do { try AtomicFiles.create(first, with: Array("three".utf8)) } catch {
            #expect(error.path == first)
            #expect(error.code == EEXIST)
        }
        #expect(FileManager.default.contents(atPath: first) == Data("one".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 2)
    }
}
