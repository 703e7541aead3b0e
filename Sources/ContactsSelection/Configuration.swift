import Collation
import ContactsCore
import Locales

/// Which channels the selection is for (the `mode` of KBContactsSelection, the iOS picker this package re-creates).
public struct SelectionMode: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Text messages: contacts need a phone number.
    public static let messages = SelectionMode(rawValue: 1)
    /// Email: contacts need an email address.
    public static let email = SelectionMode(rawValue: 2)
    /// Either: contacts need a phone number or an email address.
    public static let both: SelectionMode = [.messages, .email]
}

/// A row shown above the sections (like the "New Contacts" and "Current User" cells
/// that NCFriendListViewController, an iOS friends list, pins above its sections). Pinned rows
/// are not contacts: they are not searched, sectioned or selectable; the front end handles their taps.
public struct PinnedRow: Sendable, Hashable, Identifiable {
    public var id: String
    public var title: String
    public var subtitle: String?
    public init(id: String, title: String, subtitle: String? = nil) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
    }
}

/// What the iOS picker's configuration object (KBContactsSelectionConfiguration) offers for the list and the selection, plus locale, name sort
/// order, pinned rows and a load hook. Its mail and message fields (subject, body, HTML, sender) are
/// `ComposerText` in the `Campaigns` module, with the select action that uses them.
///
/// ```swift
/// let selection = try SelectionController(contacts: book.contacts) { config in
///     config.mode = .email
///     config.skipUnnamedContacts = true
/// }
/// ```
public struct Configuration: Sendable {
    public var mode: SelectionMode = .messages
    public var skipUnnamedContacts = false
    public var searchByKeywords = false
    /// Rows whose contact fails this rule are shown disabled and cannot be selected.
    public var contactEnabledValidation: (@Sendable (Contact) -> Bool)?
    /// nil → the localized "Search contacts".
    public var title: String?
    /// nil → the localized "Select".
    public var selectButtonTitle: String?
    /// When set, the select action (`Campaigns`' `performSelectAction`) calls it with the selected contacts
    /// (in list order) instead of composing.
    public var customSelectButtonHandler: (@Sendable ([Contact]) -> Void)?
    /// The locales, most preferred first (BCP 47), as Android's locale list: the first names and sorts, the
    /// others add their index letters and name readings (`["en", "zh-Hans"]` files 王伟 under W). Default: the
    /// environment's list (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`; `LocalePolicy.environmentLocales(environment:)`).
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.locales = try LocalePolicy.localeList("en,zh-Hans")
    /// config.locale   // "en"
    /// ```
    public var locales: [String] = LocalePolicy.environmentLocales(environment: ProcessInfoEnvironment.current)
    /// The first of ``locales`` (texts, name order, sorting); setting it makes a list of that one locale.
    public var locale: String {
        get { locales.first ?? "en" }
        set { locales = [newValue] }
    }
    /// The phone region for numbers written without a country code (ISO 3166 alpha-2, e.g. "US"). nil: by
    /// the package's rule (`LocalePolicy.phoneRegion(explicit:locale:environment:)`): `CONTACTS_REGION`,
    /// else the explicit region subtag of `locale` ("en-GB" → GB; "ja" and "de" name none), else the
    /// environment's territory (`LANG=de_DE.UTF-8` → DE). With none, only numbers in international form
    /// are normalized; the others are shown as written.
    public var phoneRegion: String?
    /// Which name part the list sorts by (like the sort order setting of Apple's Contacts,
    /// `CNContactsUserDefaults.sortOrder`).
    public var nameSortOrder: NameSortOrder = .givenName
    /// Show contacts by their nickname when they have one, and sort and section them by it (like iOS
    /// "Prefer Nicknames"). Off: the nickname is only searched; the name decides the row's place.
    public var preferNicknames = false
    /// Presentation hints for front ends (kept from KB; the library does not draw).
    public var tintColor: String?
    public var shouldShowNavigationBar = true
    /// Rows above the sections, in this order.
    public var pinnedRows: [PinnedRow] = []
    /// Called once with the loaded contacts before filtering and sectioning; may reorder, drop or add.
    public var willLoadItems: (@Sendable ([Contact]) -> [Contact])?

    public init() {}

    /// The region phones are read with (``phoneRegion``, else the package's rule), "ZZ" when none.
    var resolvedPhoneRegion: String {
        LocalePolicy.phoneRegion(explicit: phoneRegion, locale: locale, environment: ProcessInfoEnvironment.current)
            ?? "ZZ"
    }
}

/// The locale of the environment by the package's one rule (`LocalePolicy.environmentLocale(environment:)`):
/// `LANGUAGE` (unless the locale is `C`/`POSIX`), `LC_ALL`, `LC_MESSAGES`, `LANG`, mapped to BCP 47
/// (`de_DE.UTF-8` → `de-DE`), else "en". The same locale serves text, sorting and sections.
public func environmentLocale(_ environment: [String: String] = ProcessInfoEnvironment.current) -> String {
    LocalePolicy.environmentLocale(environment: environment)
}
