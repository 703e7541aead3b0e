import Testing

@testable import PickerModel

/// The conflict-resolution screen's model (issue 29 item 9).
@Suite struct ConflictResolverTests {
    static func resolver(columns: Int = 60, lines: Int = 10) -> ConflictResolver {
        ConflictResolver(
            file: "ada.vcf",
            properties: [
                .init(
                    name: "EMAIL", mine: ["EMAIL:ada@local.example.org"], theirs: ["EMAIL:ada@server.example.org"],
                    multiValued: true),
                .init(name: "NOTE", mine: ["NOTE:mine"], theirs: [], multiValued: false),
            ],
            columns: columns, lines: lines)
    }

    @Test func showsBothSidesNextToEachOtherWithTheServersTakenFirst() {
        let text = Self.resolver().screen().text
        #expect(text.count == 10)
        #expect(text[0].contains("ada.vcf: 2 properties changed on both sides"))
        #expect(text[1].contains("yours") && text[1].contains("server's"))
        #expect(text[2].hasPrefix("EMAIL *"))
        #expect(text[2].contains("○ EMAIL:ada@local"))
        #expect(text[2].contains("● EMAIL:ada@server"))
        #expect(text[3].hasPrefix("NOTE") && text[3].contains("○ NOTE:mine") && text[3].contains("● (none)"))
        #expect(text[9].contains("b both"))
        // Each side starts in the same column on every row.
        #expect(text[2].firstIndex(of: "○") == text[3].firstIndex(of: "○"))
    }

    @Test func eachPropertyTakesItsOwnSideAndBothOnlyWhenMultiValued() {
        let r = Self.resolver()
        #expect(r.handle(.text("b")) == nil)
        #expect(r.choices == [.both, .theirs])
        #expect(r.screen().text[2].contains("● EMAIL:ada@local") && r.screen().text[2].contains("● EMAIL:ada@server"))
        r.handle(.down)
        r.handle(.text("b"))
        #expect(r.choices == [.both, .theirs], "NOTE holds one value: both is refused")
        r.handle(.left)
        #expect(r.choices == [.both, .mine])
        r.handle(.text(" "))
        #expect(r.choices == [.both, .theirs])
        r.handle(.up)
        r.handle(.tab)
        #expect(r.choices == [.mine, .theirs])
        #expect(r.handle(.enter) == .resolved([.mine, .theirs]))
    }

    @Test func escapeAndQCancel() {
        #expect(Self.resolver().handle(.escape) == .cancelled)
        #expect(Self.resolver().handle(.text("q")) == .cancelled)
        #expect(Self.resolver().handle(.control("c")) == .cancelled)
    }

    @Test func aClickOnASideTakesIt() {
        let r = Self.resolver()
        let mineColumn = r.screen().text[3].distance(
            from: r.screen().text[3].startIndex, to: r.screen().text[3].firstIndex(of: "○")!)
        r.handle(.click(line: 3, column: mineColumn))
        #expect(r.cursor == 1 && r.choices == [.theirs, .mine])
    }

    @Test func theListScrollsToKeepTheCursorsPropertyOnScreen() {
        let properties = (0..<12).map {
            ConflictResolver.Property(
                name: "X-P\($0)", mine: ["X-P\($0):a"], theirs: ["X-P\($0):b"], multiValued: false)
        }
        let r = ConflictResolver(file: "many.vcf", properties: properties, columns: 50, lines: 6)
        for _ in 0..<11 { r.handle(.down) }
        let text = r.screen().text
        #expect(text.count == 6)
        #expect(text.contains { $0.hasPrefix("X-P11") }, "\(text)")
        #expect(!text.contains { $0.hasPrefix("X-P0 ") })
        r.handle(.home)
        #expect(r.screen().text[2].hasPrefix("X-P0"))
    }
}
