import Composer
import ContactsSelection

extension ComposeAlert {
    /// The documented alert to show before anyone is picked when `delivery` (nil: none was configured)
    /// can carry none of the messages `mode` makes: mail in email mode, text messages in messages mode,
    /// neither in `.both`. It is the mail alert when the mode makes mail, else the text-message one. Nil
    /// when `delivery` can carry some of them (what it cannot carry is said when the messages are made).
    ///
    /// ```swift
    /// var alert = ComposeAlert.noTransport(mode: .email, through: nil, locale: "en")
    /// alert?.detail = "--out DIR  --smtp URL  --sendmail"    // the front end's own words for a transport
    /// ```
    public static func noTransport(mode: SelectionMode, through delivery: Delivery?, locale: String)
        -> ComposeAlert?
    {
        let mail = mode.contains(.email)
        let texts = mode.contains(.messages)
        if mail && delivery?.carriesMail == true { return nil }
        if texts && delivery?.carriesTexts == true { return nil }
        return .cannotSend(mail: mail, locale: locale)
    }
}
