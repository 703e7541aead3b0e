import ICUKit
import Testing

@testable import TerminalUI

@Suite struct FrameTests {
    @Test func plainLinesFitEachSpan() {
        let frame = Frame(lines: [
            [Span("Cancel", width: 8), Span("Select", width: 8, style: .bold, alignment: .trailing)],
            [Span("陈伟陈伟", width: 5, style: [.dim, .reverse])],
        ])
        #expect(frame.plainLines == ["Cancel    Select", "陈伟…"])
    }

    @Test func bidiMarksNeverReachTheTerminal() {
        #expect(TerminalSession.displayable("\u{200F}שלום\u{200E} a\u{061C}b") == "שלום ab")
        #expect(TerminalSession.displayable("plain") == "plain")
    }
}
