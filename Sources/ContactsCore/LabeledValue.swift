import Foundation

/// A labelled phone number, email address or URL.
///
/// ```swift
/// let phone = LabeledValue(label: .mobile, value: "+1 415 555 0100", preference: 1)
/// ```
public struct LabeledValue: Sendable, Hashable {
    public var label: ContactLabel
    /// The value as written in the vCard (unescaped).
    public var value: String
    /// vCard 4 `PREF` (1 = most preferred); 1 for a 2.1/3.0 `TYPE=pref`; nil when absent.
    public var preference: Int?

    public init(label: ContactLabel = .unlabeled, value: String, preference: Int? = nil) {
        self.label = label
        self.value = value
        self.preference = preference
    }
}
