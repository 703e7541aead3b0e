import Foundation
import TestSupport
import Testing

@Suite struct VCardImportCLITests {
    @Test func aSheetBecomesContactsAndBadRowsAreNamed() throws {
        let dir = try Scratch.directory("vcard-import")
        let sheet = dir.appendingPathComponent("outlook.csv")
        // Outlook's export headers, semicolons, a BOM; line 3 has no address.
        try Scratch.write(
            "\u{FEFF}First Name;Last Name;E-mail Address;Mobile Phone\nAda;Lovelace;ada@example.org;+44 20 0000 0000\n"
                + "Nobody;Here;;\nBo;Bay;bo@example.org;\n",
            to: sheet)
        let book = dir.appendingPathComponent("book.vcf").path
        let r = try CLI.run(["vcard", "import", sheet.path, "--into", book])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("outlook.csv:3:3: column 'E-mail Address': no e-mail address; row skipped"))
        #expect(r.stdout == "2 contacts added to \(book)\n")
        let inspect = try CLI.run(["vcard", "inspect", "--json", book])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("\"Ada Lovelace\"") && inspect.stdout.contains("\"bo@example.org\""))
        // Again into the same file: two more cards, the first two kept.
        let again = try CLI.run(["vcard", "import", sheet.path, "--into", book])
        #expect(again.stdout.hasPrefix("2 contacts added"))
        let text = try String(contentsOfFile: book, encoding: .utf8)
        #expect(text.components(separatedBy: "BEGIN:VCARD").count - 1 == 4)
        #expect(try CLI.run(["vcard", "import", sheet.path]).status == 2)
    }
}
