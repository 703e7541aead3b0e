import StringsCatalog

extension ComposeAlert {
    /// The documented alert of a device that cannot send text messages ("Messaging not supported" /
    /// "Messaging on this device is not supported." / "OK"), localized for `locale`.
    ///
    /// ```swift
    /// ComposeAlert.messagingUnavailable(locale: "de").title   // "Nachrichten nicht unterstützt"
    /// ```
    public static func messagingUnavailable(locale: String) -> ComposeAlert {
        ComposeAlert(
            title: Strings.messagingNotSupported(locale: locale),
            message: Strings.messagingNotSupportedMessage(locale: locale), button: Strings.ok(locale: locale))
    }

    /// The documented alert of a device that cannot send email ("Messaging not supported" / "Sending emails
    /// from this device is not supported." / "OK"), localized for `locale`.
    public static func mailUnavailable(locale: String) -> ComposeAlert {
        ComposeAlert(
            title: Strings.messagingNotSupported(locale: locale),
            message: Strings.mailNotSupportedMessage(locale: locale), button: Strings.ok(locale: locale))
    }

    /// Title and message on one line, as a terminal shows the alert: "Messaging not supported: Messaging on
    /// this device is not supported."
    public var line: String { "\(title): \(message)" }
}
