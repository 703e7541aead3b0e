import Composer
import Foundation

/// `Benchmarks compose [N]`: composes N (default 100,000) multilingual messages to memory with `MIMEWriter`
/// (text, every fourth with an HTML alternative; display names and subjects in eight scripts) and reports
/// messages/s against Python's `email` package (EmailMessage + policy.SMTP) composing the same messages in
/// the same run (a smaller sample, since it is much slower). Target: ≥ 100k messages/s.
func runComposeBench(args: [String]) {
    let count = args.first.flatMap(Int.init) ?? 100_000
    let names = [
        "Jürgen Müller", "山田 太郎", "Ελένη Παπαδοπούλου", "محمد عبد الله", "Chloé Dubois", "Łukasz Nowak",
        "김민준", "O'Brien, Seán",
    ]
    let subjects = [
        "Ihre Bestellung", "ご注文の確認", "Η παραγγελία σας", "تأكيد الطلب", "Votre commande", "Twoje zamówienie",
        "주문 확인", "Your order 🎉",
    ]
    let greetings = ["Hallo", "こんにちは", "Γεια σας", "مرحبا", "Bonjour", "Cześć", "안녕하세요", "Hello"]
    let from = try! MailAddress(name: "Example & Co.", address: "orders@example.com")
    let addresses = (0..<1000).map { try! MailAddress(name: names[$0 % names.count], address: "user\($0)@example.com") }
    var drafts: [MailDraft] = []
    drafts.reserveCapacity(count)
    for i in 0..<count {
        let k = i % names.count
        var body =
            "\(greetings[k]) \(names[k]),\n\nThank you for your order #\(100_000 + i) placed on 2025-06-\(i % 28 + 1).\n"
        for item in 0..<5 {
            body += "  * \((i + item) % 4 + 1) x Product \((i + item) % 8) at \((i * 7 + item * 13) % 100 + 1).99 EUR\n"
        }
        body += "\nKind regards,\nExample & Co.\n1 Main Street, 12345 Springfield\n"
        drafts.append(
            MailDraft(
                from: from, to: [addresses[i % addresses.count]], subject: "\(subjects[k]) #\(100_000 + i)",
                textBody: body, htmlBody: i % 4 == 0 ? "<p>\(greetings[k]) <b>\(names[k])</b></p>" : nil))
    }
    let writer = MIMEWriter()
    let date = Date(timeIntervalSince1970: 1_750_000_000)
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 14)
    var totalBytes = 0
    var checksum: UInt64 = 0
    // Warm-up
    for d in drafts.prefix(1000) {
        buffer.removeAll(keepingCapacity: true)
        try? writer.write(d, into: &buffer, date: date)
    }
    let start = DispatchTime.now().uptimeNanoseconds
    for d in drafts {
        buffer.removeAll(keepingCapacity: true)
        do { try writer.write(d, into: &buffer, date: date) } catch {
            print("compose failed: \(error)")
            return
        }
        totalBytes += buffer.count
        checksum &+= UInt64(buffer[buffer.count / 2])
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let rate = Double(count) / seconds
    print(
        String(
            format: "compose: %d messages, %.1f MB in %.3f s: %.0f messages/s (target ≥ 100000) [checksum %llu]",
            count, Double(totalBytes) / 1e6, seconds, rate, checksum))

    // Baseline: Python's email package, same messages (a sample), timed inside Python.
    let sample = min(count, 5000)
    let env = ProcessInfo.processInfo.environment
    let venv =
        env["CONTACTS_VENV"].map { $0 + "/bin/python" } ?? FileManager.default.currentDirectoryPath
        + "/.venv/bin/python"
    let python = FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/python3"
    let script = """
        import json, sys, time
        from email.message import EmailMessage
        from email.headerregistry import Address
        from email import policy
        names, subjects, greetings, n = json.loads(sys.stdin.read())
        t = time.perf_counter(); total = 0
        for i in range(n):
            k = i % len(names)
            body = f"{greetings[k]} {names[k]},\\n\\nThank you for your order #{100000 + i} placed on 2025-06-{i % 28 + 1}.\\n"
            for item in range(5):
                body += f"  * {(i + item) % 4 + 1} x Product {(i + item) % 8} at {(i * 7 + item * 13) % 100 + 1}.99 EUR\\n"
            body += "\\nKind regards,\\nExample & Co.\\n1 Main Street, 12345 Springfield\\n"
            m = EmailMessage(policy=policy.SMTP)
            m["From"] = Address("Example & Co.", addr_spec="orders@example.com")
            m["To"] = Address(names[k], addr_spec=f"user{i % 1000}@example.com")
            m["Subject"] = f"{subjects[k]} #{100000 + i}"
            m["Date"] = "Sun, 15 Jun 2025 15:06:40 +0000"
            m["Message-ID"] = f"<{i}@example.com>"
            m.set_content(body)
            if i % 4 == 0:
                m.add_alternative(f"<p>{greetings[k]} <b>{names[k]}</b></p>", subtype="html")
            total += len(m.as_bytes())
        print(n / (time.perf_counter() - t))
        """
    let p = Process()
    p.executableURL = URL(fileURLWithPath: python)
    p.arguments = ["-c", script]
    let input = Pipe()
    let output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    do {
        try p.run()
        let payload = try JSONSerialization.data(withJSONObject: [names, subjects, greetings, sample] as [Any])
        input.fileHandleForWriting.write(payload)
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        if let pyRate = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            print(
                String(
                    format: "baseline Python email (%d messages): %.0f messages/s; MIMEWriter is %.1fx faster", sample,
                    pyRate,
                    rate / pyRate))
        } else {
            print("baseline Python email: no result (\(python))")
        }
    } catch {
        print("baseline Python email: not run (\(error))")
    }
}
