import ContactsCore
import Foundation
import StringsCatalog
import TestSupport
import Testing

@testable import Campaigns

@Suite struct RecipientListTests {
    func utf16(_ text: String, bigEndian: Bool) -> Data {
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 {
            let pair = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            bytes += bigEndian ? pair.reversed() : pair
        }
        return Data(bytes)
    }

    @Test func rowsBecomeRecipientsWithTheirColumns() throws {
        let csv =
            "email,given_name,family_name,lang,cc,bcc,reply_to,from,attachments,phone,table\n"
            + "anna@example.org,Anna,Müller,de_CH,\"Bo <bo@example.org>; cy@example.org\",audit@example.org,"
            + "help@example.org,Sales <sales@example.com>,a.pdf; b.png,+41 44 000 00 00,7\n"
        let list = try RecipientList(data: Data(csv.utf8), fileName: "people.csv")
        #expect(list.diagnostics.isEmpty)
        let row = try #require(list.rows.first)
        #expect(row.to.address == "anna@example.org" && row.to.name == "Anna Müller")
        #expect(row.language == "de-CH")
        #expect(row.cc.map(\.address) == ["bo@example.org", "cy@example.org"])
        #expect(row.bcc.map(\.address) == ["audit@example.org"])
        #expect(row.replyTo.map(\.address) == ["help@example.org"])
        #expect(row.from?.address == "sales@example.com" && row.from?.name == "Sales")
        #expect(row.attachments == ["a.pdf", "b.png"])
        #expect(row.phones == ["+41 44 000 00 00"])
        #expect(row.variables["table"] == "7" && row.variables["given_name"] == "Anna")
        #expect(row.line == 2)
    }

    @Test func separatorAndEncodingSniffedAsSpreadsheetsExport() throws {
        let sheet = "name\temail\tlanguage\n\"Doe; Jane\"\tjane@example.org\tfr\nÉmile\temile@example.org\tfr-CA\n"
        let variants: [(Data, Character, TextEncoding)] = [
            (Data(sheet.utf8), "\t", .utf8(bom: false)),
            (Data([0xEF, 0xBB, 0xBF] + Array(sheet.utf8)), "\t", .utf8(bom: true)),
            (utf16(sheet, bigEndian: false), "\t", .utf16LE(bom: true)),
            (utf16(sheet, bigEndian: true), "\t", .utf16BE(bom: true)),
            (Data(sheet.replacingOccurrences(of: "\t", with: ";").utf8), ";", .utf8(bom: false)),
            (Data(sheet.replacingOccurrences(of: "\t", with: ",").utf8), ",", .utf8(bom: false)),
        ]
        for (data, separator, encoding) in variants {
            let list = try RecipientList(data: data, fileName: "s.csv")
            #expect(list.separator == separator)
            #expect(list.encoding == encoding)
            #expect(list.diagnostics.isEmpty)
            #expect(list.rows.map(\.to.address) == ["jane@example.org", "emile@example.org"])
            #expect(list.rows.map(\.to.name) == ["Doe; Jane", "Émile"])
            #expect(list.rows.map(\.language) == ["fr", "fr-CA"])
        }
        // The join path (RecipientData) reads the same sheets.
        let joined = try RecipientData(data: utf16(sheet, bigEndian: false), fileName: "s.csv")
        #expect(joined.rows["emile@example.org"]?["language"]?.scalarText == "fr-CA")
    }

    @Test func badRowsNamedByLineAndColumnTheOthersKept() throws {
        let csv = """
            email;name;lang;cc
            ok@example.org;Ok;en;
            not an address;Bad;en;
            ;Nobody;en;
            lang@example.org;Bad lang;english!;
            cc@example.org;Bad cc;en;<<x
            short@example.org;Short
            OK@example.org;Again;en;
            last@example.org;Last;de;

            """
        let list = try RecipientList(data: Data(csv.utf8), fileName: "p.csv")
        #expect(list.rows.map(\.to.address) == ["ok@example.org", "OK@example.org", "last@example.org"])
        let found = list.diagnostics.map { "\($0.line):\($0.column.map(String.init) ?? "-")" }
        #expect(found == ["3:1", "4:1", "5:3", "6:4", "7:-", "8:-"])
        #expect(list.skippedLines == [3, 4, 5, 6, 7])
        #expect(list.diagnostics[0].description.hasPrefix("p.csv:3:1: column 'email': "))
        #expect(list.diagnostics[2].message.contains("'english!' is not a language tag"))
        #expect(list.diagnostics[5].message == "duplicate address 'OK@example.org' (first on line 2)")
    }

