import ContactsCore
import Foundation

/// `Benchmarks vcard [--contacts N] [--python-contacts N] [--iterations N] [--reader-only]`: parses a generated vCard file of
/// N contacts (default 50,000) with ContactsCore and, in the same run, with Python's `vobject` (from the venv
/// at $CONTACTS_VENV or ./.venv), and prints contacts/s, MB/s and the ratio.
func runVCardBench(args: [String]) {
    func intOption(_ name: String, _ fallback: Int) -> Int {
        guard let i = args.firstIndex(of: name), i + 1 < args.count, let v = Int(args[i + 1]), v > 0 else {
            return fallback
        }
        return v
    }
    let count = intOption("--contacts", 50_000)
    let pythonCount = intOption("--python-contacts", min(count, 10_000))
    let iterations = intOption("--iterations", 5)

    let text = generateVCardCorpus(count: count)
    let data = Data(text.utf8)
    let megabytes = Double(data.count) / 1_000_000
    print("vcard: \(count) contacts, \(String(format: "%.1f", megabytes)) MB (vCard 2.1/3.0/4.0 mix)")

    // ContactsCore, one thread: the streaming reader, every card turned into a Contact and kept.
    var bestSequential = Double.infinity
    var sequentialCount = 0
    for _ in 0..<iterations {
        var contacts: [Contact] = []
        contacts.reserveCapacity(count)
        let start = DispatchTime.now().uptimeNanoseconds
        _ = VCardReader.read(data: data, fileName: "bench.vcf") { record, _ in
            if case .contact(let c) = record { contacts.append(c) }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        sequentialCount = contacts.count
        bestSequential = min(bestSequential, seconds)
    }
    let sequentialRate = Double(sequentialCount) / bestSequential
    print(
        String(
            format: "  ContactsCore 1 thread    %9.0f contacts/s  %7.1f MB/s  (%.3f s, %d contacts, best of %d)",
            sequentialRate, megabytes / bestSequential, bestSequential, sequentialCount, iterations))

    if args.contains("--reader-only") { return }  // for profiling the streaming reader alone

    // ContactsCore: AddressBook (ids made unique, index, category groups; large inputs read in parallel).
    var best = Double.infinity
    var contactsRead = 0
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        let book = AddressBook(data: data, fileName: "bench.vcf")
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        contactsRead = book.contacts.count
        best = min(best, seconds)
    }
    let swiftRate = Double(contactsRead) / best
    let cores = ProcessInfo.processInfo.activeProcessorCount
    print(
        String(
            format:
                "  ContactsCore AddressBook %9.0f contacts/s  %7.1f MB/s  (%.3f s, %d contacts, best of %d, %d cores)",
            swiftRate, megabytes / best, best, contactsRead, iterations, cores))

    // Python vobject on the first `pythonCount` cards of the same file.
    let pythonText = pythonCount >= count ? text : generateVCardCorpus(count: pythonCount)
    guard let (pyContacts, pySeconds) = runVobject(pythonText) else { return }
    let pyRate = Double(pyContacts) / pySeconds
    let pyMB = Double(pythonText.utf8.count) / 1_000_000
    print(
        String(
            format: "  vobject                  %9.0f contacts/s  %7.2f MB/s  (%.3f s, %d contacts, 1 thread)", pyRate,
            pyMB / pySeconds, pySeconds, pyContacts))
    print(
        String(
            format: "  ratio                    %.0f× vobject (1 thread), %.0f× (AddressBook); target ≥ 200×",
            sequentialRate / pyRate, swiftRate / pyRate))
}

