import Composer
import Foundation
import Templating

/// A header field every mail of a campaign carries (`--header 'Name: value'`), its value a template
/// rendered per recipient (`X-Campaign-Member: {{recipient.id}}`). Fields the tool writes itself cannot be
/// given: the composer's (From, To, Subject, Message-ID, Content-*, List-Unsubscribe…) and the campaign's
/// (List-Id, Precedence, Auto-Submitted), nor DKIM-Signature (the sending server signs).
///
/// ```swift
/// let header = try CampaignHeader(parsing: "X-Campaign: spring-{{table}}")
/// campaign.headers.append(header)
/// ```
public struct CampaignHeader: Sendable {
    public var name: String
    public var value: MustacheTemplate

    /// The fields a campaign writes itself, besides the composer's.
    public static let campaignFields: Set<String> = ["list-id", "precedence", "auto-submitted", "dkim-signature"]

    /// Reads `Name: value`. Throws `ComposerError.invalidHeaderName` for a name that is not one or that
    /// the tool writes, and the template's error for a value that does not parse.
    public init(parsing text: String) throws {
        guard let colon = text.firstIndex(of: ":") else {
            throw ComposerError.invalidHeaderName(text, reason: "expected 'Name: value'")
        }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        try MailHeader.checkName(name)
        if Self.campaignFields.contains(name.lowercased()) {
            throw ComposerError.invalidHeaderName(name, reason: "written by the campaign (--list-id, --unsubscribe)")
        }
        self.name = name
        value = try MustacheTemplate(
            String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces), name: "--header \(name)")
    }

    /// The field for a recipient: the value rendered with `variables`, line breaks in values folded.
    func rendered(_ variables: [String: MustacheValue], options: RenderOptions) throws -> MailHeader {
        MailHeader(name: name, value: try value.render(.dictionary(MustacheDictionary(variables)), options: options))
    }

    /// Checks a `List-Id` (RFC 2919): an optional phrase, then `<label.namespace>` of letters, digits,
    /// `-` and dots. Throws `ComposerError.invalidHeaderName` naming List-Id otherwise.
    public static func checkListID(_ text: String) throws {
        guard let open = text.lastIndex(of: "<"), text.hasSuffix(">") else {
            throw ComposerError.invalidHeaderName("List-Id", reason: "expected 'Name <list.example.org>'")
        }
        let id = text[text.index(after: open)..<text.index(before: text.endIndex)]
        let labels = id.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, id.utf8.count <= 255,
            labels.allSatisfy({
                !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            })
        else {
            throw ComposerError.invalidHeaderName(
                "List-Id", reason: "'\(id)' is not a list id such as news.example.org")
        }
        if text.contains(where: \.isNewline) { throw ComposerError.headerInjection(field: "List-Id") }
    }
}
