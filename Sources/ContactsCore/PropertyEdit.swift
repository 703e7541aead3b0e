import Foundation

/// One change to a contact's card, as `contacts edit` takes it: set a property (every line of it replaced
/// by one), add a line, or remove lines. Any property may be named, `X-` ones included; the ones whose
/// values have a meaning are checked (``validate(region:)``).
///
/// The text form is `NAME[;PARAM=VALUE…]=VALUE`: `TEL;TYPE=cell=+44 20 7946 0000`,
/// `X-TWITTER=@ada`, `NOTE=Met at the conference, 2024`. Text values are escaped as vCard needs (`,` `;`
/// `\` and line breaks); the values of structured and list properties (`N`, `ADR`, `ORG`, `CATEGORIES`,
/// `NICKNAME`, `GENDER`) are written as given, their `;` and `,` separating the parts.
///
/// ```swift
/// let edit = try PropertyEdit.set(parsing: "TEL;TYPE=cell=+44 20 7946 0000")
/// try edit.validate(region: nil)
/// ```
public struct PropertyEdit: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        /// Every line of the property is replaced by this one (added when there is none).
        case set
        /// A line is added.
        case add
        /// Lines of the property are removed: all of them, or those whose value is `value`.
        case remove
    }

    public var action: Action
    /// The property name, upper-cased, with its group when one was given (`item1.EMAIL`).
    public var name: String
    public var parameters: [VCardParameter]
    /// The value as the user means it (unescaped); nil for a removal of every line.
    public var value: String?

    public init(_ action: Action, name: String, parameters: [VCardParameter] = [], value: String?) {
        self.action = action
        self.name = name.uppercased()
        self.parameters = parameters
        self.value = value
    }

    /// The property name without its group.
    public var propertyName: String {
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[name.index(after: dot)...])
    }

    /// Properties whose `;` and `,` separate parts: written as given.
    static let structured: Set<String> = ["N", "ADR", "ORG", "CATEGORIES", "NICKNAME", "GENDER", "CLIENTPIDMAP"]

    /// Properties that frame or identify a card: never edited this way.
    static let reserved: Set<String> = ["BEGIN", "END", "VERSION", "UID"]

    /// `NAME[;PARAM=VALUE…]=VALUE` for `--set`.
    public static func set(parsing text: String) throws -> PropertyEdit { try parse(text, action: .set) }

    /// `NAME[;PARAM=VALUE…]=VALUE` for `--add`.
    public static func add(parsing text: String) throws -> PropertyEdit { try parse(text, action: .add) }

    /// `NAME` or `NAME=VALUE` for `--remove`.
    public static func remove(parsing text: String) throws -> PropertyEdit { try parse(text, action: .remove) }

    private static func parse(_ text: String, action: Action) throws -> PropertyEdit {
        let option = action == .set ? "--set" : action == .add ? "--add" : "--remove"
        func failure(_ message: String) -> ContactsCoreError {
            .invalidEdit(field: option, message: "\(message) in '\(text)' (expected NAME[;PARAM=VALUE…]=VALUE)")
        }
        var rest = Substring(text)
        let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
        guard !name.isEmpty, !name.hasPrefix("."), !name.hasSuffix(".") else {
            throw failure("a property name (letters, digits, '-') is missing")
        }
        rest = rest.dropFirst(name.count)
        var parameters: [VCardParameter] = []
        while rest.first == ";" {
            rest = rest.dropFirst()
            let key = rest.prefix { $0 != "=" && $0 != ";" }
            guard !key.isEmpty, rest.dropFirst(key.count).first == "=" else {
                throw failure("parameter '\(key)' has no value")
            }
            rest = rest.dropFirst(key.count + 1)
            var value: Substring
            if rest.first == "\"" {
                guard let close = rest.dropFirst().firstIndex(of: "\"") else { throw failure("unclosed quote") }
                value = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
            } else {
                value = rest.prefix { $0 != "=" && $0 != ";" }
                rest = rest.dropFirst(value.count)
            }
            parameters.append(
                VCardParameter(name: key.uppercased(), values: value.split(separator: ",").map(String.init)))
        }
        let edit: PropertyEdit
        if rest.isEmpty {
            guard action == .remove else { throw failure("'=' and a value are missing") }
            edit = PropertyEdit(action, name: String(name), parameters: parameters, value: nil)
        } else {
            guard rest.first == "=" else { throw failure("unexpected '\(rest.prefix(1))' after the name") }
            edit = PropertyEdit(action, name: String(name), parameters: parameters, value: String(rest.dropFirst()))
        }
        if reserved.contains(edit.propertyName) {
            throw ContactsCoreError.invalidEdit(
                field: option, message: "\(edit.propertyName) frames or identifies the card and cannot be edited")
        }
        return edit
    }

    /// Checks the values whose meaning is known: `EMAIL` an address, `TEL` a number libphonenumber accepts
    /// (international, or national for `region`), `BDAY`/`ANNIVERSARY` a date, `FN` not empty.
    public func validate(region: String?) throws {
        guard let value, action != .remove else { return }
        func failure(_ message: String) -> ContactsCoreError { .invalidEdit(field: propertyName, message: message) }
        switch propertyName {
        case "EMAIL":
            let parts = value.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
                !parts[1].hasSuffix("."), !value.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" })
            else { throw failure("'\(value)' is not an email address (expected name@example.org)") }
        case "TEL":
            let number = PhoneNumber.parse(value, region: region ?? "ZZ")
            guard number.isValid else {
                throw failure(
                    region == nil
                        ? "'\(value)' is not a valid phone number (expected an international number such as +44 20 7946 0000, or give --region)"
                        : "'\(value)' is not a valid phone number for region \(region!)")
            }
        case "BDAY", "ANNIVERSARY":
            let date = ContactDate(parsing: value)
            let valid =
                date.text == nil && (date.month.map { (1...12).contains($0) } ?? true)
                && (date.day.map { (1...31).contains($0) } ?? true) && (date.year != nil || date.month != nil)
            guard valid else { throw failure("'\(value)' is not a date (expected YYYY-MM-DD, YYYYMMDD or --MM-DD)") }
        case "FN":
            guard !value.trimmingCharacters(in: .whitespaces).isEmpty else { throw failure("the name is empty") }
        default:
            break
        }
    }

    /// The value as it is written in the card.
    var encodedValue: String {
        guard let value else { return "" }
        return Self.structured.contains(propertyName) ? value : VCardWriter.escape(value)
    }
}
