import Foundation
import TestSupport
import Testing

/// `contacts pick` on a book without a saved index, in a real terminal (tmux) with the progress forced on
/// and shown at once: stderr gets the reading step as a bar (the book's size is known), the list follows.
@Suite(.serialized) struct PickProgressCLITests {
    @Test func aBookWithoutAnIndexShowsABarThenTheList() throws {
        let book = Scratch.path("pick-progress", suffix: ".vcf")
        try Scratch.write(VCardBookGenerator.book(cards: 3_000, seed: 5), to: book)
        let scratch = try Scratch.directory("pick-progress")
        let (err, status) = (scratch.appendingPathComponent("err"), scratch.appendingPathComponent("status"))
        try? FileManager.default.removeItem(at: status)
        let index = scratch.appendingPathComponent("index")
        try? FileManager.default.removeItem(at: index)
        let command =
            "'\(CLI.executable.path)' pick --source '\(book.path)' --region US > /dev/null 2> '\(err.path)'; echo $? > '\(status.path)'"
        let window = try TmuxWindow(
            columns: 70, lines: 14, command: command,
            environment: [
                "LANG": "C.UTF-8", "NO_COLOR": "1", "CONTACTS_INDEX_DIR": index.path, "CONTACTS_PROGRESS": "1",
                "CONTACTS_PROGRESS_AFTER": "0",
            ])
        defer { window.close() }
        #expect(window.waitFor("Search contacts"))
        let frames = try String(contentsOf: err, encoding: .utf8).components(separatedBy: "\r\u{1B}[K")
        // stderr is a file here: the bar fits 80 columns, the long scratch path cut with "…"
        let bars = frames.filter { $0.hasPrefix("reading and sorting ") && $0.contains("  [") && $0.contains("%  ") }
        #expect(!bars.isEmpty, "\(frames)")
        #expect(bars.allSatisfy { $0.count <= 79 }, "\(bars)")
        #expect(bars.last?.contains("]  100%  ") == true, "\(frames)")
        // Erased before what follows (the book's diagnostics, then the list on the terminal)
        #expect(frames.last?.hasPrefix("reading and sorting ") == false, "\(frames)")
        try window.send("Escape")
        #expect(window.waitForFile(status) == "130\n")
    }
}
