import ContactsCore
import Foundation
import SelectionFixtures
import Testing

@testable import ContactsSelection

@Suite struct ConfigurationAndLoadingTests {
    @Test func defaultsMatchKB() throws {
        let config = Configuration()
        #expect(config.mode == .messages)
        #expect(!config.skipUnnamedContacts)
        #expect(!config.searchByKeywords)
        #expect(config.contactEnabledValidation == nil)
        #expect(config.customSelectButtonHandler == nil)
        #expect(config.shouldShowNavigationBar)
    }

    @Test func environmentLocaleFromPOSIXVariables() {
        #expect(environmentLocale(["LANG": "de_DE.UTF-8"]) == "de-DE")
        #expect(environmentLocale(["LC_ALL": "sv_SE.UTF-8", "LANG": "de_DE.UTF-8"]) == "sv-SE")
        #expect(environmentLocale(["LC_MESSAGES": "zh_TW", "LANG": "C"]) == "zh-TW")
        #expect(environmentLocale(["LANG": "C"]) == "en")
        #expect(environmentLocale([:]) == "en")
    }

    @Test func modesKeepWhatTheChannelNeeds() throws {
        let messages = try ContactsDataSource(contacts: book, configuration: config(.messages))
        #expect(messages.row(id: "emailonly") == nil)
        #expect(messages.row(id: "felipe")?.value == "+14155550100")
        #expect(messages.row(id: "felipe")?.channel == .message)
        let email = try ContactsDataSource(contacts: book, configuration: config(.email))
        #expect(email.row(id: "zhang") == nil)
        #expect(email.row(id: "emailonly")?.value == "erin@example.net")
        let both = try ContactsDataSource(contacts: book, configuration: config(.both))
        #expect(both.row(id: "emailonly")?.channel == .email)
        #expect(both.row(id: "felipe")?.channel == .message)
        #expect(both.row(id: "nothing") == nil)
        #expect(both.skipped.contains { $0.id == "nothing" && $0.reason == .noPhoneOrEmail })
    }

    @Test func skipUnnamedAndDuplicates() throws {
        var c = config(.messages)
        let all = try ContactsDataSource(contacts: book, configuration: c)
        #expect(all.row(id: "unnamed")?.displayName == "+1 415 555 0199")
        #expect(all.row(id: "dup1") != nil && all.row(id: "dup2") == nil)
        #expect(all.skipped.contains { $0.id == "dup2" && $0.reason == .duplicate })
        c.skipUnnamedContacts = true
        let named = try ContactsDataSource(contacts: book, configuration: c)
        #expect(named.row(id: "unnamed") == nil)
    }

