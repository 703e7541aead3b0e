import Foundation
import ICUKit
import TestSupport
import Testing

/// A tmux server of its own (its socket in a folder of its own) with one window of a given size, killed
/// when the test ends.
final class TmuxWindow {
    let socket: URL
    let folder: URL

    /// Starts `command` (run by `sh -c`) in a COLUMNS×LINES window.
    init(columns: Int, lines: Int, command: String, environment: [String: String] = [:]) throws {
        // A Unix socket's path must fit in 108 bytes, which a scratch folder deep in a clone (CI's) does not:
        // the socket gets a short owner-only folder of its own in /tmp, removed when the window closes.
        folder = URL(fileURLWithPath: "/tmp/contacts-tmux-" + UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        socket = folder.appendingPathComponent("s")
        var args = ["new-session", "-d", "-x", "\(columns)", "-y", "\(lines)"]
        for (k, v) in environment.sorted(by: { $0.key < $1.key }) { args += ["-e", "\(k)=\(v)"] }
        args.append(command)
        // The server tmux starts keeps every descriptor it inherits, and Foundation waits for one of them to
        // close before it reports the end of the program it started: the server is started from a shell
        // that closed all but the standard ones.
        let quoted = (["tmux", "-S", socket.path, "-f", "/dev/null"] + args).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [
            "-c",
            "for fd in $(ls /proc/$$/fd); do [ $fd -gt 2 ] && eval \"exec $fd>&-\"; done; exec "
                + quoted.joined(separator: " "),
        ]
        var env = ProcessInfo.processInfo.environment
        env["TMUX"] = nil
        p.environment = env
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        serverPID = Int32(
            (try? tmux(["display-message", "-p", "#{pid}"]))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    }

    /// The server's process id (it may have been started with SIGTERM blocked: the test's own signal mask).
    private(set) var serverPID: Int32?

    /// Ends the server and what runs in it.
    func close() {
        _ = try? tmux(["kill-server"])
        if let serverPID, processIsAlive(serverPID) { kill(serverPID, SIGKILL) }
        serverPID = nil
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { close() }

    /// Runs a tmux command of the running server; its output.
    @discardableResult
    func tmux(_ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["tmux", "-S", socket.path, "-f", "/dev/null"] + args
        var env = ProcessInfo.processInfo.environment
        env["TMUX"] = nil
        p.environment = env
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Named keys (`Escape`, `Tab`, `BTab`, `Enter`, `Down`, `C-z`) or, with `literal`, text.
    func send(_ keys: String..., literal: Bool = false) throws {
        try tmux(["send-keys", "-t", "0"] + (literal ? ["-l"] : []) + keys)
    }

    var screen: String { (try? tmux(["capture-pane", "-p", "-t", "0"])) ?? "" }

    /// Waits until `condition` holds for the screen (polling; at most 20 s); false when it never did.
    func waitFor(_ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if condition(screen) { return true }
            usleep(20_000)
        }
        return false
    }

    func waitFor(_ text: String) -> Bool { waitFor { $0.contains(text) } }

    /// Waits until FILE exists and is not empty; its text.
    func waitForFile(_ url: URL) -> String? {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let text = try? String(contentsOf: url, encoding: .utf8), text.hasSuffix("\n") { return text }
            usleep(20_000)
        }
        return nil
    }
}

/// `contacts pick` in a real terminal (tmux): select, cancel, single pick, suspend and resume.
@Suite(.serialized) struct PickTmuxCLITests {
    /// Runs `contacts ARGS > out; echo $? > status` in a tmux window.
    static func start(_ args: String, columns: Int = 70, lines: Int = 14, book: URL? = nil) throws -> (
        TmuxWindow, URL, URL
    ) {
        let book = try book ?? PickScreenCLITests.book()
        let folder = try Scratch.directory("pick-tmux")
        let out = folder.appendingPathComponent("out")
        let status = folder.appendingPathComponent("status")
        let command =
            "'\(CLI.executable.path)' pick --source '\(book.path)' --region US \(args) > '\(out.path)'; echo $? > '\(status.path)'"
        let window = try TmuxWindow(
            columns: columns, lines: lines, command: command, environment: ["LANG": "C.UTF-8", "NO_COLOR": "1"])
        return (window, out, status)
    }

    @Test func typeTabEnterSelects() throws {
        let (window, out, status) = try Self.start("")
        #expect(window.waitFor("Search contacts"))
        try window.send("b", literal: true)
        #expect(window.waitFor("2/5"))
        try window.send("Tab")
        try window.send("Tab")
        #expect(window.waitFor("Select (2)"))
        try window.send("Enter")
        #expect(window.waitForFile(status) == "0\n")
        #expect(
            try String(contentsOf: out, encoding: .utf8) == "Anna Berg <+14155550100>\nBruno Finstein <+14155550101>\n")
    }

    @Test func escapeCancelsWithNothingPrinted() throws {
        let (window, out, status) = try Self.start("")
        #expect(window.waitFor("Search contacts"))
        try window.send("Tab")
        #expect(window.waitFor("Select (1)"))
        try window.send("Escape")
        #expect(window.waitForFile(status) == "130\n")
        #expect(try String(contentsOf: out, encoding: .utf8) == "")
    }

    @Test func ctrlCCancels() throws {
        let (window, out, status) = try Self.start("")
        #expect(window.waitFor("Search contacts"))
        try window.send("C-c")
        #expect(window.waitForFile(status) == "130\n")
        #expect(try String(contentsOf: out, encoding: .utf8) == "")
    }

    @Test func singlePickWithArrows() throws {
        let (window, out, status) = try Self.start("--single")
        #expect(window.waitFor("Search contacts"))
        try window.send("End")
        try window.send("Up")
        try window.send("Enter")
        #expect(window.waitForFile(status) == "0\n")
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 1)
        #expect(text.hasSuffix(">\n"))
    }

