import ContactsCore

/// Single-pick mode (as ETPeoplePicker, an iOS one-contact picker with a completion block, offers it): the user picks one contact and gets back its name and normalized
/// phone number, or a failure or cancel outcome.
///
/// ```swift
/// let picker = PeoplePicker(dataSource: source)
/// switch picker.pick(id: "anna") {
/// case .picked(let name, let number): print(name, number)   // "Anna Berg", "+14155550100"
/// case .failed(let reason): print(reason)
/// case .cancelled: break
/// }
/// ```
public struct PeoplePicker: Sendable {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case unknownContact(id: String)
        case disabled(id: String)
        case noPhoneNumber(id: String)

        public var description: String {
            switch self {
            case .unknownContact(let id): return "contact '\(id)' is not in the list"
            case .disabled(let id): return "contact '\(id)' is disabled"
            case .noPhoneNumber(let id): return "contact '\(id)' has no phone number for text messages"
            }
        }
    }

    public enum Outcome: Equatable, Sendable {
        /// The display name and the phone number in E.164 (as written when it cannot be parsed).
        case picked(name: String, number: String)
        case failed(Failure)
        case cancelled
    }

    public let dataSource: ContactsDataSource

    public init(dataSource: ContactsDataSource) { self.dataSource = dataSource }

    /// Picks a contact by id; `nil` means the user cancelled.
    public func pick(id: String?) -> Outcome {
        guard let id else { return .cancelled }
        guard let row = dataSource.row(id: id) else { return .failed(.unknownContact(id: id)) }
        guard row.enabled else { return .failed(.disabled(id: id)) }
        guard let first = row.contact.textablePhones.first else { return .failed(.noPhoneNumber(id: id)) }
        let phone = PhoneKey.make(
            first.value, region: dataSource.region, addressRegion: row.contact.addressRegion)
        return .picked(name: row.displayName, number: phone.e164 ?? phone.raw)
    }
}
