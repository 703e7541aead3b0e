import Foundation

/// A labelled date (`ANNIVERSARY`, Apple `X-ABDATE`).
///
/// ```swift
/// LabeledDate(label: .anniversary, value: ContactDate(year: 2010, month: 6, day: 1))
/// ```
public struct LabeledDate: Sendable, Hashable {
    public var label: ContactLabel
    public var value: ContactDate

    public init(label: ContactLabel, value: ContactDate) {
        self.label = label
        self.value = value
    }
}
