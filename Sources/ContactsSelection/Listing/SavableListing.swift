import Collation
import Foundation
import Locales

/// A list that can be saved: its rows, sections and search index, and the options it was built with.
protocol SavableListing: ContactListing {
    var configuration: Configuration { get }
    var savedListOptions: String { get }
    var sections: [RowSection] { get }
    var index: SearchIndex { get }
    /// Where the card of row `number` begins in the book's one file, when that is known.
    func cardOffset(row number: Int) -> Int?
}

extension ContactsDataSource: SavableListing {
    func cardOffset(row number: Int) -> Int? { nil }
}
extension CompactContactList: SavableListing {
    /// The options a saved list must have been built with to answer for this configuration.
    public var savedListOptions: String { ContactsDataSource.savedListOptions(configuration) }
}

extension ContactsDataSource {
    /// The options a saved list must have been built with to answer for this configuration.
    public var savedListOptions: String { Self.savedListOptions(configuration) }

    /// The version of the name rules: how a card's name is shown (`Contact.displayName`, `NameOrder`),
    /// which name it is sorted and sectioned under, and the readings it is searched by. Raise it whenever a
    /// change of those rules gives the same card another name, place or reading: it is part of every saved
    /// list's options key, so lists saved under another version are rebuilt, never reused.
    public static let nameRulesVersion = 1

    /// The options key of a list made with `configuration`
    /// (``savedListOptions(locales:mode:skipUnnamed:sortOrder:preferNicknames:nameRules:region:)``).
    public static func savedListOptions(_ configuration: Configuration) -> String {
        savedListOptions(
            locales: configuration.locales, mode: configuration.mode,
            skipUnnamed: configuration.skipUnnamedContacts, sortOrder: configuration.nameSortOrder,
            preferNicknames: configuration.preferNicknames, region: configuration.resolvedPhoneRegion)
    }

    /// The options key of a list (what changes its rows, names, order, sections or keys): the whole list of
    /// locales (the others add index letters and readings), the version of the section rules and of the
    /// name rules (``nameRulesVersion``), and `region`, the phone region its numbers were read with ("ZZ"
    /// for none): a list saved for one region, or under other rules, never answers for another.
    ///
    /// ```swift
    /// ContactsDataSource.savedListOptions(
    ///     locales: ["en", "zh-Hans"], mode: .messages, skipUnnamed: false, sortOrder: .givenName,
    ///     preferNicknames: true, region: "US")
    /// ```
    public static func savedListOptions(
        locales: [String], mode: SelectionMode, skipUnnamed: Bool, sortOrder: NameSortOrder,
        preferNicknames: Bool = false, nameRules: Int = nameRulesVersion, region: String
    ) -> String {
        "locales=\(locales.joined(separator: ",")) sections=\(SectionIndex.rulesVersion) mode=\(mode.rawValue) "
            + "skip-unnamed=\(skipUnnamed) sort=\(sortOrder) nicknames=\(preferNicknames) names=\(nameRules) "
            + "region=\(region)"
    }

    /// The phone region an options key was made with
    /// (``savedListOptions(locales:mode:skipUnnamed:sortOrder:preferNicknames:nameRules:region:)``), "ZZ" when it names
    /// none.
    static func region(inSavedListOptions options: String) -> String {
        guard let range = options.range(of: " region=", options: .backwards) else { return "ZZ" }
        return String(options[range.upperBound...])
    }
}
