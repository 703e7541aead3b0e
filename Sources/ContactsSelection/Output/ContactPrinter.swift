import ContactsCore
import Support

/// The one printer of contacts in an output format — what `list --format`, `search --format`,
/// `query --format` and `pick --output` write (as fzf's printer is fzf's one way to print a result). It
/// writes three kinds of input in every ``Format``: a listing's rows (``write(_:_:contacts:query:to:)``),
/// a selection in the order it was made (``write(selection:contacts:to:)``) and address matches
/// (``write(matches:query:contacts:to:)``). `vcard` reads each contact's card through a ``ContactLookup``;
/// human text passes through the ``ContactFormatter/safe`` rule of ``formatter``; JSON is exact (the
/// package's one JSON writer).
///
/// ```swift
/// let printer = ContactPrinter(.lines)
/// var text = ""
/// try printer.write(
///     selection: [FormattedContact(id: "js", name: "Smith, John", value: "john@example.org", channel: .email)],
///     to: &text)
/// // text == "\"Smith, John\" <john@example.org>\n"
/// ```
public struct ContactPrinter: Sendable {
    /// An output format.
    ///
    /// Of rows and selections: `lines` (an RFC 5322 address a line), `json` (`[{"channel", "id", "name",
    /// "value"}]`), `ids` (joined by `,` on one line, for `compose --ids`), `tsv` (`name<TAB>value<TAB>id`, no
    /// header, for fzf and cut), `vcard` (each contact's card once). Of address matches: `mutt` (a first line
    /// of text, then `address<TAB>name<TAB>organization or label`), `aerc` (`email<TAB>name`, no header),
    /// `tsv` (a header, then `email<TAB>name<TAB>label<TAB>organization<TAB>id`), `json` (`[{"email", "id",
    /// "label", "name", "organization"}]`); `lines`, `ids` and `vcard` as of rows. Rows and selections
    /// printed as `mutt` or `aerc` are matches whose email is the row's value, without label or organization.
    public enum Format: String, Sendable, CaseIterable {
        case lines, json, ids, tsv, vcard, mutt, aerc

        /// The formats a selection or a listing's rows are offered in (`pick --output`, `list --format`).
        public static let rowFormats: [Format] = [.lines, .json, .ids, .tsv, .vcard]
        /// The formats address matches are offered in (`query --format`), its default first.
        public static let matchFormats: [Format] = [.mutt, .aerc, .tsv, .json]
    }

    public var format: Format
    /// The rule for text shown to people, and the RFC 5322 and tab-separated field spelling.
    public var formatter: ContactFormatter

    public init(_ format: Format, formatter: ContactFormatter = ContactFormatter()) {
        self.format = format
        self.formatter = formatter
    }

    // MARK: - A selection

    /// Writes `contacts` in the order given (the order they were selected); `vcard` looks their cards up in
    /// `lookup` (throws ``SelectionError/contactNotFound(id:)`` for an id it lacks).
    public func write(
        selection contacts: [FormattedContact], contacts lookup: ContactLookup = .unavailable,
        to out: inout some FormattedOutput
    ) throws {
        switch format {
        case .vcard: out.write(try ContactFormatter.vcards(contacts.map(\.id), contacts: lookup))
        case .lines, .json, .ids, .tsv, .mutt, .aerc: out.write(selection(contacts) ?? "")
        }
    }

    /// A pinned row chosen instead of contacts: `[{"pin": ID}]` in JSON, else its id on a line.
    public func pinned(_ id: String) -> String {
        switch format {
        case .json: return JSONText.written(.array([.object([JSONMember(key: "pin", value: .string(id))])])) + "\n"
        case .lines, .ids, .tsv, .vcard, .mutt, .aerc: return formatter.safe(id) + "\n"
        }
    }

    /// `contacts` as ``format`` writes them, with the final newline; nil for `vcard` (which needs the cards).
    func selection(_ contacts: [FormattedContact]) -> String? {
        switch format {
        case .lines:
            return contacts.map { line($0) }.joined()
        case .ids:
            return contacts.map(\.id).joined(separator: ",") + "\n"
        case .tsv:
            return contacts.map { tsvLine($0) }.joined()
        case .json:
            return JSONText.written(.array(contacts.map(Self.json))) + "\n"
        case .mutt, .aerc:
            return matches(contacts.map(Self.match), query: "")
        case .vcard:
            return nil
        }
    }

    func line(_ c: FormattedContact) -> String {
        ContactFormatter.mailbox(name: formatter.safe(c.name), address: formatter.safe(c.value)) + "\n"
    }

    func tsvLine(_ c: FormattedContact) -> String {
        formatter.field(c.name) + "\t" + formatter.field(c.value) + "\t" + formatter.field(c.id) + "\n"
    }

    /// One contact of a selection in JSON: `{"channel", "id", "name", "value"}`.
    static func json(_ c: FormattedContact) -> JSONValue {
        JSONValue.object([
            JSONMember(key: "channel", value: .string(c.channel.rawValue)),
            JSONMember(key: "id", value: .string(c.id)), JSONMember(key: "name", value: .string(c.name)),
            JSONMember(key: "value", value: .string(c.value)),
        ])
    }

    /// A selected contact as an address match: its value as the email, no label, no organization.
    static func match(_ c: FormattedContact) -> AddressMatch {
        AddressMatch(id: c.id, name: c.name, email: c.value, label: "", organization: "")
    }

    /// Each id once, in the order first seen.
    static func distinct(_ ids: some Sequence<String>) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}

/// Text as a sink: `write(_:)` is `TextOutputStream`'s append.
extension String: FormattedOutput {
    /// Formats every position in order, on this thread.
    public mutating func formatInParallel(
        _ positions: Range<Int>, _ format: @Sendable (Int, inout [UInt8]) -> Void
    ) {
        var bytes: [UInt8] = []
        for i in positions { format(i, &bytes) }
        self += String(decoding: bytes, as: UTF8.self)
    }
}
