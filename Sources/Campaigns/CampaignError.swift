import Composer
import ContactsSelection

/// The one error of Campaigns: composing for a selection, its recipient data, a draft the composer refused,
/// a number that cannot be texted. The cases are split by audience: what the user (the command line, a data
/// file, the address book) asked for that cannot be done, and what failed while it was being done
/// (``isUsageError`` tells them apart).
public enum CampaignError: Error, Equatable, Sendable, CustomStringConvertible {
    // MARK: What the user asked for that cannot be done

    /// A recipient-data file (``RecipientData``, ``RecipientList``) that cannot be used: not text, empty, no
    /// join column, a malformed row (file, line and column).
    case recipientData(RecipientData.Problem)
    /// A column of a recipient's row that cannot be used as it is (a `cc` column that is not text); `origin`
    /// is where the row is (`guests.csv:3`), when known.
    case column(column: String, reason: String, origin: String?)
    /// A phone number written without a country code that could not be normalized: there is no phone
    /// region (`region` nil), or it is no number there nor in the country of the contact's addresses. It is
    /// not texted: its country would be a guess.
    case phoneNotNormalized(number: String, region: String?)
    /// An edited message (``ComposerText/edited(_:file:)``) that cannot be read back: its `Subject:` line or
    /// the blank line after it is missing.
    case editedMessage(file: String, line: Int, reason: String)
    /// A contact that was asked for (by id, or as a member of a group) has no value the selection can
    /// reach it at in `mode`: no email address in email mode, no phone number in messages mode.
    case noAddress(mode: SelectionMode)
    /// A contact id that was asked for is in no source.
    case unknownContact(id: String)
    /// A send to the built-in sample book (``CampaignSending/checkBook(isSample:)``): it is never mailed.
    case sampleBook
    /// The campaign's variables (``Campaign/variables(json:file:)``) are not a JSON object, or not JSON: the
    /// text names the file, line and column.
    case invalidVariables(String)
    /// The recipient's address is on the campaign's suppression list (a hard bounce, an unsubscribe): it
    /// is not mailed. `reason` is the list's (`Composer`'s `SuppressionList`), with where it is.
    case suppressed(address: String, reason: String)
    /// A message with more recipients (To, Cc, Bcc) than the provider takes in one message
    /// (``CampaignSending/maxRecipients``): it is not sent.
    case tooManyRecipients(count: Int, limit: Int)

    // MARK: What failed

    /// The composer could not take the drafts (an invalid address in the address book, say).
    case composer(ComposerError)

    /// True for what the user asked for that cannot be done (a front end says how to ask instead), false for
    /// what failed while it was being done.
    public var isUsageError: Bool {
        if case .composer = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .composer(let error): return "composer: \(error)"
        case .recipientData(let problem): return problem.description
        case .column(let column, let reason, let origin):
            return "\(origin.map { "\($0): " } ?? "")column '\(column)': \(reason)"
        case .phoneNotNormalized(let number, nil): return "no region for '\(number)': give --region"
        case .phoneNotNormalized(let number, let region?):
            return "'\(number)' is not a phone number in \(region): give --region, or write it with its country code"
        case .editedMessage(let file, let line, let reason): return "\(file):\(line):1: \(reason)"
        case .noAddress(let mode):
            switch mode {
            case .email: return "no email address: not sent"
            case .messages: return "no phone number: not sent"
            default: return "no email address or phone number: not sent"
            }
        case .unknownContact(let id): return "no contact with the id '\(id)'"
        case .invalidVariables(let text): return text
        case .suppressed(let address, let reason): return "\(address): suppressed (\(reason)): not sent"
        case .tooManyRecipients(let count, let limit):
            return "\(count) recipients (To, Cc, Bcc), more than the provider's \(limit) per message: not sent"
        case .sampleBook:
            return "--send mails only a book you name: give --source FILE|DIR (the built-in sample book is never "
                + "sent to; without --send, see what would be sent)"
        }
    }
}
