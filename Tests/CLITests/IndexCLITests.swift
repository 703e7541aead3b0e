import Foundation
import TestSupport
import Testing

/// `contacts index build` and the saved index behind `list` / `search`: the same output with and without
/// it; a stale or corrupt index is noted on stderr, ignored and saved again.
@Suite struct IndexCLITests {
    static func card(_ given: String, _ family: String, _ phone: String, _ email: String) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(given) \(family)\r\nN:\(family);\(given);;;\r\nTEL:\(phone)\r\n"
            + "EMAIL:\(email)\r\nEND:VCARD\r\n"
    }

    static let cards = [
        card("Anna", "Berg", "+46 8 555 010 00", "anna@example.org"),
        card("Hélène", "Dupont", "+33 1 99 00 01 02", "helene@example.org"),
        card("伟", "张", "+86 10 5555 0100", "wei@example.net"),
        card("상일", "이", "+82 2 555 0100", "lee@example.com"),
        card("Борис", "Иванов", "+7 495 555-01-00", "boris@example.com"),
        card("Annika", "Østergaard", "(415) 555-0142", "annika@example.com"),
        // A card with a problem the reader reports (and a saved list reports again).
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Broken Date\r\nN:Date;Broken;;;\r\nBDAY:not-a-date\r\nTEL:+1 415 555 0199\r\nEND:VCARD\r\n",
    ]

    @Test func aVdirAndAFileIndexedTogetherAnswerAsTheyDoRead() throws {
        let folder = try Scratch.directory("index-cli-sources")
        defer { try? FileManager.default.removeItem(at: folder) }
        let vdir = folder.appendingPathComponent("family")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        for (n, card) in Self.cards.prefix(3).enumerated() {
            try Data(card.utf8).write(to: vdir.appendingPathComponent("card\(n).vcf"))
        }
        let book = folder.appendingPathComponent("work.vcf")
        // A line the reader reports (and an answer from the index reports again).
        let broken = Self.cards[3].replacingOccurrences(of: "END:VCARD", with: "NOCOLON\r\nEND:VCARD")
        try Data(([broken] + Self.cards.dropFirst(4)).joined().utf8).write(to: book)
        let env = ["CONTACTS_INDEX_DIR": folder.appendingPathComponent("index").path]
        let list = ["list", "--source", vdir.path, "--source", book.path, "--locale", "en"]
        let read = try CLI.run(list, environment: env)
        #expect(read.status == 0 && read.stdout.contains("7 contacts"), "\(read.stderr)")

        let build = try CLI.run(["index", "build", vdir.path, book.path, "--locale", "en"], environment: env)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.contains("family+1-") && build.stdout.hasSuffix(": 7 contacts\n"))
        #expect(build.stderr.contains("work.vcf:") && build.stderr.contains("NOCOLON") && build.stderr == read.stderr)
        let saved = try CLI.run(list, environment: env)
        #expect(saved.stdout == read.stdout && saved.stderr == read.stderr)

        // A card added to the folder: stale, noted, answered from the books and saved again.
        try Data(Self.card("Zoë", "Ünal", "+1 415 555 0104", "zoe@example.org").utf8).write(
            to: vdir.appendingPathComponent("zoe.vcf"))
        let stale = try CLI.run(list, environment: env)
        #expect(stale.stdout.contains("8 contacts") && stale.stdout.contains("Zoë"))
        #expect(stale.stderr.contains("index is out of date") && stale.stderr.contains("rebuilding it"))
        let again = try CLI.run(list, environment: env)
        #expect(again.stdout == stale.stdout && !again.stderr.contains("out of date"))
    }

    @Test func sameOutputWithAndWithoutTheIndex() throws {
        let folder = try Scratch.directory("index-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("book.vcf")
        try Data(Self.cards.joined().utf8).write(to: book)
        let indexDir = folder.appendingPathComponent("index")
        let env = ["CONTACTS_INDEX_DIR": indexDir.path]
        let commands: [[String]] = [
            ["list", "--source", book.path, "--locale", "en"],
            ["list", "--source", book.path, "--locale", "en", "--json", "--mode", "both"],
            ["search", "an", "--source", book.path, "--locale", "en"],
            ["search", "hele", "--source", book.path, "--locale", "en", "--json"],
            ["search", "Борис", "--source", book.path, "--locale", "en"],
            ["search", "zw", "--source", book.path, "--locale", "zh-Hans"],
            ["search", "a b", "--keywords", "--source", book.path, "--locale", "en"],
            ["search", "555 01", "--source", book.path, "--locale", "en", "--mode", "both"],
        ]
        let without = try commands.map { try CLI.run($0, environment: env) }
        for r in without { #expect(r.status == 0) }
        #expect(without[2].stdout.contains("Anna Berg"))
        // No index is written unless asked for.
        #expect(!FileManager.default.fileExists(atPath: indexDir.path))
        for locale in ["en", "zh-Hans"] {
            for mode in ["messages", "both"] {
                let built = try CLI.run(
                    ["index", "build", book.path, "--locale", locale, "--mode", mode], environment: env)
                #expect(built.status == 0, "\(built.stderr)")
                #expect(built.stdout.contains(".index: "))
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: indexDir.path).count == 4)
        let with = try commands.map { try CLI.run($0, environment: env) }
        for (a, b) in zip(without, with) {
            #expect(a.stdout == b.stdout)
            #expect(a.stderr == b.stderr)
            #expect(a.status == b.status)
        }

        // The book is edited: every command notes the stale index, answers from the book, saves it again.
        try Data((Self.cards + [Self.card("Anna", "Zorn", "+46 8 555 010 99", "zorn@example.org")]).joined().utf8)
            .write(to: book)
        let fresh = try CLI.run(
            commands[2], environment: ["CONTACTS_INDEX_DIR": folder.appendingPathComponent("none").path])
        #expect(fresh.stdout.contains("Anna Zorn"))
        let stale = try CLI.run(commands[2], environment: env)
        #expect(stale.stdout == fresh.stdout)
        #expect(stale.stderr.contains("index is out of date"))
        let again = try CLI.run(commands[2], environment: env)
        #expect(again.stdout == fresh.stdout)
        #expect(again.stderr == fresh.stderr)

        // Corrupt bytes in every saved index: noted, ignored, saved again; the answer is the book's.
        for name in try FileManager.default.contentsOfDirectory(atPath: indexDir.path) {
            let url = indexDir.appendingPathComponent(name)
            var bytes = try Data(contentsOf: url)
            bytes[bytes.count / 2] ^= 0xFF
            try bytes.write(to: url)
        }
        let corrupt = try CLI.run(commands[2], environment: env)
        #expect(corrupt.stdout == fresh.stdout)
        #expect(corrupt.stderr.contains("index is unreadable"))
        #expect(try CLI.run(commands[2], environment: env).stderr == fresh.stderr)
    }

    @Test func buildErrors() throws {
        let folder = try Scratch.directory("index-cli-errors")
        defer { try? FileManager.default.removeItem(at: folder) }
        let env = ["CONTACTS_INDEX_DIR": folder.path]
        let missing = try CLI.run(
            ["index", "build", folder.appendingPathComponent("missing.vcf").path], environment: env)
        // As every command that reads a FILE: no such file is a usage error (exit 2), naming it.
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such file: ") && missing.stderr.contains("missing.vcf"))
        let noFile = try CLI.run(["index", "build"], environment: env)
        #expect(noFile.status == 2)
    }

    /// Writes `text` into the FIFO at `path` on another thread (opening it blocks until a reader opens it).
    static func feed(_ path: String, _ text: String) -> Thread {
        let thread = Thread {
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else { return }
            _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        thread.start()
        return thread
    }

    /// A book or data file given as a pipe (a FIFO, the shell's `<(…)`) is read to its end; no saved index
    /// is looked for or written for it, and `index build` says why it cannot save one.
    @Test func pipesAreReadWhole() throws {
        let folder = try Scratch.directory("index-cli-pipes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("book.vcf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let book = Self.cards.joined()
        let file = folder.appendingPathComponent("copy.vcf")
        try Data(book.utf8).write(to: file)
        let indexDir = folder.appendingPathComponent("index")
        let env = ["CONTACTS_INDEX_DIR": indexDir.path]
        for command in [["list", "--json"], ["search", "an"]] {
            _ = Self.feed(fifo, book)
            let piped = try CLI.run(command + ["--source", fifo, "--locale", "en"], environment: env)
            let plain = try CLI.run(command + ["--source", file.path, "--locale", "en"], environment: env)
            #expect(piped.status == 0, "\(piped.stderr)")
            #expect(piped.stdout == plain.stdout && !piped.stdout.isEmpty)
            #expect(piped.stderr == plain.stderr.replacingOccurrences(of: file.path, with: fifo))
        }
        let saved = (try? FileManager.default.contentsOfDirectory(atPath: indexDir.path)) ?? []
        #expect(!saved.contains { $0.hasPrefix("book.vcf") }, "\(saved)")
        let build = try CLI.run(["index", "build", fifo], environment: env)
        #expect(build.status == 2 && build.stderr.contains("is a pipe or device, not a file"), "\(build.stderr)")
        // Any input file of the tool, e.g. a template's JSON data.
        let template = folder.appendingPathComponent("t.mustache")
        try Data("Hello {{name}}".utf8).write(to: template)
        let data = folder.appendingPathComponent("data.json").path
        #expect(mkfifo(data, 0o600) == 0)
        _ = Self.feed(data, #"{"name": "Ada"}"#)
        let render = try CLI.run(["render", "--template", template.path, "--data", data])
        #expect(render.status == 0 && render.stdout == "Hello Ada", "\(render)")
    }
}
