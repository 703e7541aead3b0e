import Collation
import ContactsCore
import ContactsSelection
import Foundation
import TestSupport
import Testing

/// Finding likely duplicates (issue 34, item 5).
@Suite struct DuplicateFinderTests {
    static let folding = try! SearchFolding()

    static func contacts(_ text: String) -> [Contact] { AddressBook(data: Data(text.utf8), fileName: "t").contacts }

    static func card(_ uid: String, _ lines: String...) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VCARD\r\n"
    }

    @Test func eachReasonLinksItsPairAndNothingElse() throws {
        let text =
            Self.card("a1", "FN:Ada Lovelace", "EMAIL:ada@example.org")
            + Self.card("a2", "FN:A. L.", "EMAIL:ADA@Example.org ")
            + Self.card("p1", "FN:Piet", "TEL:+1 415 555 0100")
            + Self.card("p2", "FN:Pieter", "TEL:(415) 555-0100")
            + Self.card("b1", "FN:Борис Иванов", "N:Иванов;Борис;;;")
            + Self.card("b2", "FN:Ivanov Boris")
            + Self.card("h1", "FN:Hélène Dubois", "N:Dubois;Hélène;;;")
            + Self.card("h2", "FN:HELENE DUBOIS", "N:DUBOIS;HELENE;;;")
            + Self.card("r1", "FN:Robert Smith", "N:Smith;Robert;;;", "NICKNAME:Bob")
            + Self.card("r2", "FN:Bob Smith", "N:Smith;Bob;;;")
            + Self.card("x1", "FN:Anna Smith", "N:Smith;Anna;;;")
            + Self.card("x2", "FN:Anna Jones", "N:Jones;Anna;;;")
        let groups = try DuplicateFinder.groups(in: Self.contacts(text), region: "US", folding: Self.folding)
        let byIDs = Dictionary(uniqueKeysWithValues: groups.map { ($0.ids, $0) })
        #expect(Set(byIDs.keys) == [["a1", "a2"], ["p1", "p2"], ["b1", "b2"], ["h1", "h2"], ["r1", "r2"]])
        #expect(byIDs[["a1", "a2"]]?.reasons == [.email("ada@example.org")])
        #expect(byIDs[["p1", "p2"]]?.reasons == [.phone("+14155550100")])
        #expect(byIDs[["b1", "b2"]]?.reasons == [.name("boris ivanov")])
        #expect(byIDs[["r1", "r2"]]?.reasons == [.nickname("bob smith")])
        #expect(byIDs[["a1", "a2"]]?.score == 0.95)
        // Surest first.
        #expect(groups.map(\.score) == groups.map(\.score).sorted(by: >))
    }

    @Test func twoSignsScoreHigherAndLinksJoinIntoOneGroup() throws {
        let text =
            Self.card("a", "FN:Ada Lovelace", "EMAIL:ada@example.org")
            + Self.card("b", "FN:Ada Lovelace", "EMAIL:ada@example.org", "TEL:+44 20 7946 0000")
            + Self.card("c", "FN:Countess", "TEL:+442079460000")
        let groups = try DuplicateFinder.groups(in: Self.contacts(text), region: nil, folding: Self.folding)
        #expect(groups.count == 1)
        #expect(groups[0].ids == ["a", "b", "c"])
        #expect(
            groups[0].reasons.map(\.description) == [
                "same email ada@example.org", "same phone +442079460000", "same name ada lovelace",
            ])
        #expect(groups[0].score > 0.99)
    }

    @Test func aValueSharedByManyLinksNoOne() throws {
        let text = (0..<(DuplicateFinder.maximumShare + 1)).map {
            Self.card("w\($0)", "FN:Worker \($0)", "TEL:+1 800 555 0100")
        }.joined()
        #expect(try DuplicateFinder.groups(in: Self.contacts(text), region: "US", folding: Self.folding).isEmpty)
    }

    @Test func plantedDuplicatesAreFoundWithHighPrecisionAndRecall() throws {
        let (text, truth) = VCardBookGenerator.bookWithDuplicates(people: 1000, seed: 7)
        let groups = try DuplicateFinder.groups(in: Self.contacts(text), region: "US", folding: Self.folding)
        let score = DuplicateScore(found: groups.map(\.ids), truth: truth)
        #expect(score.recall == 1, "\(score)")
        // The only false pairs are the households sharing a landline (about 3% of people).
        #expect(score.precision > 0.85, "\(score)")
        #expect(score.precision < 1, "the households must count against precision: \(score)")
    }
}
