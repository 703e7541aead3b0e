import Foundation
import TestSupport
import Testing

/// What the tool leaves on disk and how it fails on inputs it cannot use: a saved index is never used for
/// a changed book, private data is owner-only whatever the umask, an unreadable book fails the same way in
/// every command, and errors are said in words with one file:line:column.
@Suite struct StateCLITests {
    static let noah = "f768f221-a91b-4e9d-8c31-d7b90ff191f0"  // Noah White in the embedded sample
    static let inviteData =
        #"{"inviter":{"givenName":"Ada","familyName":"Lovelace"},"project":"P","url":"https://example.org","#
        + #""expires_date":"2026-05-01"}"#

    func mode(_ path: String) -> Int {
        var st = stat()
        guard stat(path, &st) == 0 else { return -1 }
        return Int(st.st_mode & 0o777)
    }

    /// Every file and folder under `root` (root included) with its mode.
    func modes(_ root: URL) -> [(String, Int)] {
        var out = [(root.path, mode(root.path))]
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? []
        for name in names.sorted() { out.append((name, mode(root.path + "/" + name))) }
        return out
    }

    func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    // MARK: 15. A changed book never answers from its saved index

    @Test func aBookChangedInPlaceWithItsOldSizeAndTimeIsNotAnsweredFromTheIndex() throws {
        let folder = try Scratch.directory("state-restored")
        let book = folder.appendingPathComponent("book.vcf")
        // A book of some MiB (the old identity hashed only the first and last MiB and 62 blocks between).
        var text = ""
        for i in 0..<30_000 {
            let n = String(format: "%06d", i)
            text +=
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(n)\r\nN:\(n);Person;;;\r\nTEL:+1 415 555 \(n.suffix(4))\r\n"
                + "EMAIL:p\(n)@example.org\r\nEND:VCARD\r\n"
        }
        var bytes = Array(text.utf8)
        try Data(bytes).write(to: book)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: book.path)
        let env = ["CONTACTS_INDEX_DIR": folder.appendingPathComponent("index").path]
        let built = try CLI.run(["index", "build", book.path, "--locale", "en"], environment: env)
        #expect(built.status == 0, "\(built.stderr)")