    /// Scripts whose clusters the terminal draws in several cells (a Devanagari vowel sign) or that
    /// terminals disagree on (emoji sequences): every letter reaches the screen, no zero-width joiner is
    /// left to join what comes next, and every row's value ends in the same column.
    @Test func devanagariAndEmojiSequencesKeepTheRowsAligned() throws {
        let book = Scratch.path("pick-scripts", suffix: ".vcf")
        let names = ["आरव वर्मा", "Family 👨‍👩‍👧‍👦 Smith", "Ｆｕｌｌ Width", "🇯🇵 Flag", "👍🏽 Thumbs", "Zoe\u{308} Ünal", "กำไร ดี"]
        try Scratch.write(
            names.enumerated().map { n, name in
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(name)\r\nTEL:+1415555\(String(format: "%04d", n))\r\nEND:VCARD\r\n"
            }.joined(), to: book)
        let folder = try Scratch.directory("pick-tmux")
        let status = folder.appendingPathComponent("status")
        let window = try TmuxWindow(
            columns: 60, lines: 20,
            command: "'\(CLI.executable.path)' pick --source '\(book.path)' > /dev/null; echo $? > '\(status.path)'",
            environment: ["LANG": "C.UTF-8", "NO_COLOR": "1"])
        defer { window.close() }
        #expect(window.waitFor("0 contacts selected"))
        let screen = window.screen
        #expect(screen.contains("आरव वर्मा"))
        #expect(screen.contains("กำไร ดี"))
        #expect(!screen.unicodeScalars.contains("\u{200D}"))
        let rows = screen.split(separator: "\n").filter { $0.hasPrefix("[ ] ") }
        #expect(rows.count == names.count)
        let ends = Set(rows.map { row in DisplayWidth.measure(String(row.prefix { $0 != "+" })) })
        #expect(ends.count == 1, "\(rows)")
        try window.send("Escape")
        #expect(window.waitForFile(status) == "130\n")
    }

    @Test func ctrlZSuspendsAndFgResumes() throws {
        let book = try PickScreenCLITests.book()
        let folder = try Scratch.directory("pick-tmux")
        let out = folder.appendingPathComponent("out")
        let window = try TmuxWindow(
            columns: 70, lines: 14, command: "PS1='ready> ' bash --norc --noprofile -i",
            environment: ["LANG": "C.UTF-8", "NO_COLOR": "1"])
        defer { window.close() }
        #expect(window.waitFor("ready>"))
        try window.send("'\(CLI.executable.path)' pick --source '\(book.path)' > '\(out.path)'", literal: true)
        try window.send("Enter")
        #expect(window.waitFor("Search contacts"))
        try window.send("C-z")
        #expect(window.waitFor { $0.contains("Stopped") && !$0.contains("Search contacts") })
        try window.send("fg", literal: true)
        try window.send("Enter")
        #expect(window.waitFor("0 contacts selected"))
        try window.send("Tab")
        try window.send("Enter")
        #expect(window.waitFor { !$0.contains("Search contacts") })
        try window.send("echo \"status=$?\"", literal: true)
        try window.send("Enter")
        #expect(window.waitFor("status=0"))
        #expect(try String(contentsOf: out, encoding: .utf8).hasPrefix("Anna Berg <"))
    }

    /// The pick book as a vdir folder (one card per file, as vdirsyncer writes it) with its metadata file.
    static func vdir() throws -> URL {
        let folder = try Scratch.directory("pick-vdir").appendingPathComponent("book")
        try? FileManager.default.removeItem(at: folder)
        let cards = pickBook.components(separatedBy: "END:VCARD\r\n").filter { $0.contains("BEGIN:VCARD") }
        for card in cards {
            let uid = card.components(separatedBy: "UID:")[1].prefix { !$0.isNewline }
            try Scratch.write(card + "END:VCARD\r\n", to: folder.appendingPathComponent("\(uid).vcf"))
        }
        try Scratch.write("Family\n", to: folder.appendingPathComponent("displayname"))
        return folder
    }