    @Test func wholeFileProblemsAreErrors() throws {
        #expect(throws: CampaignError.recipientData(.noJoinColumn(file: "n.csv", columns: ["name", "table"]))) {
            try RecipientList(data: Data("name,table\nA,1\n".utf8), fileName: "n.csv")
        }
        #expect(throws: CampaignError.recipientData(.notUTF8(file: "b.csv"))) {
            try RecipientList(data: Data([0x65, 0x6D, 0x61, 0x69, 0x6C, 0x0A, 0xFF, 0x0A]), fileName: "b.csv")
        }
        #expect(throws: CampaignError.recipientData(.empty(file: "e.csv"))) {
            try RecipientList(data: Data("\u{FEFF}\n".utf8), fileName: "e.csv")
        }
    }

    @Test func contactExportHeadersAreRecognised() throws {
        let google = """
            Given Name,Family Name,E-mail 1 - Type,E-mail 1 - Value,E-mail 2 - Value,Phone 1 - Type,Phone 1 - Value,Organization 1 - Name,Group Membership
            Ada,Lovelace,* Home,ada@example.org,ada@work.example,Mobile,+44 20 0000 0000,Engines,* myContacts ::: Friends

            """
        let outlook = """
            First Name,Middle Name,Last Name,E-mail Address,E-mail 2 Address,Mobile Phone,Company,Categories
            Ada,,Lovelace,ada@example.org,ada@work.example,+44 20 0000 0000,Engines,Friends

            """
        for sheet in [google, outlook] {
            let list = try RecipientList(data: Data(sheet.utf8), fileName: "export.csv")
            #expect(list.diagnostics.isEmpty)
            let contact = try #require(list.contacts().first)
            #expect(contact.givenName == "Ada" && contact.familyName == "Lovelace")
            #expect(contact.formattedName == "Ada Lovelace")
            #expect(contact.emails.map(\.value) == ["ada@example.org", "ada@work.example"])
            #expect(contact.phones.map(\.value) == ["+44 20 0000 0000"])
            #expect(contact.organization == "Engines" && contact.categories == ["Friends"])
        }
        #expect(RecipientColumn(header: "Primary Email") == .email)
        #expect(RecipientColumn(header: "reply-to") == .replyTo)
        #expect(RecipientColumn(header: "E-mail 1 - Type") == .other)
    }

    @Test func importedContactsGetNewCardsAndNeverOverwrite() throws {
        let list = try RecipientList(
            data: Data("email,name\nada@example.org,Ada\nbo@example.org,\n".utf8), fileName: "p.csv")
        let dir = try Scratch.directory("recipient-import")
        let book = dir.appendingPathComponent("book.vcf").path
        let existing = "BEGIN:VCARD\nVERSION:3.0\nUID:keep\nFN:Kept\nEMAIL:kept@example.org\nEND:VCARD\n"
        try Scratch.write(existing, to: URL(fileURLWithPath: book))
        let ids = try ContactEditor(source: .file(book)).add(contacts: list.contacts())
        #expect(ids.count == 2 && Set(ids).count == 2 && !ids.contains("keep"))
        let text = try String(contentsOfFile: book, encoding: .utf8)
        #expect(text.hasPrefix(existing))
        #expect(!text.contains("\r"))  // the file's own line ends
        let read = AddressBook(data: Data(text.utf8), fileName: book)
        #expect(read.contacts.map(\.displayName) == ["Kept", "Ada", "bo@example.org"])
        // A vdir: new files only.
        let vdir = dir.appendingPathComponent("vdir").path
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try Scratch.write(existing, to: URL(fileURLWithPath: vdir + "/keep.vcf"))
        let again = try ContactEditor(source: .vdir(vdir)).add(contacts: list.contacts())
        #expect(try VDir(path: vdir).read().contacts.count == 3)
        #expect(try String(contentsOfFile: vdir + "/keep.vcf", encoding: .utf8) == existing)
        #expect(again.allSatisfy { FileManager.default.fileExists(atPath: vdir + "/\($0).vcf") })
    }
}
