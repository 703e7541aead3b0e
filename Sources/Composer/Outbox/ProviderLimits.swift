/// The sending limits a mail provider publishes for one account sending through its SMTP server, as
/// presets for a campaign (`compose --provider`): the most messages per day (rolling 24 hours), the most
/// recipients (To, Cc and Bcc) of one message, and the most messages per minute where one is published.
///
/// Figures as published (they change without notice; a smaller `--daily-cap` or `--rate` wins):
/// - `gmail`: 500 messages a day, 100 recipients per message sent through SMTP — Google, "Gmail sending
///   limits" (support.google.com/mail/answer/22839).
/// - `workspace`: 2,000 messages a day (500 on trial accounts), 100 recipients per message sent through
///   SMTP — Google, "Gmail sending limits in Google Workspace" (support.google.com/a/answer/166852).
/// - `m365`: 10,000 recipients a day, 500 recipients per message, 30 messages a minute — Microsoft,
///   "Exchange Online limits" (learn.microsoft.com/office365/servicedescriptions/exchange-online-service-description/exchange-online-limits).
///   Microsoft counts recipients: the daily figure is used as a message cap, exact for one recipient per
///   message.
///
/// ```swift
/// let limits = ProviderLimits(name: "workspace")!
/// var policy = OutboxPolicy()
/// policy.dailyCap = limits.messagesPerDay
/// ```
public struct ProviderLimits: Sendable, Hashable {
    public var name: String
    public var messagesPerDay: Int
    public var recipientsPerMessage: Int
    public var messagesPerMinute: Double?
    /// Where the figures are published.
    public var source: String

    /// The preset `name` (`gmail`, `workspace`, `m365`), nil for another name.
    public init?(name: String) {
        guard let preset = Self.presets.first(where: { $0.name == name }) else { return nil }
        self = preset
    }

    init(_ name: String, perDay: Int, perMessage: Int, perMinute: Double?, source: String) {
        self.name = name
        messagesPerDay = perDay
        recipientsPerMessage = perMessage
        messagesPerMinute = perMinute
        self.source = source
    }

    /// Every preset, in the order `--help` lists them.
    public static let presets = [
        ProviderLimits(
            "gmail", perDay: 500, perMessage: 100, perMinute: nil, source: "support.google.com/mail/answer/22839"),
        ProviderLimits(
            "workspace", perDay: 2_000, perMessage: 100, perMinute: nil, source: "support.google.com/a/answer/166852"),
        ProviderLimits(
            "m365", perDay: 10_000, perMessage: 500, perMinute: 30,
            source:
                "learn.microsoft.com/office365/servicedescriptions/exchange-online-service-description/exchange-online-limits"
        ),
    ]
}
