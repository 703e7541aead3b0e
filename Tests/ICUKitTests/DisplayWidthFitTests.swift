import ICUKit
import Testing

@Suite struct DisplayWidthFitTests {
    @Test func truncationNeverSplitsAClusterAndEndsWithEllipsis() {
        #expect(DisplayWidth.truncate("Zoë Washburne", width: 8) == "Zoë Was…")
        #expect(DisplayWidth.truncate("王伟", width: 3) == "王…")
        #expect(DisplayWidth.truncate("王伟", width: 4) == "王伟")
        #expect(DisplayWidth.truncate("abc", width: 0) == "")
        let family = "👨‍👩‍👧‍👦"
        #expect(DisplayWidth.truncate(family + family, width: 3) == family + "…")
        #expect(DisplayWidth.truncate(family + family, width: 2) == "…")
        // A letter with two combining marks stays whole.
        let marked = "e\u{301}\u{323}"
        #expect(DisplayWidth.truncate(marked + marked + "x", width: 2) == marked + "…")
    }

    @Test func fitPadsToTheExactWidth() {
        #expect(DisplayWidth.fit("Ann", width: 5) == "Ann  ")
        #expect(DisplayWidth.fit("Ann", width: 5, alignment: .trailing) == "  Ann")
        #expect(DisplayWidth.fit("王伟王", width: 5) == "王伟…")
        #expect(DisplayWidth.fit("王伟王伟", width: 4) == "王… ")
        for width in 0...12 {
            #expect(DisplayWidth.measure(DisplayWidth.fit("ÅÄÖ 王伟 👨‍👩‍👧‍👦 مُحَمَّد", width: width)) == width)
        }
    }
}
