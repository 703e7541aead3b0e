import ContactsSelection

/// The duplicates view (Ctrl-T): the list shows the groups of likely duplicates the library's
/// `DuplicateFinder` finds among its rows, one section per group (surest first, titled by why and how
/// sure); rows are marked and selected as in the list. Esc, Ctrl-T or typing goes back to the search.
extension ContactPicker {
    /// Shows the duplicates view (nothing changes when the cards cannot be read).
    func showDuplicates() {
        let locale = options.locale
        guard
            let found = try? DuplicateFinder.result(
                in: listing, contacts: selection.contacts, region: selection.phoneRegion,
                title: { Self.duplicateTitle($0, locale: locale) })
        else { return }
        duplicates = true
        result = found
        cursor = 0
        top = 0
        scrollToCursor()
    }

    /// Back from the duplicates view to the search as it was.
    func hideDuplicates() {
        duplicates = false
        research(refining: false)
    }

    /// A group's section title: its strongest reason and its score ("Same email ada@example.org · 95%").
    ///
    /// ```swift
    /// let groups = try DuplicateFinder.groups(in: book.contacts, region: "US")
    /// groups.first.map { ContactPicker.duplicateTitle($0, locale: "de") }   // "Gleiche E-Mail … · 95 %"
    /// ```
    public static func duplicateTitle(_ group: DuplicateGroup, locale: String) -> String {
        let reason: String
        switch group.reasons.first {
        case .email(let value): reason = PickerText.string("Same email", locale: locale) + " " + value
        case .phone(let value): reason = PickerText.string("Same phone", locale: locale) + " " + value
        case .name(let value): reason = PickerText.string("Same name", locale: locale) + " " + value
        case .nickname(let value): reason = PickerText.string("Nickname", locale: locale) + " " + value
        case nil: reason = ""
        }
        let percent = PickerText.string("%d%%", locale: locale)
            .replacingOccurrences(of: "%d", with: String(Int((group.score * 100).rounded())))
            .replacingOccurrences(of: "%%", with: "%")
        return reason + " · " + percent
    }
}
