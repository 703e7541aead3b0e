import Foundation
import TestSupport
import Testing

/// Header fields bulk mail needs: `--header` rendered per recipient (the tool's own fields refused),
/// `--list-id`, opaque unsubscribe tokens in a one-click URL; read back by Python's `email` (strict).
@Suite("compose: bulk-mail header fields", .serialized)
struct MailMergeHeadersCLITests {
    typealias Sheet = MailMergeSheetCLITests

    @Test("--header per recipient, --list-id, {{unsubscribe_token}} kept per address across runs")
    func headersListIDAndTokens() throws {
        let (dir, templates) = try Sheet.setup("headers")
        defer { try? FileManager.default.removeItem(at: dir) }
        try "email,name,table\nzoe@example.org,Zoë Zed,1\namy@example.org,Amy,2\n".write(
            to: dir.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let (mailbox, server, url) = try Sheet.mailServer(in: dir)
        defer { server.stop() }
        let args = [
            "compose", "--recipients", "people.csv", "--template", "note", "--templates", templates.path,
            "--from", "ada@example.org", "--smtp", url, "--locale", "en",
            "--header", "X-Campaign: spring-{{table}}", "--header", "X-Member: {{recipient.name}}",
            "--list-id", "Club news <news.example.org>", "--unsubscribe-tokens", "tokens.tsv",
            "--unsubscribe", "https://example.org/leave?t={{unsubscribe_token}}",
        ]
        let r = try CLI.run(args + ["--send"], currentDirectory: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let tokens = try String(contentsOf: dir.appendingPathComponent("tokens.tsv"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(tokens.map { $0[0] } == ["zoe@example.org", "amy@example.org"])
        #expect(tokens.allSatisfy { $0[1].count == 22 && !$0[1].contains("@") } && tokens[0][1] != tokens[1][1])
        let got = try Sheet.received(mailbox)
        _ = try Sheet.summaries(got.map(\.eml))
        let script = """
            import email, email.policy, sys
            for path in sys.argv[1:]:
                m = email.message_from_binary_file(open(path, 'rb'), policy=email.policy.strict)
                print('|'.join(str(m[k]) for k in ('To', 'X-Campaign', 'X-Member', 'List-Id', 'List-Unsubscribe', 'List-Unsubscribe-Post')))
            """
        let parsed = try runToEnd([DemoCLITests.python, "-c", script] + got.map(\.eml.path))
        #expect(parsed.status == 0, "\(parsed.output)")
        #expect(
            Set(parsed.output.split(separator: "\n").map(String.init)) == [
                "Zoë Zed <zoe@example.org>|spring-1|Zoë Zed|Club news <news.example.org>|<https://example.org/leave?t=\(tokens[0][1])>|List-Unsubscribe=One-Click",
                "Amy <amy@example.org>|spring-2|Amy|Club news <news.example.org>|<https://example.org/leave?t=\(tokens[1][1])>|List-Unsubscribe=One-Click",
            ], "\(parsed.output)")
        // Another run: the same token for each address (the file is not rewritten).
        let preview = try CLI.run(args + ["--preview", "1"], currentDirectory: dir)
        #expect(preview.stdout.contains("leave?t=\(tokens[0][1])>"), "\(preview.stdout)")
        for owned in [
            "Subject: x", "List-Id: <a.b>", "DKIM-Signature: v=1", "List-Unsubscribe: <https://x>", "no colon",
        ] {
            let refused = try CLI.run(args + ["--header", owned], currentDirectory: dir)
            #expect(refused.status == 2 && refused.stderr.contains("--header"), "\(owned): \(refused.stderr)")
        }
        let badID = try CLI.run(args + ["--list-id", "news"], currentDirectory: dir)
        #expect(badID.status == 2 && badID.stderr.contains("--list-id"))
    }

    @Test("every header line as written is one an MTA signs as it is: a local key signs and verifies (dkimpy)")
    func dkimSignsAndVerifies() throws {
        let (dir, templates) = try Sheet.setup("dkim")
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = String(repeating: "Grüße aus Zürich und München ", count: 4)
        try "email,name,table,topic\nzoe@example.org,Zoë Zed-Ångström von und zu Lichtenstein,4,\(long)\n".write(
            to: dir.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let (mailbox, server, url) = try Sheet.mailServer(in: dir)
        defer { server.stop() }
        let r = try CLI.run(
            [
                "compose", "--recipients", "people.csv", "--template", "note", "--templates", templates.path,
                "--from", "Ada Lovelace <ada@example.org>", "--smtp", url, "--locale", "en", "--send",
                "--header", "X-Topic: {{topic}}", "--list-id", "Club news <news.example.org>",
                "--unsubscribe", "https://example.org/leave?name={{recipient.name}}&topic={{topic}}",
                "--unsubscribe", "mailto:leave@example.org?subject={{recipient.name}}",
            ], currentDirectory: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let got = try Sheet.received(mailbox)
        _ = try Sheet.summaries(got.map(\.eml))
        // Signed with simple/simple canonicalization (which keeps every octet and fold), over every field
        // the tool wrote, then verified with the public key: no field needs re-folding on its way.
        let script = """
            import dkim, subprocess, sys, base64, os
            d = sys.argv[1]
            subprocess.run(['openssl', 'genrsa', '-out', d + '/key.pem', '2048'], check=True, capture_output=True)
            pub = subprocess.run(['openssl', 'rsa', '-in', d + '/key.pem', '-pubout', '-outform', 'DER'],
                                 check=True, capture_output=True).stdout
            key = open(d + '/key.pem', 'rb').read()
            raw = open(sys.argv[2], 'rb').read()
            head = raw.split(b'\\r\\n\\r\\n', 1)[0].split(b'\\r\\n')
            assert all(len(l) <= 78 or l.lstrip().startswith(b'<') for l in head), [l for l in head if len(l) > 78]
            names = sorted({l.split(b':', 1)[0] for l in head if l[:1] not in (b' ', b'\\t')})
            for c in ([b'simple', b'simple'], [b'relaxed', b'relaxed']):
                sig = dkim.sign(raw, b'sel', b'example.org', key, canonicalize=tuple(c), include_headers=names)
                ok = dkim.verify(sig + raw, dnsfunc=lambda n, timeout=5: b'v=DKIM1; k=rsa; p=' + base64.b64encode(pub))
                print(c[0].decode(), ok, len(names))
            """
        let parsed = try runToEnd([DemoCLITests.python, "-c", script, dir.path] + got.map(\.eml.path))
        #expect(
            parsed.status == 0 && parsed.output.contains("simple True") && parsed.output.contains("relaxed True"),
            "\(parsed.output)")
    }

    @Test("<img src=\"file\"> in an HTML or Markdown body: a cid: part inline, files only from the template's folder")
    func inlineImages() throws {
        let (dir, templates) = try Sheet.setup("inline")
        defer { try? FileManager.default.removeItem(at: dir) }
        let note = templates.appendingPathComponent("note")
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 300)
        try Data(png).write(to: note.appendingPathComponent("logo.png"))
        try
            "<p>Table {{table}}</p><img src=\"logo.png\" alt=\"logo\"><img src='logo.png'><img src=\"https://example.org/x.png\">\n"
            .write(to: note.appendingPathComponent("body.html.mustache"), atomically: true, encoding: .utf8)
        try "email,name,table\nzoe@example.org,Zoë,1\n".write(
            to: dir.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let args = [
            "compose", "--recipients", "people.csv", "--template", "note", "--templates", templates.path,
            "--from", "ada@example.org", "--locale", "en",
        ]
        let r = try CLI.run(args + ["--out", out.path], currentDirectory: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let emls = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".eml") }
            .map { out.appendingPathComponent($0) }
        #expect(emls.count == 1)
        _ = try Sheet.summaries(emls)
        let script = """
            import email, email.policy, sys, re
            m = email.message_from_binary_file(open(sys.argv[1], 'rb'), policy=email.policy.strict)
            related = next(p for p in m.walk() if p.get_content_type() == 'multipart/related')
            html = related.get_body(('html',)).get_content()
            cids = re.findall(r'src=["\\']cid:([^"\\']+)', html)
            images = [p for p in related.iter_parts() if p.get_content_maintype() == 'image']
            print(m.get_content_type(), len(cids), len(set(cids)), len(images), 'https://example.org/x.png' in html)
            for p in images:
                print(p['Content-ID'] == '<' + cids[0] + '>', p.get_content_disposition(), p.get_filename(),
                      p.get_payload(decode=True) == open(sys.argv[2], 'rb').read())
            """
        let parsed = try runToEnd(
            [DemoCLITests.python, "-c", script, emls[0].path, note.appendingPathComponent("logo.png").path])
        #expect(parsed.output == "multipart/related 2 1 1 True\nTrue inline logo.png True\n", "\(parsed.output)")
        // A file outside the template's folder is refused for that recipient.
        try "<img src=\"../../people.csv\">".write(
            to: note.appendingPathComponent("body.html.mustache"), atomically: true, encoding: .utf8)
        let outside = try CLI.run(args + ["--out", dir.appendingPathComponent("out2").path], currentDirectory: dir)
        #expect(outside.status == 1 && outside.stderr.contains("<img src>"), "\(outside.stderr)")
    }
}
