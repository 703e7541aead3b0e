import Foundation
import Templating

// Template rendering benchmark: Benchmarks/Fixtures/mail-template/ (mail.mustache + signature partial) for N
// deterministic recipient contexts with HTML escaping. Compares, in one run: the compiled Mustache
// engine, a hand-written Swift function producing the same text (the practical limit), and Python
// chevron and jinja2 from the benchmark venv ($CONTACTS_VENV or ./.venv).
//
//   Benchmarks templates [--count N] [--python-count N] [--no-python]

private enum MailData {
    static let first = ["Anna", "Ben", "Chloé", "David", "Emma", "François", "Greta", "Hugo", "Iris", "Jonas"]
    static let last = ["Müller", "O'Brien", "Smith", "Dubois", "García", "Nowak", "Jensen"]
    static let products = [
        "Coffee beans 1kg", "Cable <USB-C> & adapter", "Notebook \"A5\"", "Desk lamp",
        "Tea sampler & cups", "Stickers <pack>", "Water bottle", "Headphones",
    ]
    static let managers = ["Ms. Kim", "Mr. Lee", "Dr. Ortiz & team", "Ms. Rossi"]
    static let notes = [
        "Leave at the front door.", "Ring twice & wait <5 min>.",
        "Deliver to \"Building B\", reception.", "No note.",
    ]
}

/// The README's `make_context(i)` as a typed Swift value (input of the hand-written function).
private struct MailContext {
    struct Item {
        var name: String
        var qty: Int
        var price: String
    }
    var firstName, lastName, email: String
    var orderId: Int
    var orderDate: String
    var items: [Item]
    var vip: Bool
    var shipping, note, manager, company, companyAddress, unsubscribeUrl: String

    init(_ i: Int) {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        firstName = MailData.first[i % 10]
        lastName = MailData.last[i % 7]
        email = "user\(i)@example.com"
        orderId = 100000 + i
        orderDate = "2025-06-\(two(i % 28 + 1))"
        items = (0..<5).map { k in
            Item(
                name: MailData.products[(i + k) % 8], qty: (i + k) % 4 + 1,
                price: "\((i * 7 + k * 13) % 100 + 1).\(two((i + k) % 100))")
        }
        vip = i % 3 == 0
        shipping = "4.95 EUR"
        note = MailData.notes[i % 4]
        manager = MailData.managers[i % 4]
        company = "Example & Co."
        companyAddress = "1 Main Street, 12345 Springfield"
        unsubscribeUrl = "https://example.com/unsubscribe?id=\(i)&t=x\(i % 97)"
    }

    /// The same context as the engine sees it.
    var mustacheValue: MustacheValue {
        .dictionary([
            "firstName": .string(firstName), "lastName": .string(lastName), "email": .string(email),
            "orderId": .int(orderId), "orderDate": .string(orderDate),
            "items": .array(
                items.map { .dictionary(["name": .string($0.name), "qty": .int($0.qty), "price": .string($0.price)]) }),
            "vip": .bool(vip), "shipping": .string(shipping), "note": .string(note), "manager": .string(manager),
            "company": .string(company), "companyAddress": .string(companyAddress),
            "unsubscribeUrl": .string(unsubscribeUrl),
        ])
    }
}

/// Byte class for HTML escaping: 0 = as is, else which entity.
private let escapeClass: [UInt8] = {
    var t = [UInt8](repeating: 0, count: 256)
    t[0x26] = 1
    t[0x3C] = 2
    t[0x3E] = 3
    t[0x22] = 4
    t[0x27] = 5
    return t
}()