/// A deterministic corpus: a mix of exporter styles (Android 2.1 quoted-printable, iPhone 3.0 with
/// X-ABLabel, Google 3.0, vCard 4.0 with PREF and SORT-AS), every card different.
func generateVCardCorpus(count: Int) -> String {
    let given = ["Olivia", "Jürgen", "Élodie", "Иван", "Γιώργος", "محمد", "太郎", "민준", "สมชาย", "आरव", "Liam", "Zoë"]
    let family = [
        "Smith", "Müller", "Lefèvre", "Петров", "Παπαδόπουλος", "حداد", "山田", "김", "ใจดี", "शर्मा", "Brown", "Núñez",
    ]
    var out = ""
    out.reserveCapacity(count * 330)
    for i in 0..<count {
        let g = given[i % given.count]
        let f = family[(i / given.count) % family.count]
        let phone = "(415) 555-01\(String(format: "%02d", i % 100))"
        switch i % 4 {
        case 0:
            out += "BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:\(qp(f));\(qp(g));;;\r\n"
            out += "FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:\(qp(g + " " + f))\r\n"
            out +=
                "TEL;CELL;PREF:\(phone)\r\nTEL;HOME:+1 212 555 01\(i % 10)\(i % 7)\r\nEMAIL;HOME:user\(i)@example.com\r\n"
            out += "NOTE;ENCODING=QUOTED-PRINTABLE:Line one=0D=0ALine two for card \(i)\r\nEND:VCARD\r\n"
        case 1:
            out +=
                "BEGIN:VCARD\r\nVERSION:3.0\r\nPRODID:-//Apple Inc.//iPhone OS 17.0//EN\r\nN:\(f);\(g);;;\r\nFN:\(g) \(f)\r\n"
            out += "ORG:Example Widgets;Research\r\nitem1.EMAIL;type=INTERNET;type=pref:user\(i)@example.org\r\n"
            out += "item1.X-ABLabel:_$!<Other>!$_\r\nTEL;type=CELL;type=VOICE;type=pref:\(phone)\r\n"
            out += "item2.ADR;type=HOME:;;\(i) Example Street;Springfield;IL;62701;USA\r\nitem2.X-ABADR:us\r\n"
            out += "BDAY:1985-04-\(10 + i % 18)\r\nUID:\(uuidLike(i))\r\nEND:VCARD\r\n"
        case 2:
            out += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(g) \(f)\r\nN:\(f);\(g);;;\r\n"
            out +=
                "EMAIL;TYPE=INTERNET;TYPE=HOME:user\(i)@example.net\r\nEMAIL;TYPE=INTERNET;TYPE=WORK:u\(i)@work.example.com\r\n"
            out += "TEL;TYPE=CELL:\(phone)\r\nTEL;TYPE=WORK:+44 20 7946 0\(i % 1000)\r\n"
            out +=
                "NOTE:Met at the conference\\; likes tea\\, coffee.\r\nCATEGORIES:myContacts,Friends\r\nEND:VCARD\r\n"
        default:
            out += "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:\(uuidLike(i))\r\nFN:\(f) \(g)\r\n"
            out += "N;SORT-AS=\"\(f),\(g)\":\(f);\(g);;;\r\nNICKNAME:Nick \(i)\r\n"
            out +=
                "TEL;VALUE=uri;TYPE=\"voice,cell\";PREF=1:tel:+1-415-555-01\(i % 10)\(i % 9)\r\nEMAIL;PREF=1:user\(i)@example.com\r\n"
            out += "LANG;PREF=1:en\r\nREV:20240101T000000Z\r\nEND:VCARD\r\n"
        }
    }
    return out
}

private func uuidLike(_ i: Int) -> String {
    let hex = String(i, radix: 16)
    return "6F9619FF-8B86-D011-B42D-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
}

private func qp(_ s: String) -> String {
    var out = ""
    for b in s.utf8 {
        if b >= 0x21 && b <= 0x7E && b != 0x3D {
            out.unicodeScalars.append(UnicodeScalar(b))
        } else {
            out += String(format: "=%02X", b)
        }
    }
    return out
}

/// Parses `text` with vobject in the venv's Python; returns (contacts, seconds) timed inside Python.
private func runVobject(_ text: String) -> (Int, Double)? {
    let env = ProcessInfo.processInfo.environment
    let venv = env["CONTACTS_VENV"] ?? FileManager.default.currentDirectoryPath + "/.venv"
    let python = venv + "/bin/python"
    guard FileManager.default.isExecutableFile(atPath: python) else {
        print("  vobject                  not run: \(python) missing (run `make deps` or set CONTACTS_VENV)")
        return nil
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("vcard-bench-\(getpid()).vcf")
    defer { try? FileManager.default.removeItem(at: file) }
    do { try Data(text.utf8).write(to: file) } catch {
        print("  vobject                  not run: cannot write \(file.path): \(error)")
        return nil
    }
    let script = """
        import sys, time, vobject
        data = open(sys.argv[1], encoding="utf-8").read()
        t = time.perf_counter()
        n = 0
        for card in vobject.readComponents(data, ignoreUnreadable=True):
            n += 1
        print(n, time.perf_counter() - t)
        """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", script, file.path]
    let pipe = Pipe()
    let errPipe = Pipe()
    process.standardOutput = pipe
    process.standardError = errPipe
    do { try process.run() } catch {
        print("  vobject                  not run: \(error)")
        return nil
    }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    let errors = errPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: output, as: UTF8.self).split(separator: " ")
    guard process.terminationStatus == 0, fields.count == 2, let n = Int(fields[0]),
        let s = Double(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)), n > 0, s > 0
    else {
        print("  vobject                  failed: \(String(decoding: errors, as: UTF8.self).suffix(300))")
        return nil
    }
    return (n, s)
}
