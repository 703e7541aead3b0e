import Foundation
import TestSupport
import Testing

@testable import Composer

/// RFC 2047 decoding of an unfolded header value (test oracle): adjacent encoded-words join without the
/// whitespace between them; each word must decode to complete UTF-8 on its own.
func decodeEncodedWords(_ value: String) -> (text: String, wordsOK: Bool) {
    var result = ""
    var wordsOK = true
    var previousWasWord = false
    var pendingSpace = ""
    for token in value.split(separator: " ", omittingEmptySubsequences: false) {
        if token.hasPrefix("=?UTF-8?"), token.hasSuffix("?="), token.count >= 12 {
            let kind = token.dropFirst(8).first!
            let payload = token.dropFirst(10).dropLast(2)
            var bytes: [UInt8] = []
            if kind == "B" {
                bytes = Array(Data(base64Encoded: String(payload)) ?? Data())
            } else {
                var i = payload.utf8.startIndex
                let u = payload.utf8
                while i < u.endIndex {
                    let b = u[i]
                    if b == UInt8(ascii: "_") {
                        bytes.append(0x20)
                    } else if b == UInt8(ascii: "=") {
                        let h = String(decoding: u[u.index(after: i)..<u.index(i, offsetBy: 3)], as: UTF8.self)
                        bytes.append(UInt8(h, radix: 16)!)
                        i = u.index(i, offsetBy: 2)
                    } else {
                        bytes.append(b)
                    }
                    i = u.index(after: i)
                }
            }
            if token.count > 75 { wordsOK = false }
            guard let text = String(validating: bytes, as: UTF8.self) else { return ("<split UTF-8>", false) }
            if !previousWasWord { result += pendingSpace }
            result += text
            previousWasWord = true
        } else {
            result += pendingSpace + token
            previousWasWord = false
        }
        pendingSpace = " "
    }
    return (result, wordsOK)
}

/// Header fields of a message: (name, unfolded value), plus the raw header lines.
func headerFields(_ message: [UInt8]) -> (fields: [(String, String)], lines: [String]) {
    let text = String(decoding: message, as: UTF8.self)
    let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
    let lines = head.components(separatedBy: "\r\n")
    var fields: [(String, String)] = []
    for line in lines {
        if line.hasPrefix(" ") || line.hasPrefix("\t") {
            fields[fields.count - 1].1 += line
        } else if let colon = line.firstIndex(of: ":") {
            fields.append((String(line[..<colon]), String(line[line.index(after: colon)...].dropFirst())))
        }
    }
    return (fields, lines)
}

@Suite("MIME properties over random inputs")
struct PropertyTests {
    @Test("CR/LF/NUL anywhere in header inputs is refused; otherwise no field can be added and text round-trips")
    func headerInjectionAndEncodedWords() throws {
        var rng = SplitMix64(seed: 2026)
        var validated: [(String, [UInt8])] = []
        let allowed: Set<String> = [
            "Date", "Message-ID", "From", "To", "Subject", "X-Note", "MIME-Version", "Content-Type",
            "Content-Transfer-Encoding",
        ]
        var refused = 0
        for round in 0..<600 {
            let controls = round % 3 == 0
            let name = randomText(&rng, length: 1 + Int(rng.next() % 50), controls: controls)
            let subject = randomText(&rng, length: Int(rng.next() % 120), controls: controls)
            let note = randomText(&rng, length: 1 + Int(rng.next() % 90), controls: controls)
            let hasControl = (name + subject + note).unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
            do {
                let d = MailDraft(
                    from: try MailAddress(address: "a@example.com"),
                    to: [try MailAddress(name: name, address: "b@example.com")],
                    subject: subject, textBody: subject, extraHeaders: [MailHeader(name: "X-Note", value: note)])
                let bytes = try MIMEWriter().write(d)
                #expect(!hasControl, "accepted input with CR/LF/NUL")
                let (fields, lines) = headerFields(bytes)
                #expect(Set(fields.map(\.0)) == allowed && fields.count == allowed.count, "\(fields.map(\.0))")
                for line in lines {
                    #expect(line.utf8.count <= 78 && line.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "\(line)")
                    if line.contains("=?") { #expect(line.utf8.count <= 76, "\(line)") }
                }
                let value = Dictionary(fields, uniquingKeysWith: { a, _ in a })
                let s = decodeEncodedWords(value["Subject"]!)
                #expect(
                    s.wordsOK && s.text == subject, "subject \(subject.debugDescription) → \(s.text.debugDescription)")
                let n = decodeEncodedWords(value["X-Note"]!)
                #expect(n.wordsOK && n.text == note, "note \(note.debugDescription) → \(n.text.debugDescription)")
                // Python's email package puts a space between adjacent encoded-words in a display name
                // (against RFC 2047 6.2; it cannot read back its own output), so check_eml.py's parser
                // cross-check only holds for names that fit one encoded-word. Longer names are covered by
                // `longDisplayNamesFollowRFC2047`.
                let oneWord = min(name.utf8.count, (name.utf8.count + 2) / 3 * 4) <= 45
                if validated.count < 150 && oneWord { validated.append(("random \(round)", bytes)) }
            } catch let error as ComposerError {
                guard case .headerInjection = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(hasControl)
                refused += 1
            }
        }
        #expect(refused > 50)
        try checkEML(validated)
    }

    @Test("long display names split into RFC 2047 words that fast-mail-parser reads back exactly")
    func longDisplayNamesFollowRFC2047() throws {
        guard requireVenv() else { return }
        let names = [
            "山田太郎様いつもお世話になっております東京日本語テスト長い名前です",
            "Παπαδοπούλου-Αλεξανδροπούλου Ελένη Μαρία Κωνσταντίνα", "👩‍👩‍👧‍👦 Familie Müller-Lüdenscheidt aus Köln am Rhein",
        ]
        var files: [String] = []
        let dir = try Env.tempDirectory("long-names")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (i, name) in names.enumerated() {
            let d = MailDraft(
                from: try MailAddress(address: "a@example.com"),
                to: [try MailAddress(name: name, address: "b@example.com")],
                subject: "s", textBody: "x")
            let bytes = try MIMEWriter().write(d)
            let to = headerFields(bytes).fields.first { $0.0 == "To" }!.1
            let phrase = String(to[..<to.range(of: " <b@example.com>")!.lowerBound])
            #expect(decodeEncodedWords(phrase).text == name && decodeEncodedWords(phrase).wordsOK)
            let url = dir.appendingPathComponent("\(i).eml")
            try Data(bytes).write(to: url)
            files.append(url.path)
        }
        let script =
            "import sys, fast_mail_parser as f\nfor p in sys.argv[1:]: print(f.parse_email(open(p,'rb').read()).to[0].display_name)"
        let result = try Env.run(Env.python, ["-c", script] + files)
        #expect(result.out.split(separator: "\n").map(String.init) == names, "\(result.err)")
    }

    @Test("encoded-words never split a UTF-8 sequence, stay ≤ 75 chars, and decode to the input")
    func encodedWordSplitting() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<2000 {
            let text = randomText(&rng, length: 1 + Int(rng.next() % 200))
            var out: [UInt8] = []
            var folder = MIME.Folder(lineLength: 8)
            MIME.appendEncodedWords(text[...].utf8, folder: &folder, to: &out)
            let unfolded = String(decoding: out, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "")
            let decoded = decodeEncodedWords(String(unfolded.dropFirst()))
            #expect(decoded.wordsOK && decoded.text == text, "\(text.debugDescription)")
        }
    }
}
