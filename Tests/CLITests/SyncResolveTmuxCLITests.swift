import Foundation
import TestSupport
import Testing

/// `contacts sync --resolve ID` without --take on a real terminal (tmux), against Radicale (issue 29 item 9).
@Suite(.serialized) struct SyncResolveTmuxCLITests {
    /// Ada's book of Radicale synced into WORK/family, then her card changed here by `local` and on the
    /// server by `remote`, and synced again: the server, the sync's arguments, the card's file and the
    /// second sync's output.
    static func conflict(
        _ name: String, local: (String) -> String, remote: (String) -> String
    ) throws -> (server: ScriptServer, base: String, work: URL, sync: [String], file: URL, output: String) {
        let (server, base) = try DAVTestServer.radicale()
        let password = try DAVTestServer.passwordFile()
        let work = try Scratch.directory(name)
        let sync = [
            "sync", base + "/ada/family/", "--user", "ada", "--password-file", password.path, "--into", "family",
        ]
        #expect(try CLI.run(sync, currentDirectory: work).status == 0)
        let file = work.appendingPathComponent("family/ada.vcf")
        let ada = try String(contentsOf: file, encoding: .utf8)
        try Data(local(ada).utf8).write(to: file)
        let put = try runToEnd([
            "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "ada:secret", "-X", "PUT", "-H",
            "Content-Type: text/vcard", "--data-binary", remote(ada), base + "/ada/family/ada.vcf",
        ])
        #expect(put.output.hasPrefix("20"), "\(put.output)")
        let output = try CLI.run(sync, currentDirectory: work).stdout
        return (server, base, work, sync, file, output)
    }

    /// `contacts sync ARGS > OUT` run from `work` in a COLUMNS×LINES tmux window; the file its exit status
    /// goes to.
    static func window(_ args: String, in work: URL, output: String, columns: Int, lines: Int) throws -> (
        TmuxWindow, URL
    ) {
        let status = work.appendingPathComponent("status")
        let window = try TmuxWindow(
            columns: columns, lines: lines,
            command:
                "cd '\(work.path)' && '\(CLI.executable.path)' sync \(args) > '\(output)'; echo $? > '\(status.path)'",
            environment: ["LANG": "C.UTF-8", "NO_COLOR": "1"])
        return (window, status)
    }

    /// A conflict on EMAIL beside a local ORG change: the ORG change is in the folder and on the server
    /// before anyone resolves (never lost beside a conflict); the screen shows both EMAILs, `b` takes both,
    /// Enter writes them, and the next sync sends both EMAILs and the ORG.
    @Test func bothSidesOfAMultiValuedPropertyAreTakenOnTheScreen() throws {
        let (server, base, work, sync, file, conflicted) = try Self.conflict(
            "sync-resolve-tmux",
            local: {
                $0.replacingOccurrences(of: "ada@example.org", with: "ada@local.example.org")
                    .replacingOccurrences(of: "END:VCARD", with: "ORG:Local Org\r\nEND:VCARD")
            },
            remote: { $0.replacingOccurrences(of: "ada@example.org", with: "ada@server.example.org") })
        defer { server.stop() }
        #expect(conflicted.contains("conflict: ada.vcf (EMAIL changed on both sides)"), "\(conflicted)")
        // The change that did not conflict is kept beside the conflict, here and on the server.
        #expect(try String(contentsOf: file, encoding: .utf8).contains("ORG:Local Org"))
        let before = try runToEnd(["curl", "-s", "-u", "ada:secret", base + "/ada/family/ada.vcf"]).output
        #expect(before.contains("ORG:Local Org") && before.contains("ada@server.example.org"), "\(before)")

        // Without a terminal, --resolve without --take is a usage error that names --take.
        let noTerminal = try CLI.run(["sync", "--resolve", "ada.vcf", "--into", "family"], currentDirectory: work)
        #expect(noTerminal.status == 2 && noTerminal.stderr.contains("--take"), "\(noTerminal.stderr)")

        let out = work.appendingPathComponent("out")
        let (window, status) = try Self.window(
            "--resolve-all --into family", in: work, output: out.path, columns: 90, lines: 12)
        defer { window.close() }
        #expect(window.waitFor("ada.vcf: 1 property changed on both sides"), "\(window.screen)")
        let screen = window.screen
        let row = screen.split(separator: "\n").first { $0.hasPrefix("EMAIL") } ?? ""
        #expect(
            row.contains("○ EMAIL:ada@local.example.org") && row.contains("● EMAIL:ada@server.example.org"), "\(screen)"
        )
        try window.send("b", literal: true)
        #expect(window.waitFor("● EMAIL:ada@local.example.org"), "\(window.screen)")
        try window.send("Enter")
        #expect(window.waitForFile(status) == "0\n")
        #expect(
            try String(contentsOf: out, encoding: .utf8) == "ada.vcf: EMAIL both; the next sync sends it\n")
        let settled = try String(contentsOf: file, encoding: .utf8)
        for expected in ["ada@local.example.org", "ada@server.example.org", "ORG:Local Org"] {
            #expect(settled.contains(expected), "\(expected) in \(settled)")
        }
        #expect(try CLI.run(["sync", "--conflicts", "family"], currentDirectory: work).stdout == "no conflicts\n")
        let sent = try CLI.run(sync, currentDirectory: work)
        #expect(sent.status == 0 && sent.stdout.contains("1 sent"), "\(sent.stdout)")
        let onServer = try runToEnd(["curl", "-s", "-u", "ada:secret", base + "/ada/family/ada.vcf"]).output
        for expected in ["ada@local.example.org", "ada@server.example.org", "ORG:Local Org"] {
            #expect(onServer.contains(expected), "\(expected) on the server: \(onServer)")
        }
    }

    /// Esc leaves the conflict open and the file as it was; the exit status is 130.
    @Test func escapeLeavesTheConflictOpen() throws {
        let (server, _, work, _, file, conflicted) = try Self.conflict(
            "sync-resolve-esc", local: { $0.replacingOccurrences(of: "FN:Ada Lovelace", with: "FN:Ada L.") },
            remote: { $0.replacingOccurrences(of: "FN:Ada Lovelace", with: "FN:Countess Lovelace") })
        defer { server.stop() }
        #expect(conflicted.contains("conflict: ada.vcf (FN"), "\(conflicted)")
        let before = try Data(contentsOf: file)
        let (window, status) = try Self.window(
            "--resolve u-ada --into family", in: work, output: "/dev/null", columns: 80, lines: 10)
        defer { window.close() }
        #expect(window.waitFor("FN:Countess Lovelace"), "\(window.screen)")
        try window.send("Left")
        try window.send("Escape")
        #expect(window.waitForFile(status) == "130\n")
        #expect(try Data(contentsOf: file) == before)
        #expect(try CLI.run(["sync", "--conflicts", "family"], currentDirectory: work).stdout.contains("ada.vcf (FN"))
    }
}
