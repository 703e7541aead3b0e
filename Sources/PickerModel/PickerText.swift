import StringsCatalog

/// The picker's own literals (key hints, the help screen, the card's labels): the `Picker` table of the
/// package's strings catalog, English when a language or a key is missing.
///
/// ```swift
/// PickerText.string("Help", locale: "de")   // "Hilfe"
/// ```
public enum PickerText {
    /// The table of the catalog the picker's literals are in (`Localizations/<lang>.lproj/Picker.strings`).
    public static let table = "Picker"

    /// The literal whose English text (its key) is `english`, in `locale`.
    public static func string(_ english: String, locale: String) -> String {
        Strings.catalog?.string(english, table: table, locale: locale) ?? english
    }
}
