import Testing

@testable import TerminalUI

/// Sequences the terminal description does not name: the standard cursor and editing keys in either
/// cursor-key mode are read as those keys (a terminal an editor left in the other mode still works); any
/// other sequence is left out.
@Suite struct StandardKeyTests {
    @Test("arrows, Home and End in both cursor-key modes")
    func cursorKeysInBothModes() {
        for csi in [true, false] {
            #expect(TerminalSession.standardKey(csi: csi, "A") == .up)
            #expect(TerminalSession.standardKey(csi: csi, "B") == .down)
            #expect(TerminalSession.standardKey(csi: csi, "C") == .right)
            #expect(TerminalSession.standardKey(csi: csi, "D") == .left)
            #expect(TerminalSession.standardKey(csi: csi, "H") == .home)
            #expect(TerminalSession.standardKey(csi: csi, "F") == .end)
        }
    }

    @Test("the editing keys of ESC [ n ~, and Shift-Tab")
    func editingKeys() {
        #expect(TerminalSession.standardKey(csi: true, "1~") == .home)
        #expect(TerminalSession.standardKey(csi: true, "4~") == .end)
        #expect(TerminalSession.standardKey(csi: true, "5~") == .pageUp)
        #expect(TerminalSession.standardKey(csi: true, "6~") == .pageDown)
        #expect(TerminalSession.standardKey(csi: true, "3~") == .delete)
        #expect(TerminalSession.standardKey(csi: true, "Z") == .backTab)
    }

    @Test("anything else is left out")
    func otherSequencesAreNotKeys() {
        for rest in ["99~", "1;5P", "1;5C", "200~", "M"] {
            #expect(TerminalSession.standardKey(csi: true, rest) == nil)
        }
        #expect(TerminalSession.standardKey(csi: false, "Z") == nil)
        #expect(TerminalSession.standardKey(csi: false, "5~") == nil)
    }
}