    @Test func displayAndSortNames() throws {
        let source = try ContactsDataSource(contacts: book, configuration: config(.messages))
        #expect(source.row(id: "zhang")?.displayName == "张伟")
        #expect(source.row(id: "helene")?.displayName == "Hélène Dupont")
        // A nickname that is not shown does not decide the place (issue 18 item 3).
        #expect(source.row(id: "nick")?.sortName == "Robert Tables")
        #expect(source.row(id: "nick")?.section == "R")
        #expect(source.row(id: "yamada")?.sortName == "たろう やまだ")
        for row in source.rows { #expect(!row.displayName.hasPrefix(" ")) }
        // Sorted by family name when asked.
        var byFamily = config(.messages)
        byFamily.nameSortOrder = .familyName
        let f = try ContactsDataSource(contacts: book, configuration: byFamily)
        #expect(f.row(id: "felipe")?.section == "B")
        #expect(source.row(id: "felipe")?.section == "F")
    }

    @Test func sectionsAndIndexFromCollation() throws {
        let source = try ContactsDataSource(contacts: book, configuration: config(.messages, locale: "ja"))
        #expect(source.row(id: "yamada")?.section == "た")  // by the phonetic name, given-first sort
        #expect(source.indexTitles.last == "#")
        #expect(source.sections.last?.title == "#")
        let total = source.sections.reduce(0) { $0 + $1.range.count }
        #expect(total == source.rows.count)
    }

    @Test func willLoadItemsAndPinnedRows() throws {
        var c = config(.messages)
        c.willLoadItems = { contacts in
            contacts.filter { $0.id != "boris" } + [
                person("added", given: "Zed", family: "Added", phones: ["+1 415 555 0150"])
            ]
        }
        c.pinnedRows = [PinnedRow(id: "new", title: "New Contacts"), PinnedRow(id: "me", title: "Current User")]
        let s = try SelectionController(dataSource: ContactsDataSource(contacts: book, configuration: c))
        #expect(s.dataSource?.row(id: "boris") == nil)
        #expect(s.dataSource?.row(id: "added") != nil)
        #expect(s.visiblePinnedRows.map(\.id) == ["new", "me"])
        s.search("zed")
        #expect(s.visiblePinnedRows.isEmpty)
        s.search("")
        #expect(s.visiblePinnedRows.count == 2)
    }
}

func config(_ mode: SelectionMode, locale: String = "en", keywords: Bool = false) -> Configuration {
    var c = Configuration()
    c.mode = mode
    c.locale = locale
    c.searchByKeywords = keywords
    return c
}

@Suite struct SearchTests {
    let source: ContactsDataSource
    init() throws { source = try ContactsDataSource(contacts: book, configuration: config(.both)) }

    func ids(_ query: String, keywords: Bool = false) -> Set<String> {
        Set(source.search(query, keywords: keywords).rowNumbers.map { source.rows[Int($0)].id })
    }

    @Test func plainIsFoldedSubstring() {
        #expect(ids("hele") == ["helene"])
        #expect(ids("ＨＥＬ") == ["helene"])
        #expect(ids("HÉLÈNE dup") == ["helene"])
        #expect(ids("aytel") == ["felipe"])
        #expect(ids("бор") == ["boris"])
        #expect(ids("boris") == ["boris"])
    }

    @Test func keywordsArePrefixesInAnyOrder() {
        #expect(ids("f b", keywords: true) == ["felipe", "bruno"])
        #expect(ids("baytelman felipe", keywords: true) == ["felipe"])
        #expect(ids("aytel", keywords: true).isEmpty)
        #expect(ids("fel bay", keywords: true) == ["felipe"])
    }

    @Test func otherFieldsMatchInBothModes() {
        for keywords in [false, true] {
            #expect(ids("4155550100", keywords: keywords) == ["felipe"])
            #expect(ids("zhangwei", keywords: keywords) == ["zhang"])
            #expect(ids("zw", keywords: keywords) == ["zhang"])
            #expect(ids("zhang", keywords: keywords) == ["zhang"])
            #expect(ids("ㅇㅅㅇ", keywords: keywords) == ["lee"])
            #expect(ids("bobby", keywords: keywords) == ["nick"])
            #expect(ids("acme", keywords: keywords) == ["nick"])
            #expect(ids("erin@example", keywords: keywords) == ["emailonly"])
        }
        #expect(ids("(415) 555-0101") == ["bruno"])
        #expect(ids("555 0101") == ["bruno"])
    }

    @Test func emptyAndPunctuationListEveryone() {
        #expect(ids("").count == source.rows.count)
        #expect(ids("   ").count == source.rows.count)
        #expect(ids(" - , ").count == source.rows.count)
    }