/// Hand-written: the mail's text, with the same HTML escaping, appended to `out`.
private func handWrittenMail(_ c: MailContext, into out: inout [UInt8]) {
    @inline(__always) func lit(_ s: StaticString) { s.withUTF8Buffer { out.append(contentsOf: $0) } }
    @inline(__always) func esc(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            escapeClass.withUnsafeBufferPointer { table in
                var start = 0
                for i in 0..<buf.count {
                    let k = table[Int(buf[i])]
                    if k == 0 { continue }
                    let rep: StaticString
                    switch k {
                    case 1: rep = "&amp;"
                    case 2: rep = "&lt;"
                    case 3: rep = "&gt;"
                    case 4: rep = "&quot;"
                    default: rep = "&#39;"
                    }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<i]))
                    rep.withUTF8Buffer { out.append(contentsOf: $0) }
                    start = i + 1
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start...]))
            }
        }
    }
    @inline(__always) func int(_ n: Int) { esc(String(n)) }
    lit("Hello ")
    esc(c.firstName)
    lit(",\n\nThank you for your order #")
    int(c.orderId)
    lit(" placed on ")
    esc(c.orderDate)
    lit(". This message\nconfirms the details for ")
    esc(c.firstName)
    lit(" ")
    esc(c.lastName)
    lit(" <")
    esc(c.email)
    lit(">.\n\nYour items:\n")
    for item in c.items {
        lit("  * ")
        int(item.qty)
        lit(" x ")
        esc(item.name)
        lit(" at ")
        esc(item.price)
        lit(" EUR\n")
    }
    if c.items.isEmpty { lit("  (no items in this order)\n") }
    lit("\n")
    if c.vip {
        lit("As a VIP member, shipping is free for this order.\n")
    } else {
        lit("Shipping: ")
        esc(c.shipping)
        lit(". Join our VIP program to save on your next order.\n")
    }
    lit("\nDelivery note: ")
    esc(c.note)
    lit("\n\nIf you have questions, simply reply to this email or contact\nyour account manager, ")
    esc(c.manager)
    lit(".\n\n--\nKind regards,\n")
    esc(c.company)
    lit(" Customer Care\n")
    esc(c.companyAddress)
    lit("\nUnsubscribe: ")
    esc(c.unsubscribeUrl)
    lit("\n")
}

/// CPU time of this process (the loops are single-threaded; CPU time is steadier than wall time on a
/// machine shared with other jobs).
private func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

private func rate(_ count: Int, _ nanos: UInt64) -> Double { Double(count) / (Double(nanos) / 1e9) }

/// The reference mail template (`Benchmarks/Fixtures/mail-template`, carried with the package so that a
/// clone benchmarks on its own).
private func benchDirectory() -> URL? {
    let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/mail-template")
    return FileManager.default.fileExists(atPath: dir.appendingPathComponent("mail.mustache").path) ? dir : nil
}

