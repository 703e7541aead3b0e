import Foundation
import TestSupport
import Testing

/// The main job end to end: `contacts demo --deterministic` on the embedded sample address book.
@Suite struct DemoCLITests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let checkEML = packageRoot.appendingPathComponent("scripts/check_eml.py")
    static var python: String {
        let venv =
            ProcessInfo.processInfo.environment["CONTACTS_VENV"].flatMap { $0.isEmpty ? nil : $0 }
            ?? packageRoot.appendingPathComponent(".venv").path
        return venv + "/bin/python"
    }

    struct Summary: Decodable {
        struct Row: Decodable {
            var recipient: String
            var id: String
            var language: String
            var channel: String
            var to: String
            var subject: String
            var file: String
        }
        struct Literal: Decodable {
            var language: String
            var select: String
            var searchContacts: String
        }
        var recipients: [Row]
        var literals: [Literal]
        var failures: [String]
    }

    func tempDir() throws -> URL {
        let url = Scratch.path("demo")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func listingsAndSearches() throws {
        let out = try tempDir()
        let r = try CLI.run(["demo", "--deterministic", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        // Sections in three locales with their index bars.
        #expect(r.stdout.contains("== Sections (en"))
        #expect(r.stdout.contains("== Sections (sv"))
        #expect(r.stdout.contains("== Sections (zh-Hans"))
        #expect(r.stdout.contains("Index: A B C D E F G H I J K L M N O P Q R S T U V W X Y Z Å Ä Ö Α Β Γ"))
        // Every script with letters has its own sections; # holds only what has none.
        #expect(r.stdout.contains("  Б (1): Богдан Бондаренко"))
        #expect(r.stdout.contains("  ש (2): שירה כהן, שירה לוי"))
        // Keyword and Pinyin searches.
        #expect(r.stdout.contains("== Search (keywords) \"f b\" in en"))
        #expect(r.stdout.contains("  B: Bruno Finstein"))
        #expect(r.stdout.contains("  F: Felipe Baytelman, François Bérenger"))
        #expect(r.stdout.contains("selected: Bruno Finstein") && r.stdout.contains("selected: Felipe Baytelman"))
        #expect(r.stdout.contains("== Search \"wangwei\" in zh-Hans: 1 found"))
        #expect(r.stdout.contains("selected: 王伟"))
        // Literals in the recipients' languages.
        #expect(r.stdout.contains("de: Auswählen / Kontakte durchsuchen"))
        #expect(r.stdout.contains("ja: 選択 / 連絡先を検索"))
    }

    @Test func draftsPerRecipientInTheirLanguage() throws {
        let out = try tempDir()
        let r = try CLI.run(["demo", "--deterministic", "--json", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try JSONDecoder().decode(Summary.self, from: r.stdoutData)
        #expect(summary.failures.isEmpty)
        #expect(summary.recipients.count >= 6)
        let languages = Set(summary.recipients.map(\.language))
        #expect(languages.isSuperset(of: ["en", "fr", "de", "ja", "zh-Hans", "ru", "ar"]))
        let subjects = Dictionary(summary.recipients.map { ($0.language, $0.subject) }, uniquingKeysWith: { a, _ in a })
        #expect(subjects["de"] == "Ada Lovelace hat Sie zu Atlas eingeladen")
        #expect(subjects["fr"] == "Ada Lovelace vous invite à rejoindre Atlas")
        #expect(subjects["en"] == "Ada Lovelace invited you to Atlas")
        #expect(subjects["zh-Hans"] == "Ada Lovelace邀请你加入Atlas")
        // One .eml per email recipient; every text message as an sms: URI.
        let mail = summary.recipients.filter { $0.channel == "email" }
        let texts = summary.recipients.filter { $0.channel == "message" }
        #expect(!mail.isEmpty && !texts.isEmpty)
        let emlFiles = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".eml") }
        #expect(emlFiles.count == mail.count)
        let sms = try String(contentsOf: out.appendingPathComponent("messages.sms.txt"), encoding: .utf8)
        let uris = sms.split(separator: "\n")
        #expect(uris.count == texts.count)
        for (uri, row) in zip(uris, texts) { #expect(uri.hasPrefix("sms:" + row.to + "?body=")) }
        // The subject line of each file is the recipient's, encoded per RFC 2047 where needed.
        for row in mail {
            let eml = try String(contentsOf: out.appendingPathComponent(row.file), encoding: .utf8)
            #expect(eml.contains("Content-Language: \(row.language)"), "\(row.file)")
            #expect(eml.contains("\r\nSubject: "), "\(row.file)")
        }
        #expect(languages.count == summary.literals.count)
    }

    @Test func deterministicRunsAreIdenticalAndReplaceOnlyTheirOwnFiles() throws {
        let out = try tempDir()
        let mine = out.appendingPathComponent("notes.txt")
        try "keep me".write(to: mine, atomically: true, encoding: .utf8)
        let first = try CLI.run(["demo", "--deterministic", "--json", "--out", out.path])
        let files1 = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        var bytes1: [String: Data] = [:]
        for f in files1 { bytes1[f] = try Data(contentsOf: out.appendingPathComponent(f)) }
        let second = try CLI.run(["demo", "--deterministic", "--json", "--out", out.path])
        #expect(first.status == 0 && second.status == 0)
        #expect(first.stdout == second.stdout)
        let files2 = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files1 == files2)
        for f in files2 { #expect(try Data(contentsOf: out.appendingPathComponent(f)) == bytes1[f], "\(f)") }
        #expect(try String(contentsOf: mine, encoding: .utf8) == "keep me")
    }

    @Test func everyDraftPassesTheStrictValidator() throws {
        let out = try tempDir()
        let r = try CLI.run(["demo", "--deterministic", "--json", "--out", out.path])
        #expect(r.status == 0)
        let emls = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".eml") }
            .sorted()
        #expect(!emls.isEmpty)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.python)
        p.arguments = [Self.checkEML.path] + emls.map { out.appendingPathComponent($0).path }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(text)")
        #expect(text.components(separatedBy: ": 0 error(s)").count - 1 == emls.count, "\(text)")
    }
}
