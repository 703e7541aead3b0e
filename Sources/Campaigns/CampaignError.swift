import Composer
import ContactsSelection

/// Errors of composing for a selection: a draft the composer refused, a number that cannot be texted.
public enum CampaignError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The composer could not take the drafts (an invalid address in the address book, say).
    case composer(ComposerError)
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

    public var description: String {
        switch self {
        case .composer(let error): return "composer: \(error)"
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
