import Composer
import Foundation
import StringsCatalog

/// A spreadsheet of recipients on its own, as mail-merge users start (Python's mailmerge, Thunderbird Mail
/// Merge): each row is one recipient, no address book needed.
///
/// Columns (matched without regard to case, spaces, `-` and `_`; Google Contacts, Outlook and Thunderbird
/// export headers recognised, see ``RecipientColumn``): `email`, `name` (or `given_name` and `family_name`),
/// `lang` / `language` / `locale` (the row's language), `cc`, `bcc`, `reply_to`, `from`, `attachments`
/// (separated by `;` or `|`), `phone`; every column, these included, is also a template variable under its
/// header's name.
///
/// The text is read as spreadsheets export it: UTF-8 with or without a BOM, UTF-16 ("Unicode text") with
/// a BOM; fields separated by commas, semicolons or tabs (whichever the header row has most of, outside
/// quotes). A bad row (no address, an address or a language that does not parse, the wrong number of
/// fields) is named by line and column and skipped; the other rows are kept. A repeated address is
/// reported (the rows are all kept: the caller decides).
///
/// ```swift
/// let list = try RecipientList(data: Data("email;name;lang\nanna@example.org;Anna;de\n".utf8), fileName: "people.csv")
/// list.rows[0].language     // "de"
/// list.separator            // ";"
/// for d in list.diagnostics { print(d) }   // people.csv:4:2: column 'email': …; row skipped
/// ```
public struct RecipientList: Sendable {
    public typealias Diagnostic = RecipientData.Diagnostic

    /// One recipient: the recognised columns parsed, and every column as a template variable.
    public struct Row: Sendable, Hashable {
        /// The line the row starts on (1 is the header).
        public var line: Int
        /// The recipient (with the `name` column, or given and family name, as its display name).
        public var to: MailAddress
        /// More addresses of the row (a second or third e-mail column, as contact exports have them).
        public var otherEmails: [String] = []
        public var givenName: String = ""
        public var familyName: String = ""
        /// The row's language as a BCP 47 tag (`de_CH` is read as `de-CH`), nil when the row names none.
        public var language: String?
        public var cc: [MailAddress] = []
        public var bcc: [MailAddress] = []
        public var replyTo: [MailAddress] = []
        /// A per-row sender.
        public var from: MailAddress?
        /// Attachment paths as written in the sheet (resolved by the caller against its folder).
        public var attachments: [String] = []
        /// Phone numbers (the first is the one a text message goes to).
        public var phones: [String] = []
        /// The organization, note and group columns of contact exports (for ``contacts()``).
        public var organization: String = ""
        public var note: String = ""
        public var groups: [String] = []
        /// Every column by its header (as written), each row's text.
        public var variables: [String: String] = [:]

        init(line: Int, to: MailAddress) {
            self.line = line
            self.to = to
        }
    }

    /// The kept rows, in file order.
    public private(set) var rows: [Row] = []
    /// Rows skipped (file, line, column and why), repeated columns and repeated addresses.
    public private(set) var diagnostics: [Diagnostic] = []
    /// The lines of the rows skipped.
    public private(set) var skippedLines: [Int] = []
    /// The header as written.
    public private(set) var columns: [String] = []
    /// The field separator found.
    public private(set) var separator: Character = ","
    /// The text encoding found.
    public private(set) var encoding: TextEncoding = .utf8(bom: false)

