import Foundation
import TestSupport
import Testing

/// `contacts help --man`: the manual page made from the same model as `--help`.
@Suite struct ManPageCLITests {
    @Test("help --man is a roff page with every command, its options and examples; man -l renders it")
    func manPage() throws {
        let r = try CLI.run(["help", "--man"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix(#".TH "CONTACTS" 1 "#), "\(r.stdout.prefix(200))")
        let tool = try CLI.run(["--help"])
        for line in tool.stdout.components(separatedBy: "\n").drop(while: { $0 != "Commands:" }).dropFirst() {
            guard line.hasPrefix("  ") else { break }
            let name = line.dropFirst(2).components(separatedBy: "  ")[0]
            #expect(r.stdout.contains(".SS \"contacts \(name.replacingOccurrences(of: "-", with: "\\-"))\""), "\(name)")
        }
        #expect(r.stdout.contains(#"\fB\-\-template\fR \fINAME\fR"#) || r.stdout.contains(#"\fB\-\-template\fR"#))
        #expect(try CLI.run(["help", "--man", "sort"]).status == 2)

        let dir = try Scratch.directory("man")
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("contacts.1")
        try r.stdoutData.write(to: page)
        let man = try runToEnd(
            ["man", "-l", page.path], environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"])
        let text = man.output
        #expect(man.status == 0, "\(text)")
        for expected in ["contacts vcard inspect", "--keywords", "contacts search hele", "Exit codes"] {
            #expect(text.contains(expected), "man -l output lacks '\(expected)':\n\(text.prefix(2000))")
        }
        #expect(!text.contains("\\-"), "roff escapes left in the rendered page")
    }
}