    @Test func resultsAreSectionedLikeTheList() {
        let r = source.search("e")
        #expect(r.sections.reduce(0) { $0 + $1.range.count } == r.count)
        var previous = -1
        for n in r.rowNumbers {
            #expect(Int(n) > previous)
            previous = Int(n)
        }
        for section in r.sections {
            for n in r.rowNumbers[section.range] { #expect(source.rows[Int(n)].section == section.title) }
        }
    }

    @Test func incrementalEqualsFullSearch() {
        for keywords in [false, true] {
            var previous: SearchResult?
            for query in ["b", "b ", "b f", "b fi", "br", "bru", "x", "", "4", "41", "415", "(415) 5", "ㅇ", "ㅇㅅ"] {
                let incremental = source.search(query, keywords: keywords, refining: previous)
                let full = source.search(query, keywords: keywords)
                #expect(incremental.rowNumbers == full.rowNumbers, "query '\(query)' keywords \(keywords)")
                previous = incremental
            }
        }
    }
}

@Suite struct SelectionStateTests {
    @Test func selectionIsKeptAcrossSearches() throws {
        let s = try SelectionController(contacts: book) {
            $0.mode = .both
            $0.locale = "en"
        }
        s.search("fel")
        try s.select(id: "felipe")
        s.search("bru")
        try s.select(id: "bruno")
        s.search("")
        #expect(try s.selectedContacts().map(\.id) == ["bruno", "felipe"])  // list order
        #expect(s.isSelected(id: "felipe"))
        #expect(throws: SelectionError.unknownContact(id: "nope")) { try s.select(id: "nope") }
    }

    @Test func disabledRowsCannotBeSelected() throws {
        let s = try SelectionController(contacts: book) {
            $0.contactEnabledValidation = { $0.id != "bruno" }
        }
        #expect(s.dataSource?.row(id: "bruno")?.enabled == false)
        #expect(throws: SelectionError.disabled(id: "bruno")) { try s.select(id: "bruno") }
        s.search("b")
        s.selectAll()
        #expect(!s.isSelected(id: "bruno"))
        #expect(s.isSelected(id: "felipe"))  // "b" matches Baytelman
    }

    @Test func eventsForSelectToggleSelectAllAndRemoveAll() async throws {
        let s = try SelectionController(contacts: book) { $0.locale = "en" }
        var events: [SelectionEvent] = []
        s.observe { events.append($0) }
        let stream = s.events()
        try s.select(id: "felipe")
        try s.select(id: "felipe")  // no second event
        #expect(try s.toggle(id: "bruno"))
        #expect(try !s.toggle(id: "bruno"))
        s.search("hel")
        s.selectAll()
        s.removeAll()
        let ids = events.map { e -> String in
            switch e {
            case .didSelect(let c): return "+" + c.id
            case .didRemove(let c): return "-" + c.id
            }
        }
        #expect(ids == ["+felipe", "+bruno", "-bruno", "+helene", "-felipe", "-helene"])
        var streamed: [SelectionEvent] = []
        for await event in stream {
            streamed.append(event)
            if streamed.count == events.count { break }
        }
        #expect(streamed == events)
    }

    @Test func chosenValuePerContact() throws {
        var c = person("multi", given: "Multi", family: "Phone", phones: ["+1 415 555 0110", "+1 415 555 0111"])
        c.phones[1].preference = 1
        let s = try SelectionController(contacts: [c]) { $0.locale = "en-US" }
        #expect(s.value(for: "multi")?.value == "+14155550110")
        try s.choose(value: "+1 415 555 0111", for: "multi")
        #expect(s.value(for: "multi")?.value == "+14155550111")
        #expect(throws: SelectionError.invalidValue(id: "multi", value: "+1 000")) {
            try s.choose(value: "+1 000", for: "multi")
        }
    }
}

@Suite struct PeoplePickerTests {
    @Test func singlePick() throws {
        let source = try ContactsDataSource(contacts: book, configuration: config(.both))
        let picker = PeoplePicker(dataSource: source)
        #expect(picker.pick(id: "felipe") == .picked(name: "Felipe Baytelman", number: "+14155550100"))
        #expect(picker.pick(id: nil) == .cancelled)
        #expect(picker.pick(id: "ghost") == .failed(.unknownContact(id: "ghost")))
        #expect(picker.pick(id: "emailonly") == .failed(.noPhoneNumber(id: "emailonly")))
    }
}