    /// Reads a sheet. Throws when the file as a whole cannot be used: not text, empty, no e-mail column
    /// (``CampaignError/recipientData(_:)``), or a quote left open; rows with problems are skipped and reported in
    /// ``diagnostics``.
    public init(data: Data, fileName: String) throws {
        let sheet = try CSVSheet(data: data, fileName: fileName)
        encoding = sheet.encoding
        separator = sheet.separator
        columns = sheet.records.first?.fields.map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        let roles = columns.map(RecipientColumn.init(header:))
        guard roles.contains(where: { $0 == .email }) else {
            throw CampaignError.recipientData(.noJoinColumn(file: fileName, columns: columns))
        }
        diagnostics += CSVSheet.repeatedColumns(columns, line: 1, file: fileName)
        var firstLine: [String: Int] = [:]
        for record in sheet.records.dropFirst() {
            if record.fields.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) { continue }  // blank line
            guard record.fields.count == columns.count else {
                diagnostics.append(
                    Diagnostic(
                        file: fileName, line: record.line, column: nil,
                        message: "expected \(columns.count) fields, found \(record.fields.count); row skipped"))
                skippedLines.append(record.line)
                continue
            }
            do {
                let row = try Self.row(record.fields, line: record.line, columns: columns, roles: roles)
                let key = row.to.address.lowercased()
                if let first = firstLine[key] {
                    diagnostics.append(
                        Diagnostic(
                            file: fileName, line: record.line, column: nil,
                            message: "duplicate address '\(row.to.address)' (first on line \(first))"))
                } else {
                    firstLine[key] = record.line
                }
                rows.append(row)
            } catch let failure as FieldFailure {
                diagnostics.append(
                    Diagnostic(
                        file: fileName, line: record.line, column: failure.column,
                        message: "column '\(columns[failure.column - 1])': \(failure.message); row skipped"))
                skippedLines.append(record.line)
            }
        }
    }

    /// A field that does not parse: its 1-based column and why.
    struct FieldFailure: Error {
        var column: Int
        var message: String
    }

    static func row(_ fields: [String], line: Int, columns: [String], roles: [RecipientColumn]) throws -> Row {
        var given = ""
        var family = ""
        var name = ""
        func addresses(_ text: String, column: Int) throws -> [MailAddress] {
            do { return try MailAddress.list(parsing: text) } catch {
                throw FieldFailure(column: column, message: "\(error)")
            }
        }
        // The recipient first: the first non-empty e-mail column.
        let emails = fields.indices.filter { roles[$0] == .email }.map {
            (column: $0 + 1, text: fields[$0].trimmingCharacters(in: .whitespaces))
        }.filter { !$0.text.isEmpty }
        guard let first = emails.first else {
            let column = (roles.firstIndex(of: .email) ?? 0) + 1
            throw FieldFailure(column: column, message: "no e-mail address")
        }
        let parsed = try addresses(first.text, column: first.column)
        guard parsed.count == 1 else {
            throw FieldFailure(column: first.column, message: "expected one address, found \(parsed.count)")
        }
        var row = Row(line: line, to: parsed[0])
        for extra in emails.dropFirst() {
            for address in try addresses(extra.text, column: extra.column) { row.otherEmails.append(address.address) }
        }
        for (i, field) in fields.enumerated() {
            let column = i + 1
            let text = field.trimmingCharacters(in: .whitespaces)
            if !columns[i].isEmpty { row.variables[columns[i]] = field }
            guard !text.isEmpty else { continue }
            switch roles[i] {
            case .email: break
            case .name: if name.isEmpty { name = text }
            case .givenName: if given.isEmpty { given = text }
            case .familyName: if family.isEmpty { family = text }
            case .language:
                guard let tag = Self.languageTag(text) else {
                    throw FieldFailure(column: column, message: "'\(text)' is not a language tag (de, de-CH, pt_BR)")
                }
                row.language = row.language ?? tag
            case .cc: row.cc += try addresses(text, column: column)
            case .bcc: row.bcc += try addresses(text, column: column)
            case .replyTo: row.replyTo += try addresses(text, column: column)
            case .from:
                let list = try addresses(text, column: column)
                guard list.count == 1 else { throw FieldFailure(column: column, message: "expected one sender") }
                row.from = list[0]
            case .attachments:
                row.attachments += text.split(whereSeparator: { $0 == ";" || $0 == "|" }).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }.filter { !$0.isEmpty }
            case .phone: row.phones.append(text)
            case .organization: if row.organization.isEmpty { row.organization = text }
            case .note: if row.note.isEmpty { row.note = text }
            case .groups:
                // Google: "* myContacts ::: Friends"; Outlook: "Friends;Work".
                let names = text.replacingOccurrences(of: ":::", with: ";")
                row.groups += names.split(whereSeparator: { $0 == ";" || $0 == "," }).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }.filter { !$0.isEmpty && $0 != "* myContacts" }
            case .other: break
            }
        }
        row.givenName = given
        row.familyName = family
        if name.isEmpty { name = [given, family].filter { !$0.isEmpty }.joined(separator: " ") }
        let displayName = parsed[0].name ?? (name.isEmpty ? nil : name)
        do { row.to = try MailAddress(name: displayName, address: parsed[0].address) } catch {
            throw FieldFailure(column: first.column, message: "\(error)")
        }
        return row
    }

    /// A well-formed language tag in BCP 47 form (`_` read as `-`), or nil.
    static func languageTag(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return nil }
        for part in parts.dropFirst()
        where !(1...8).contains(part.count) || !part.allSatisfy(\.isASCII)
            || !part.allSatisfy({ $0.isLetter || $0.isNumber })
        {
            return nil
        }
        return parts.joined(separator: "-")
    }
}
