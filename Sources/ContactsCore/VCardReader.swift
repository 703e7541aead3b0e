import Foundation
import ICUKit

/// One card read from a vCard file.
///
/// ```swift
/// if case .group(let g) = record { print(g.name, g.memberIDs.count) }
/// ```
public enum VCardRecord: Sendable, Hashable {
    case contact(Contact)
    case group(Group)
}

/// The streaming vCard reader: 2.1, 3.0 and 4.0, card by card, on bytes.
///
/// It unfolds lines (space or tab), accepts CRLF, LF, CR and the doubled CR of some phone exports, reads
/// property groups (`item1.EMAIL`), parameters (2.1 bare types, quoted and multiple values, RFC 6868 `^`
/// escapes), value escapes and structured values, quoted-printable with soft line breaks, `CHARSET=` (through
/// ICU converters), base64 and `data:` photos. A bad line or a card without `END:VCARD` becomes a
/// ``VCardDiagnostic`` and reading goes on.
///
/// ```swift
/// let diagnostics = VCardReader.read(data: data, fileName: "big.vcf") { record, line in
///     if case .contact(let c) = record { print(c.displayName) }
/// }
/// ```
public enum VCardReader {
    /// Reads `data`, calling `body` for each card in file order with the line where the card begins;
    /// returns the diagnostics. Ids are not made unique here (``AddressBook`` does that).
    public static func read(data: Data, fileName: String, _ body: (consuming VCardRecord, _ line: Int) -> Void)
        -> [VCardDiagnostic]
    {
        let parser = VCardParser(fileName: fileName)
        let (input, notes) = utf8Input(data, fileName: fileName)
        // The bytes read in place (read-only, valid for the call): a mapped file is never copied.
        input.withUnsafeBytes { raw in
            parser.parse(raw.bindMemory(to: UInt8.self), emit: body)
        }
        return notes + parser.diagnostics
    }

    /// UTF-16 files (Outlook and some Windows tools export them, with a byte order mark) converted to UTF-8;
    /// anything else as it is.
    static func utf8Input(_ data: Data, fileName: String) -> (Data, [VCardDiagnostic]) {
        guard data.count >= 2 else { return (data, []) }
        let b0 = data[data.startIndex]
        let b1 = data[data.startIndex + 1]
        let charset: String
        if b0 == 0xFF && b1 == 0xFE {
            charset = "UTF-16LE"
        } else if b0 == 0xFE && b1 == 0xFF {
            charset = "UTF-16BE"
        } else {
            return (data, [])
        }
        let body = data.dropFirst(2)
        do {
            return (Data(try CharsetConverter.toUTF8(body, charset: charset, strict: true).utf8), [])
        } catch {
            let text = (try? CharsetConverter.toUTF8(body, charset: charset, strict: false)) ?? ""
            let note = VCardDiagnostic(
                file: fileName, line: 1,
                message:
                    "the \(charset) text has invalid sequences (\(error)); they were replaced with a substitution character"
            )
            return (Data(text.utf8), [note])
        }
    }
}