    /// Runs `contacts pick --source DIR ARGS > out 2> err; echo $? > status` with an index folder of its own.
    static func startOnVdir(_ folder: URL, index: URL, _ args: String) throws -> (TmuxWindow, URL, URL, URL) {
        let scratch = try Scratch.directory("pick-tmux-vdir")
        let (out, err, status) = (
            scratch.appendingPathComponent("out"), scratch.appendingPathComponent("err"),
            scratch.appendingPathComponent("status")
        )
        try? FileManager.default.removeItem(at: status)
        let command =
            "'\(CLI.executable.path)' pick --source '\(folder.path)' --region US \(args) > '\(out.path)' 2> '\(err.path)'; echo $? > '\(status.path)'"
        let window = try TmuxWindow(
            columns: 70, lines: 14, command: command,
            environment: ["LANG": "C.UTF-8", "NO_COLOR": "1", "CONTACTS_INDEX_DIR": index.path])
        return (window, out, err, status)
    }

    @Test func picksFromAVdirFolderAndPrintsItsCards() throws {
        let folder = try Self.vdir()
        let index = try Scratch.directory("pick-vdir-index")
        let (window, out, _, status) = try Self.startOnVdir(folder, index: index, "--output vcard")
        defer { window.close() }
        #expect(window.waitFor("5/5"))
        try window.send("zo", literal: true)
        #expect(window.waitFor("1/5"))
        try window.send("Tab")
        #expect(window.waitFor("Select (1)"))
        try window.send("Enter")
        #expect(window.waitForFile(status) == "0\n")
        // The card is looked up in the folder by its id, and written whole.
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(text.hasPrefix("BEGIN:VCARD") && text.contains("FN:Zoë Ünal") && text.contains("EMAIL:zoe@example.org"))
    }

    /// A saved index of one file: the picked card is read from its place in the file and written whole.
    @Test func picksFromASavedIndexOfAFileAndPrintsItsCard() throws {
        let book = Scratch.path("pick-file-saved", suffix: ".vcf")
        try Scratch.write(pickBook, to: book)
        let index = try Scratch.directory("pick-file-saved-index")
        try? FileManager.default.removeItem(at: index)
        let build = try CLI.run(
            ["index", "build", book.path, "--region", "US"], environment: ["CONTACTS_INDEX_DIR": index.path])
        #expect(build.status == 0, "\(build.stderr)")
        let (window, out, err, status) = try Self.startOnVdir(book, index: index, "--output vcard")
        defer { window.close() }
        #expect(window.waitFor("5/5"))
        try window.send("bruno", literal: true)
        #expect(window.waitFor("1/5"))
        try window.send("Enter")
        #expect(window.waitForFile(status) == "0\n")
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(
            text.hasPrefix("BEGIN:VCARD") && text.contains(":bruno\r\n") && text.contains("FN:Bruno Finstein"),
            "\(text)")
        #expect(try String(contentsOf: err, encoding: .utf8).isEmpty)
    }

    @Test func picksFromASavedIndexOfAVdirAndRebuildsItWhenACardChanges() throws {
        let folder = try Self.vdir()
        let index = try Scratch.directory("pick-vdir-saved")
        try? FileManager.default.removeItem(at: index)
        let build = try CLI.run(
            ["index", "build", folder.path, "--region", "US"], environment: ["CONTACTS_INDEX_DIR": index.path])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.contains(": 5 contacts"))

        let indexFile = try #require(try FileManager.default.contentsOfDirectory(atPath: index.path).first)
        let saved = try Data(contentsOf: index.appendingPathComponent(indexFile))

        /// Picks Bruno in a new window: what was printed and what was said on stderr.
        func pickBruno() throws -> (out: String, err: String) {
            let (window, out, err, status) = try Self.startOnVdir(folder, index: index, "")
            defer { window.close() }
            #expect(window.waitFor("Search contacts"))
            try window.send("bruno", literal: true)
            #expect(window.waitFor("1/5"))
            try window.send("Enter")
            #expect(window.waitForFile(status) == "0\n")
            return (try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8))
        }
        // Current: the saved index answers (no note, left as it was), Enter prints the row.
        #expect(try pickBruno() == ("Bruno Finstein <+14155550101>\n", ""))
        #expect(try Data(contentsOf: index.appendingPathComponent(indexFile)) == saved)

        // A card changed: the index is stale (a note), the folder read and the index saved again.
        let card = folder.appendingPathComponent("bruno.vcf")
        let text = try String(contentsOf: card, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "N:Finstein;Bruno", with: "N:Fine;Bruno").utf8).write(to: card)
        let rebuilt = try pickBruno()
        #expect(rebuilt.out == "Bruno Fine <+14155550101>\n")
        #expect(rebuilt.err.contains("index is out of date") && rebuilt.err.contains("rebuilding it"))
        #expect(try Data(contentsOf: index.appendingPathComponent(indexFile)) != saved)
        // Current again.
        #expect(try pickBruno() == ("Bruno Fine <+14155550101>\n", ""))
    }
}