private let pythonScript = #"""
    import sys, time, json
    FIRST = ["Anna", "Ben", "Chloé", "David", "Emma", "François", "Greta", "Hugo", "Iris", "Jonas"]
    LAST = ["Müller", "O'Brien", "Smith", "Dubois", "García", "Nowak", "Jensen"]
    PRODUCTS = ["Coffee beans 1kg", "Cable <USB-C> & adapter", "Notebook \"A5\"", "Desk lamp",
                "Tea sampler & cups", "Stickers <pack>", "Water bottle", "Headphones"]
    MANAGERS = ["Ms. Kim", "Mr. Lee", "Dr. Ortiz & team", "Ms. Rossi"]
    NOTES = ["Leave at the front door.", "Ring twice & wait <5 min>.",
             "Deliver to \"Building B\", reception.", "No note."]
    def make_context(i):
        return {"firstName": FIRST[i % 10], "lastName": LAST[i % 7], "email": "user%d@example.com" % i,
                "orderId": 100000 + i, "orderDate": "2025-06-%02d" % (i % 28 + 1),
                "items": [{"name": PRODUCTS[(i + k) % 8], "qty": (i + k) % 4 + 1,
                           "price": "%d.%02d" % ((i*7 + k*13) % 100 + 1, (i + k) % 100)} for k in range(5)],
                "vip": i % 3 == 0, "shipping": "4.95 EUR", "note": NOTES[i % 4], "manager": MANAGERS[i % 4],
                "company": "Example & Co.", "companyAddress": "1 Main Street, 12345 Springfield",
                "unsubscribeUrl": "https://example.com/unsubscribe?id=%d&t=x%d" % (i, i % 97)}
    JINJA = """Hello {{ firstName }},

    Thank you for your order #{{ orderId }} placed on {{ orderDate }}. This message
    confirms the details for {{ firstName }} {{ lastName }} <{{ email }}>.

    Your items:
    {% for item in items %}  * {{ item.qty }} x {{ item.name }} at {{ item.price }} EUR
    {% else %}  (no items in this order)
    {% endfor %}
    {% if vip %}As a VIP member, shipping is free for this order.
    {% else %}Shipping: {{ shipping }}. Join our VIP program to save on your next order.
    {% endif %}
    Delivery note: {{ note }}

    If you have questions, simply reply to this email or contact
    your account manager, {{ manager }}.

    {% include "signature" %}"""
    engine, directory, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    mail = open(directory + "/mail.mustache", encoding="utf-8").read()
    signature = open(directory + "/signature.mustache", encoding="utf-8").read()
    contexts = [make_context(i) for i in range(n)]
    if engine == "chevron":
        import chevron
        partials = {"signature": signature}
        render = lambda c: chevron.render(mail, c, partials_dict=partials)
    else:
        import jinja2
        sig = signature.replace("{{company}}", "{{ company }}").replace("{{companyAddress}}", "{{ companyAddress }}") \
                       .replace("{{unsubscribeUrl}}", "{{ unsubscribeUrl }}")
        env = jinja2.Environment(loader=jinja2.DictLoader({"mail": JINJA, "signature": sig}), autoescape=True,
                                 keep_trailing_newline=True)
        template = env.get_template("mail")
        render = template.render
    first = render(contexts[0])
    total = 0
    start = time.process_time()
    for c in contexts:
        total += len(render(c))
    elapsed = time.process_time() - start
    print(json.dumps({"rate": n / elapsed, "bytes": total, "first": first}))
    """#

private struct PythonResult: Decodable {
    var rate: Double
    var bytes: Int
    var first: String
}

private func runPython(_ engine: String, directory: URL, count: Int) -> Result<PythonResult, BenchError> {
    let env = ProcessInfo.processInfo.environment
    let venv =
        env["CONTACTS_VENV"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".venv")
    let python = venv.appendingPathComponent("bin/python")
    guard FileManager.default.isExecutableFile(atPath: python.path) else {
        return .failure(BenchError(message: "no Python venv at \(venv.path) (run `make deps` or set CONTACTS_VENV)"))
    }
    let script = FileManager.default.temporaryDirectory.appendingPathComponent("template-bench-\(getpid()).py")
    defer { try? FileManager.default.removeItem(at: script) }
    do {
        try pythonScript.write(to: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path, engine, directory.path, String(count)]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let lastLine = String(decoding: errData, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
            return .failure(BenchError(message: "\(engine) failed: \(lastLine)"))
        }
        return .success(try JSONDecoder().decode(PythonResult.self, from: data))
    } catch {
        return .failure(BenchError(message: "\(engine): \(error)"))
    }
}

private struct BenchError: Error {
    var message: String
}

/// Same text up to the spelling of the apostrophe entity (`&#39;`, `&#x27;`, `&#39;`) and of `&quot;`.
private func sameText(_ a: String, _ b: String) -> Bool {
    func norm(_ s: String) -> String {
        s.replacingOccurrences(of: "&#x27;", with: "&#39;").replacingOccurrences(of: "&#34;", with: "&quot;")
    }
    return norm(a) == norm(b)
}

func runTemplateBench(args: [String]) {
    var count = 200_000
    var pythonCount = Int.max
    var python = true
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--count" where i + 1 < args.count:
            count = Int(args[i + 1]) ?? count
            i += 1
        case "--python-count" where i + 1 < args.count:
            pythonCount = Int(args[i + 1]) ?? pythonCount
            i += 1
        case "--no-python": python = false
        default:
            print("template bench: unknown argument '\(args[i])' (use --count N, --python-count N, --no-python)")
            return
        }
        i += 1
    }
    pythonCount = min(pythonCount, count)
    guard let directory = benchDirectory() else {
        print("template bench: Benchmarks/Fixtures/mail-template not found")
        return
    }
    let template: MustacheTemplate
    let partials: MustachePartials
    do {
        let mail = try String(contentsOf: directory.appendingPathComponent("mail.mustache"), encoding: .utf8)
        let signature = try String(contentsOf: directory.appendingPathComponent("signature.mustache"), encoding: .utf8)
        template = try MustacheTemplate(mail, name: "mail.mustache")
        partials = MustachePartials(["signature": try MustacheTemplate(signature, name: "signature.mustache")])
    } catch {
        print("template bench: \(error)")
        return
    }
    print(
        "Template rendering: \(directory.path), \(count) recipients, HTML escaping, template compiled once (CPU time, best of 3)"
    )
    let typed = (0..<count).map(MailContext.init)
    let values = typed.map(\.mustacheValue)
    let options = RenderOptions(escaping: .html, strict: true, helpers: false)

    // Same text?
    var engineFirst = ""
    do {
        for k in [0, 1, 2, 3, 4, 5, 6, count - 1] where k < count {
            let engine = try template.render(values[k], partials: partials, options: options)
            var hand: [UInt8] = []
            handWrittenMail(typed[k], into: &hand)
            if engine != String(decoding: hand, as: UTF8.self) {
                print(
                    "  MISMATCH between engine and hand-written output for context \(k):\n\(engine)\n---\n\(String(decoding: hand, as: UTF8.self))"
                )
                return
            }
            if k == 0 { engineFirst = engine }
        }
    } catch {
        print("template bench: \(error)")
        return
    }

    var buffer: [UInt8] = []
    buffer.reserveCapacity(4096)
    var bytes = 0
    // Warm-up, then the measured loops (best of 3 for the Swift ones).
    func engineLoop() throws -> UInt64 {
        let start = now()
        for v in values {
            buffer.removeAll(keepingCapacity: true)
            try template.render(v, partials: partials, options: options, into: &buffer)
            bytes &+= buffer.count
        }
        return now() - start
    }
    func handLoop() -> UInt64 {
        let start = now()
        for c in typed {
            buffer.removeAll(keepingCapacity: true)
            handWrittenMail(c, into: &buffer)
            bytes &+= buffer.count
        }
        return now() - start
    }
    var engineBest = UInt64.max
    var handBest = UInt64.max
    do {
        for _ in 0..<3 {
            engineBest = min(engineBest, try engineLoop())
            handBest = min(handBest, handLoop())
        }
    } catch {
        print("template bench: \(error)")
        return
    }
    let engineRate = rate(count, engineBest)
    let handRate = rate(count, handBest)
    func fmt(_ r: Double) -> String { String(format: "%10.0f renders/s", r) }
    print("  Templating (MustacheTemplate)   \(fmt(engineRate))")
    print(
        "  hand-written Swift function     \(fmt(handRate))   engine/hand-written = \(String(format: "%.2f", engineRate / handRate))x (target >= 0.8x)"
    )
    if python {
        for engine in ["chevron", "jinja2"] {
            switch runPython(engine, directory: directory, count: pythonCount) {
            case .success(let r):
                let same = sameText(r.first, engineFirst) ? "same text" : "text differs"
                let target = engine == "jinja2" ? " (target >= 6x)" : ""
                print(
                    "  Python \(engine.padding(toLength: 24, withPad: " ", startingAt: 0)) \(fmt(r.rate))   engine/\(engine) = \(String(format: "%.1f", engineRate / r.rate))x\(target)  [\(pythonCount) renders, \(same)]"
                )
            case .failure(let e):
                print("  Python \(engine): skipped: \(e.message)")
            }
        }
    }
    print("  (checksum \(bytes))")
}
