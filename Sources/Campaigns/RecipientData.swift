import ContactsSelection
import Foundation
import StringsCatalog
import Support
import Templating

/// Extra per-recipient template variables read from a CSV or JSON file, as spreadsheets and scripts
/// export them, joined to contacts by an `id` or `email` column.
///
/// CSV: RFC 4180 (quoted fields, doubled quotes, line breaks inside quotes), comma, semicolon or tab
/// separated (detected from the header), LF or CRLF, UTF-8 with or without a BOM or UTF-16; the header row names
/// the variables. JSON: an array of objects.
///
/// ```swift
/// let extra = try RecipientData(data: Data(contentsOf: url), fileName: "guests.csv")
/// campaign.recipientData = extra.rows
/// extra.diagnostics   // rows that were skipped, with line numbers
/// ```
public struct RecipientData: Sendable {
    public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var column: Int?
        public var message: String
        public var description: String { "\(file):\(line)\(column.map { ":\($0)" } ?? ""): \(message)" }
    }

    /// Why a recipient-data file cannot be used (thrown as ``CampaignError/recipientData(_:)``).
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// Neither UTF-8 nor UTF-16 (as its BOM or zero bytes say) text.
        case notUTF8(file: String)
        case noJoinColumn(file: String, columns: [String])
        case invalid(Diagnostic)
        /// The file has nothing in it (or only white space).
        case empty(file: String)
        public var description: String {
            switch self {
            case .notUTF8(let f): return "\(f): not UTF-8 or UTF-16 text (save the sheet as CSV UTF-8 or Unicode text)"
            case .empty(let f):
                return
                    "\(f): the file is empty (expected a CSV header row with an 'id' or 'email' column, or a JSON array of objects)"
            case .noJoinColumn(let f, let c):
                return "\(f):1: no 'id' or 'email' column to join recipients on (columns: \(c.joined(separator: ", ")))"
            case .invalid(let d): return d.description
            }
        }
    }

    /// Variables per join key (contact id, or lowercased email).
    public private(set) var rows: [String: [String: MustacheValue]] = [:]
    /// Rows that were skipped (and why), and repeated columns; the other rows are kept.
    public private(set) var diagnostics: [Diagnostic] = []
    /// Where each kept row is (file and line), by join key.
    public private(set) var origins: [String: Diagnostic] = [:]

    /// The kept rows that match no selected contact of `selection` (by the rule of
    /// ``Campaign/recipientDataKeys(of:reachedAt:)``), in file order: a misspelt id or an address the book
    /// does not have. Each says where the row is.
    ///
    /// ```swift
    /// let extra = try RecipientData(data: Data("id,table\nnobody,7\n".utf8), fileName: "guests.csv")
    /// for d in try extra.unmatchedRows(in: selection).prefix(5) { print(d) }   // guests.csv:2: row for 'nobody' …
    /// ```
    public func unmatchedRows(in selection: SelectionController) throws -> [Diagnostic] {
        var used = Set<String>()
        for contact in try selection.selectedContacts() {
            let reach = selection.value(for: contact.id)
            let email = reach?.channel == .email ? reach?.value : nil
            if let key = Campaign.recipientDataKeys(of: contact, reachedAt: email).first(where: { rows[$0] != nil }) {
                used.insert(key)
            }
        }
        return rows.keys.filter { !used.contains($0) }.map { key in
            var d = origins[key] ?? Diagnostic(file: "", line: 0, column: nil, message: "")
            d.message = "row for '\(key)' matches no selected contact"
            return d
        }.sorted { ($0.file, $0.line, $0.message) < ($1.file, $1.line, $1.message) }
    }

    public init(data: Data, fileName: String) throws {
        // As spreadsheets export it: UTF-8 with or without a BOM, UTF-16 ("Unicode text").
        let text = try CSVSheet.decode([UInt8](data), fileName: fileName).text
        let firstNonSpace = text.first { !$0.isWhitespace }
        if firstNonSpace == "[" || fileName.lowercased().hasSuffix(".json") {
            try loadJSON(Array(text.utf8), fileName: fileName)
        } else {
            try loadCSV(text, fileName: fileName)
        }
    }

    private mutating func add(_ record: [String: MustacheValue], line: Int, file: String) {
        func text(_ key: String) -> String? {
            guard let v = record[key] else { return nil }
            if case .string(let s) = v { return s.trimmingCharacters(in: .whitespaces) }
            return v.scalarText
        }
        guard
            let key = text("id").flatMap({ $0.isEmpty ? nil : $0 })
                ?? text("email").flatMap({ $0.isEmpty ? nil : $0.lowercased() })
        else {
            diagnostics.append(
                Diagnostic(file: file, line: line, column: nil, message: "row has neither an id nor an email; skipped"))
            return
        }
        if rows[key] != nil {
            diagnostics.append(
                Diagnostic(
                    file: file, line: line, column: nil, message: "duplicate row for '\(key)'; the later row wins"))
        }
        rows[key] = record
        origins[key] = Diagnostic(file: file, line: line, column: nil, message: "")
    }

    private mutating func loadJSON(_ bytes: [UInt8], fileName: String) throws {
        let value: MustacheValue
        do {
            value = try MustacheValue(json: bytes, file: fileName)
        } catch let TemplatingError.badData(file, line, column, message) {
            // The reader's own position: file:line:column once, not after a second "file:1:".
            throw CampaignError.recipientData(
                .invalid(Diagnostic(file: file, line: line, column: column, message: message)))
        } catch {
            throw CampaignError.recipientData(
                .invalid(Diagnostic(file: fileName, line: 1, column: nil, message: "\(error)")))
        }
        guard case .array(let items) = value else {
            throw CampaignError.recipientData(
                .invalid(
                    Diagnostic(file: fileName, line: 1, column: 1, message: "expected a JSON array of objects")))
        }
        // Repeated keys in one object (the later one wins, as for repeated CSV columns) are reported.
        var reader = JSONReader(bytes, file: fileName, keepRawText: false)
        if case .array(let objects)? = try? reader.document() {
            for (i, object) in objects.enumerated() {
                guard case .object(let members) = object else { continue }
                var seen = Set<String>()
                for key in members.map(\.key) where !seen.insert(key).inserted {
                    diagnostics.append(
                        Diagnostic(
                            file: "\(fileName) item \(i + 1)", line: 1, column: nil,
                            message: "key '\(key)' appears twice; the later one wins"))
                }
            }
        }
        var sawJoin = false
        for (i, item) in items.enumerated() {
            guard case .dictionary(let dict) = item else {
                diagnostics.append(
                    Diagnostic(file: fileName, line: 1, column: nil, message: "item \(i + 1) is not an object; skipped")
                )
                continue
            }
            var record: [String: MustacheValue] = [:]
            for key in dict.keys { record[key] = dict[key] }
            sawJoin = sawJoin || record["id"] != nil || record["email"] != nil
            add(record, line: 1, file: "\(fileName) item \(i + 1)")
        }
        if !items.isEmpty && !sawJoin { throw CampaignError.recipientData(.noJoinColumn(file: fileName, columns: [])) }
    }

    private mutating func loadCSV(_ text: String, fileName: String) throws {
        let separator = CSVSheet.separator(ofHeader: text)
        let records = try Self.parseCSV(text, separator: separator, fileName: fileName)
        guard let header = records.first else { return }
        let columns = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        guard columns.contains("id") || columns.contains("email") else {
            throw CampaignError.recipientData(.noJoinColumn(file: fileName, columns: columns))
        }
        diagnostics += CSVSheet.repeatedColumns(columns, line: header.line, file: fileName)
        for record in records.dropFirst() {
            if record.fields.count == 1 && record.fields[0].isEmpty { continue }  // blank line
            guard record.fields.count == columns.count else {
                diagnostics.append(
                    Diagnostic(
                        file: fileName, line: record.line, column: nil,
                        message: "expected \(columns.count) fields, found \(record.fields.count); row skipped"))
                continue
            }
            var values: [String: MustacheValue] = [:]
            for (column, field) in zip(columns, record.fields) where !column.isEmpty { values[column] = .string(field) }
            add(values, line: record.line, file: fileName)
        }
    }

    /// RFC 4180 records with the line each starts on. An unterminated quote is an error naming where it opened.
    static func parseCSV(_ text: String, separator: Character, fileName: String) throws -> [(
        line: Int, fields: [String]
    )] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var quoteLine = 0
        var quoteColumn = 0
        var line = 1
        var column = 0
        var recordLine = 1
        var atFieldStart = true
        var iterator = text.makeIterator()
        var pending: Character?
        func next() -> Character? {
            if let p = pending {
                pending = nil
                return p
            }
            return iterator.next()
        }
        while let c = next() {
            column += 1
            if inQuotes {
                if c == "\"" {
                    if let n = next() {
                        if n == "\"" {
                            field.append("\"")
                            column += 1
                        } else {
                            inQuotes = false
                            pending = n
                        }
                    } else {
                        inQuotes = false
                    }
                } else {
                    if c == "\n" || c == "\r\n" {
                        line += 1
                        column = 0
                    }
                    field.append(c)
                }
                continue
            }
            switch c {
            case "\"" where atFieldStart:
                inQuotes = true
                quoteLine = line
                quoteColumn = column
                atFieldStart = false
            case separator:
                fields.append(field)
                field = ""
                atFieldStart = true
            case "\n", "\r\n", "\r":
                fields.append(field)
                records.append((recordLine, fields))
                fields = []
                field = ""
                atFieldStart = true
                line += 1
                column = 0
                recordLine = line
            default:
                field.append(c)
                atFieldStart = false
            }
        }
        if inQuotes {
            throw CampaignError.recipientData(
                .invalid(
                    Diagnostic(
                        file: fileName, line: quoteLine, column: quoteColumn,
                        message: "quoted field is not closed (expected a closing '\"')")))
        }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            records.append((recordLine, fields))
        }
        return records
    }
}

extension Campaign {
    /// Takes the rows of a recipients file read from `file` as per-recipient data: each row's values, its
    /// origin (`file:line`, named when a value fails), and the file's folder as where the rows' attachments
    /// are read from.
    ///
    /// ```swift
    /// let rows = try RecipientData(data: Data("id,table\nada,7\n".utf8), fileName: "guests.csv")
    /// var campaign = Campaign(template: "invite")
    /// campaign.useRecipients(rows, from: "guests.csv")
    /// ```
    public mutating func useRecipients(_ rows: RecipientData, from file: String) {
        recipientData = rows.rows
        recipientOrigins = rows.origins.mapValues { "\($0.file):\($0.line)" }
        attachmentsDirectory = URL(fileURLWithPath: file).deletingLastPathComponent()
    }
}
