import Foundation
import StringsCatalog

/// A CSV file as spreadsheets export it: the text decoded (UTF-8 with or without a BOM, UTF-16 with a BOM
/// or by its zero bytes), the separator found from the header row (comma, semicolon or tab, whichever
/// occurs most outside quotes) and the RFC 4180 records with the line each starts on. The one reader of
/// recipient sheets (``RecipientData``, ``RecipientList``).
struct CSVSheet {
    var encoding: TextEncoding
    var separator: Character
    var records: [(line: Int, fields: [String])]

    init(data: Data, fileName: String) throws {
        let text = try Self.decode([UInt8](data), fileName: fileName)
        encoding = text.encoding
        separator = Self.separator(ofHeader: text.text)
        records = try RecipientData.parseCSV(text.text, separator: separator, fileName: fileName)
    }

    /// The text of `bytes` in the encoding its BOM (or its zero bytes) names, else UTF-8. Throws when the
    /// bytes are not valid in it or hold nothing but white space.
    static func decode(_ bytes: [UInt8], fileName: String) throws -> TextEncoding.Decoded {
        let decoded = TextEncoding.decode(bytes)
        guard decoded.firstInvalidByte == nil else { throw CampaignError.recipientData(.notUTF8(file: fileName)) }
        guard decoded.text.contains(where: { !$0.isWhitespace }) else {
            throw CampaignError.recipientData(.empty(file: fileName))
        }
        return decoded
    }

    /// The separator the header row (the first line, quotes skipped) uses most: `,`, `;` or a tab; a tie
    /// or none is `,`.
    static func separator(ofHeader text: String) -> Character {
        var counts: [Character: Int] = [",": 0, ";": 0, "\t": 0]
        var quoted = false
        for c in text {
            if c == "\"" { quoted.toggle() }
            if quoted { continue }
            if c == "\n" || c == "\r\n" || c == "\r" { break }
            if counts[c] != nil { counts[c]! += 1 }
        }
        let best = [",", ";", "\t"].max { counts[$0]! < counts[$1]! }!
        return counts[best]! > counts[","]! ? best : ","
    }

    /// A diagnostic for each header that appears twice (the later column wins).
    static func repeatedColumns(_ columns: [String], line: Int, file: String) -> [RecipientData.Diagnostic] {
        var first: [String: Int] = [:]
        var found: [RecipientData.Diagnostic] = []
        for (i, column) in columns.enumerated() where !column.isEmpty {
            if let earlier = first[column] {
                found.append(
                    RecipientData.Diagnostic(
                        file: file, line: line, column: nil,
                        message:
                            "column '\(column)' appears twice (fields \(earlier + 1) and \(i + 1)); the later one wins")
                )
            } else {
                first[column] = i
            }
        }
        return found
    }
}
