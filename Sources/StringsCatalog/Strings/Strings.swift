import Foundation
import Locales

/// The documented UI literals, localized from the package's own `Localizations/` resources, with
/// per-key fallback to English. Works from any module that depends on StringsCatalog; when the
/// resources cannot be found it returns the English literal (it never traps).
///
/// ```swift
/// Strings.select(locale: "de")                         // "Auswählen"
/// Strings.contactsSelected(count: 3, locale: "ru")     // "Выбрано 3 контакта"
/// Strings.cancel(locale: "zh-HK")                      // "取消" (zh-Hant)
/// ```
public enum Strings {
    /// The bundled catalog, loaded once; nil when the resources are missing.
    public static let catalog: Catalog? = try? Catalog.bundled()

    /// The languages the environment asks for (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) as one
    /// `:`-separated list, "en" when none is set. The default `locale:` of every accessor.
    public static var defaultLocale: String {
        let requested = LocalePolicy.requestedLanguages()
        return requested.isEmpty ? "en" : requested.joined(separator: ":")
    }

    /// The English literal of each accessor: also its key in `Localizable.strings`.
    public enum Key: String, CaseIterable, Sendable {
        case select = "Select"
        case searchContacts = "Search contacts"
        case ok = "OK"
        case messagingNotSupported = "Messaging not supported"
        case messagingNotSupportedMessage = "Messaging on this device is not supported."
        case mailNotSupportedMessage = "Sending emails from this device is not supported."
        case cancel = "Cancel"
        case typeContactName = "Type contact name"
        case noContacts = "No contacts"
        case contactsSelected = "%d contacts selected"
        case to = "To"
        case subject = "Subject"
        case edit = "Edit"
        case send = "Send"
        case back = "Back"
        // The standard labels of a phone or an email (vCard TYPE), as the value chooser shows them.
        case mobile = "mobile"
        case home = "home"
        case work = "work"
        case other = "other"
        case iPhone = "iPhone"
        case main = "main"
        case homeFax = "home fax"
        case workFax = "work fax"
        case otherFax = "other fax"
        case pager = "pager"
        case school = "school"
    }

    /// The localized literal for `key` (English when the language or the key is missing). A pseudolanguage
    /// the catalog does not have (`en-XA`, `ar-XB`: `LANG=en_XA`) gets the English literal pseudolocalized
    /// (accented, or right-to-left for `XB`), so a front end can be checked before any translation exists.
    ///
    /// ```swift
    /// Strings.string(.cancel, locale: "en-XA")   // "Çåñçéļ"
    /// ```
    public static func string(_ key: Key, locale: String = Strings.defaultLocale) -> String {
        if let pseudo = pseudolocalizer(for: locale) {
            return pseudo.transform(catalog?.string(key.rawValue, locale: "en") ?? key.rawValue)
        }
        return catalog?.string(key.rawValue, locale: locale) ?? key.rawValue
    }

    /// The pseudolocalizer of `locale` when its first language is a pseudolanguage (a private-use region,
    /// `XA`…`XZ`) that the bundled catalog has no localization of: `XB` right-to-left, others accented.
    static func pseudolocalizer(for locale: String) -> Pseudolocalizer? {
        guard let first = locale.split(whereSeparator: { $0 == ":" || $0 == "," }).first else { return nil }
        let tag = LocalePolicy.bcp47(fromLocalizationName: String(first))
        guard Pseudolocalizer.isPseudoLanguage(tag), !(catalog?.languages.contains(tag) ?? false) else { return nil }
        return Pseudolocalizer(style: tag.split(separator: "-").contains("XB") ? .rtl : .accented, pluralLanguage: "en")
    }

    /// "Select" (the button that confirms the selection).
    public static func select(locale: String = Strings.defaultLocale) -> String { string(.select, locale: locale) }
    /// "Search contacts" (the search field placeholder).
    public static func searchContacts(locale: String = Strings.defaultLocale) -> String {
        string(.searchContacts, locale: locale)
    }
    /// "OK".
    public static func ok(locale: String = Strings.defaultLocale) -> String { string(.ok, locale: locale) }
    /// "Messaging not supported" (alert title).
    public static func messagingNotSupported(locale: String = Strings.defaultLocale) -> String {
        string(.messagingNotSupported, locale: locale)
    }
    /// "Messaging on this device is not supported." (alert message).
    public static func messagingNotSupportedMessage(locale: String = Strings.defaultLocale) -> String {
        string(.messagingNotSupportedMessage, locale: locale)
    }
    /// "Sending emails from this device is not supported." (alert message).
    public static func mailNotSupportedMessage(locale: String = Strings.defaultLocale) -> String {
        string(.mailNotSupportedMessage, locale: locale)
    }
    /// "Cancel".
    public static func cancel(locale: String = Strings.defaultLocale) -> String { string(.cancel, locale: locale) }
    /// "Type contact name" (the recipient field placeholder).
    public static func typeContactName(locale: String = Strings.defaultLocale) -> String {
        string(.typeContactName, locale: locale)
    }
    /// "No contacts" (the empty list).
    public static func noContacts(locale: String = Strings.defaultLocale) -> String {
        string(.noContacts, locale: locale)
    }

    /// "To" (the recipient line of the compose sheet).
    public static func to(locale: String = Strings.defaultLocale) -> String { string(.to, locale: locale) }
    /// "Subject" (the subject line of the compose sheet).
    public static func subject(locale: String = Strings.defaultLocale) -> String {
        string(.subject, locale: locale)
    }
    /// "Edit" (the compose sheet's key hint for editing the message).
    public static func edit(locale: String = Strings.defaultLocale) -> String { string(.edit, locale: locale) }
    /// "Send" (the compose sheet's button and key hint for delivering).
    public static func send(locale: String = Strings.defaultLocale) -> String { string(.send, locale: locale) }
    /// "Back" (the compose sheet's button and key hint for going back to the list).
    public static func back(locale: String = Strings.defaultLocale) -> String { string(.back, locale: locale) }

    /// "%d contacts selected" with the plural form the language needs for `count`.
    public static func contactsSelected(count: Int, locale: String = Strings.defaultLocale) -> String {
        if let pseudo = pseudolocalizer(for: locale) {
            return pseudo.transform(contactsSelected(count: count, locale: "en"))
        }
        if let catalog,
            let text = try? catalog.format(Key.contactsSelected.rawValue, locale: locale, arguments: [.int(count)])
        {
            return text
        }
        return count == 1 ? "1 contact selected" : "\(count) contacts selected"
    }
}
