/// What a column of a recipient sheet holds, from its header: the project's own names (`email`, `name`,
/// `given_name`, `family_name`, `lang`, `language`, `locale`, `cc`, `bcc`, `reply_to`, `from`,
/// `attachments`, `phone`) and the headers of Google Contacts ("Given Name", "E-mail 1 - Value",
/// "Phone 1 - Value", "Organization 1 - Name", "Group Membership"), Outlook ("First Name", "Last Name",
/// "E-mail Address", "Mobile Phone", "Company", "Categories") and Thunderbird ("Primary Email",
/// "Display Name", "Mobile Number") exports. Case, spaces, `-` and `_` do not count.
///
/// ```swift
/// RecipientColumn(header: "E-mail 1 - Value")   // .email
/// RecipientColumn(header: "Last Name")          // .familyName
/// RecipientColumn(header: "table")              // .other: a template variable only
/// ```
public enum RecipientColumn: Sendable, Hashable {
    case email, name, givenName, familyName, language, cc, bcc, replyTo, from, attachments, phone
    case organization, note, groups
    /// Any other column: a template variable only.
    case other

    public init(header: String) {
        let key = String(header.lowercased().filter { $0.isLetter || $0.isNumber })
        if let known = Self.names[key] {
            self = known
            return
        }
        // Numbered export columns: "E-mail 2 - Value", "E-mail 3 Address", "Phone 2 - Value".
        let letters = String(key.filter(\.isLetter))
        switch letters {
        case "emailvalue", "emailaddress": self = .email
        case "phonevalue": self = .phone
        default: self = .other
        }
    }

    private static let names: [String: RecipientColumn] = {
        var table: [String: RecipientColumn] = [:]
        let lists: [(RecipientColumn, [String])] = [
            (.email, ["email", "emailaddress", "mail", "primaryemail", "secondaryemail", "emailvalue"]),
            (.name, ["name", "displayname", "fullname"]),
            (.givenName, ["givenname", "firstname", "forename"]),
            (.familyName, ["familyname", "lastname", "surname"]),
            (.language, ["lang", "language", "locale"]),
            (.cc, ["cc"]),
            (.bcc, ["bcc"]),
            (.replyTo, ["replyto"]),
            (.from, ["from", "sender"]),
            (.attachments, ["attachments", "attachment"]),
            (
                .phone,
                [
                    "phone", "mobile", "mobilephone", "mobilenumber", "cellphone", "homephone", "businessphone",
                    "workphone", "telephone",
                ]
            ),
            (.organization, ["organization", "organizationname", "organization1name", "company"]),
            (.note, ["note", "notes"]),
            (.groups, ["groups", "groupmembership", "labels", "categories"]),
        ]
        for (role, keys) in lists { for key in keys { table[key] = role } }
        return table
    }()
}
