import Testing

@testable import TerminalUI

/// The progress line as drawn: a bar of eighths filling the width the label and the figures leave, the
/// label cut first on a narrow terminal, and the plain status line while the total is unknown.
@Suite struct TerminalProgressTests {
    @Test func aBarAtAFractionFillsTheWidth() {
        let line = TerminalProgress.line("reading a.vcf", fraction: 0.5, seconds: 3.24, width: 40)
        #expect(line == "reading a.vcf  [█████     ]   50%  3.2 s")
        #expect(line.count == 40)
    }

    @Test func eighthsOfACellShowThePartFilled() {
        // 20 cells: 54% is 86.4 eighths, 10 full cells and ▊ (6 eighths)
        let line = TerminalProgress.line("r", fraction: 0.54, seconds: 0, width: 38)
        #expect(line == "r  [██████████▊         ]   54%  0.0 s")
        #expect(
            TerminalProgress.line("r", fraction: 0, seconds: 0, width: 38) == "r  [" + String(repeating: " ", count: 20)
                + "]    0%  0.0 s")
        #expect(
            TerminalProgress.line("r", fraction: 1, seconds: 0, width: 38) == "r  [" + String(repeating: "█", count: 20)
                + "]  100%  0.0 s")
    }

    @Test func aNarrowTerminalCutsTheLabelAndKeepsTenCells() {
        let line = TerminalProgress.line(
            "reading and sorting /home/ann/contacts.vcf", fraction: 0.25, seconds: 1, width: 40)
        #expect(line == "reading and …  [██▌       ]   25%  1.0 s")
        #expect(line.count == 40)
        let tiny = TerminalProgress.line("reading", fraction: 0.25, seconds: 1, width: 10)
        #expect(tiny == "  [██▌       ]   25%  1.0 s")
    }

    @Test func withoutATotalTheStatusLineAndASafeLabel() {
        #expect(TerminalProgress.line("reading -", fraction: nil, seconds: 2, width: 80) == "reading -… 2.0 s")
        let hostile = TerminalProgress.line("reading \u{1B}[2J.vcf", fraction: 0.5, seconds: 0, width: 60)
        #expect(!hostile.unicodeScalars.contains("\u{1B}"))
        #expect(hostile.hasPrefix("reading \\u{1B}[2J.vcf  ["))
    }
}
