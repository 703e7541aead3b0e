import ContactsCore
import Foundation
import SelectionFixtures
import Testing

@testable import ContactsSelection

/// `list --format` / `search --format`: a listing's rows as `pick --output` writes a selection (issue 34,
/// item 7).
@Suite struct ContactFormatterRowsTests {
    /// A sink that formats in order on one thread.
    struct Text: FormattedOutput {
        var text = ""
        mutating func write(_ text: String) { self.text += text }
        mutating func formatInParallel(_ positions: Range<Int>, _ format: @Sendable (Int, inout [UInt8]) -> Void) {
            var bytes: [UInt8] = []
            for i in positions { format(i, &bytes) }
            text += String(decoding: bytes, as: UTF8.self)
        }
    }

    static func listing() throws -> ContactsDataSource {
        var config = Configuration()
        config.locale = "en"
        config.mode = .both
        return try ContactsDataSource(contacts: book, configuration: config)
    }

    @Test func rowsAreWrittenAsTheSameContactsSelected() throws {
        let list = try Self.listing()
        let result = list.search("", keywords: nil, refining: nil)
        #expect(result.count > 3)
        let contacts = result.rowNumbers.map { n in
            let row = list.listedRow(Int(n))
            return FormattedContact(
                id: row.id, name: row.displayName, value: row.value,
                channel: row.value.contains("@") ? .email : .message)
        }
        for format in ContactPrinter.Format.allCases {
            var out = Text()
            try ContactPrinter(format).write(list, result, contacts: .dataSource(list), to: &out)
            var selected = Text()
            try ContactPrinter(format).write(selection: contacts, contacts: .dataSource(list), to: &selected)
            #expect(out.text == selected.text, "\(format)")
        }
        var empty = Text()
        try ContactPrinter(.json).write(
            list, list.search("nobody-at-all", keywords: nil, refining: nil), contacts: .unavailable, to: &empty)
        #expect(empty.text == ContactPrinter(.json).selection([]))
    }

    @Test func tsvIsNameValueIdOneLineEach() {
        let c = FormattedContact(id: "a\tb", name: "Ann\nLee", value: "ann@example.org", channel: .email)
        #expect(ContactPrinter(.tsv).selection([c]) == "Ann Lee\tann@example.org\ta b\n")
    }
}