        // One letter changed in place, between the blocks the old identity sampled, then the old
        // modification time put back (as `touch -d`, `cp -p` or `rsync -t` do): same size, same mtime.
        let mib = 1 << 20
        let gap = mib + (bytes.count - 2 * mib) / 63 + (16 << 10) + 8_000
        let needle = Array(";Person;".utf8)
        var at = gap
        while !bytes[at..<(at + needle.count)].elementsEqual(needle) { at += 1 }
        bytes[at + 1] = UInt8(ascii: "Z")  // N: given name "Zerson"
        let handle = try FileHandle(forWritingTo: book)
        try handle.write(contentsOf: bytes)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: book.path)
        let attributes = try FileManager.default.attributesOfItem(atPath: book.path)
        #expect((attributes[.size] as? Int) == bytes.count && (attributes[.modificationDate] as? Date) == date)

        let args = ["search", "zerson", "--source", book.path, "--locale", "en"]
        let listed = try CLI.run(args, environment: env)
        #expect(listed.status == 0)
        #expect(listed.stderr.contains("index is out of date"), "\(listed.stderr)")
        #expect(listed.stdout.contains("Zerson"), "\(listed.stdout.suffix(300))")
        // And it is saved again: the next run answers from the new index, the same.
        let again = try CLI.run(args, environment: env)
        #expect(again.stdout == listed.stdout && again.stderr.isEmpty)
    }

    // MARK: 16. The same unreadable input fails the same way everywhere

    @Test func aBookWithNoReadableCardFailsEveryCommand() throws {
        let folder = try Scratch.directory("state-unreadable")
        let bad = folder.appendingPathComponent("bad.vcf")
        try Data("garbage\nmore garbage\n".utf8).write(to: bad)
        let env = ["CONTACTS_INDEX_DIR": folder.appendingPathComponent("index").path]
        let runs: [[String]] = [
            ["vcard", "inspect", bad.path],
            ["list", "--source", bad.path],
            ["search", "anna", "--source", bad.path],
            ["list", "--source", "-"],
            ["index", "build", bad.path],
            ["compose", "--template", "invite", "--query", "a", "--source", bad.path, "--from", "a@example.org"],
        ]
        for args in runs {
            let stdin = args.contains("-") ? Data("garbage\n".utf8) : nil
            let r = try CLI.run(args, stdin: stdin, environment: env)
            #expect(r.status == 1, "\(args): \(r.status) \(r.stdout)")
            #expect(r.stderr.contains("no vCard could be read from"), "\(args): \(r.stderr)")
            #expect(r.stderr.contains(":1:1: expected BEGIN:VCARD"), "\(args): \(r.stderr)")
            #expect(!r.stdout.contains("0 contacts"), "\(args)")
        }
        // No index is saved for it.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("index").path))
    }

    @Test func aDirectoryGivenAsAFileIsAClearError() throws {
        let folder = try Scratch.directory("state-directory")
        let dir = folder.appendingPathComponent("book.vcf")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let env = ["CONTACTS_INDEX_DIR": folder.appendingPathComponent("index").path]
        // (`list --source`, `index build`, `vcard inspect` and `vcard convert` read a folder as a vdir:
        // SourcesCLITests, PickTmuxCLITests.)
        for args in [["sort", dir.path]] {
            let r = try CLI.run(args, environment: env)
            #expect(r.status == 1, "\(args)")
            #expect(r.stderr.hasSuffix("\(dir.path) is a directory\n"), "\(args): \(r.stderr)")
        }
    }

    // MARK: 19. Private data is owner-only whatever the umask

    @Test func theIndexOutboxAndDraftsAreOwnerOnly() throws {
        let folder = try Scratch.directory("state-private")
        let book = folder.appendingPathComponent("book.vcf")
        try Data(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Anna Berg\r\nN:Berg;Anna;;;\r\nEMAIL:anna@example.org\r\nEND:VCARD\r\n"
                .utf8
        ).write(to: book)
        let cache = folder.appendingPathComponent("cache")
        let env = ["XDG_CACHE_HOME": cache.path, "CONTACTS_INDEX_DIR": ""]
        let built = try CLI.run(["index", "build", book.path, "--locale", "en"], environment: env, umask: "022")
        #expect(built.status == 0, "\(built.stderr)")
        for (path, mode) in modes(cache) {
            #expect(mode == (isDirectory(cache.path + "/" + path) || path == cache.path ? 0o700 : 0o600), "\(path)")
        }
        #expect(modes(cache).count == 4)  // cache, contacts, index, the index file

        // Drafts written with --out, and the outbox of a --send (its messages, journal and lock).
        let data = folder.appendingPathComponent("invite.json")
        try Data(Self.inviteData.utf8).write(to: data)
        let out = folder.appendingPathComponent("drafts")
        let drafts = try CLI.run(
            [
                "compose", "--template", "invite", "--ids", Self.noah, "--data", data.path, "--from", "a@example.org",
                "--out", out.path,
            ], umask: "022")
        #expect(drafts.status == 0, "\(drafts.stderr)")
        let sends = try CLI.run(
            [
                "compose", "--source", CLI.sampleBook, "--template", "invite", "--ids", Self.noah, "--data", data.path,
                "--from", "a@example.org", "--smtp", "smtp://127.0.0.1:1", "--connect-timeout", "2", "--attempts", "1",
                "--send",
            ],
            currentDirectory: folder, umask: "022")
        #expect(sends.stdout.contains("1 message(s) queued"), "\(sends.stdout) \(sends.stderr)")
        let outbox = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("outbox-") })
        for root in [out, folder.appendingPathComponent(outbox)] {
            let found = modes(root)
            #expect(found.count >= 2, "\(root.path)")
            for (path, mode) in found {
                let full = path == root.path ? path : root.path + "/" + path
                #expect(mode == (isDirectory(full) ? 0o700 : 0o600), "\(full): \(String(mode, radix: 8))")
            }
        }
        #expect(FileManager.default.fileExists(atPath: folder.path + "/" + outbox + "/journal.jsonl"))

        // 21: a message that is not in the outbox is refused without a "journal.jsonl:0:".
        let settle = try CLI.run(["outbox", "settle", folder.path + "/" + outbox, "000009", "--sent"])
        #expect(settle.status == 1)
        #expect(settle.stderr.contains("no message 000009 in this outbox"), "\(settle.stderr)")
        #expect(!settle.stderr.contains(":0:"), "\(settle.stderr)")
    }

    // MARK: 21. Messages in plain words

    @Test func recipientDataErrorsNameTheFileOnce() throws {
        let folder = try Scratch.directory("state-words")
        let recipients = folder.appendingPathComponent("a.json")
        try Data("[{\"id\": \"x\",\n  \"name\": }]".utf8).write(to: recipients)
        let r = try CLI.run(
            [
                "compose", "--template", "invite", "--ids", Self.noah, "--recipients", recipients.path, "--from",
                "a@example.org", "--out", folder.appendingPathComponent("o").path,
            ])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(recipients.path):2:11: expected a JSON value"), "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "a.json").count == 2, "\(r.stderr)")
    }

    @Test func xliffErrorsSayWhatIsWrongAtLineAndColumn() throws {
        let folder = try Scratch.directory("state-xliff")
        for language in ["en", "de"] {
            let lproj = folder.appendingPathComponent("\(language).lproj")
            try FileManager.default.createDirectory(at: lproj, withIntermediateDirectories: true)
            try Data("\"a\" = \"A\";\n".utf8).write(to: lproj.appendingPathComponent("Localizable.strings"))
        }
        let cases: [(String, String)] = [
            (
                "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\"></xliff>\n<x/>\n",
                ":3:1: XLIFF: malformed XML: extra content after the end of the document"
            ),
            (
                "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\">\n  <x>&foo;</x></xliff>\n",
                ":3:11: XLIFF: malformed XML: an undeclared entity (&name;)"
            ),
            (
                "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\">\n  <x a=\"1\" a=\"2\"/></xliff>\n",
                ":3:17: XLIFF: malformed XML: the same attribute twice in one element"
            ),
        ]
        for (n, (xml, expected)) in cases.enumerated() {
            let file = folder.appendingPathComponent("t\(n).xliff")
            try Data(xml.utf8).write(to: file)
            let r = try CLI.run(["strings", "import-xliff", file.path, "--dir", folder.path])
            #expect(r.status == 1)
            #expect(!r.stderr.contains("NSXMLParserErrorDomain"), "\(r.stderr)")
            #expect(r.stderr.contains(file.path + expected), "\(r.stderr)")
        }
    }

    @Test func theOutputLimitNamesTheTemplateAndLine() throws {
        let r = try CLI.run(["templates", "render", "invite", "--max-output", "100"])
        #expect(r.status == 1)
        #expect(r.stderr.contains(#"invite/body.txt.mustache:"#), "\(r.stderr)")
        #expect(
            r.stderr.range(
                of: #"invite/[a-z.]+\.mustache:\d+:\d+: output exceeds the limit of 100 bytes"#,
                options: .regularExpression) != nil, "\(r.stderr)")
    }
}
