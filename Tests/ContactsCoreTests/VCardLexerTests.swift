import Testing

@testable import ContactsCore

/// The lexer alone: line ends, unfolding, line numbers and offsets.
@Suite struct VCardLexerTests {
    struct Line: Equatable, CustomStringConvertible {
        var number: Int
        var offset: Int
        var text: String
        var description: String { "\(number)@\(offset) \(text)" }
    }

    /// The content lines of `text` and the physical line count.
    func lex(_ text: String) -> (lines: [Line], lineCount: Int) {
        var lexer = VCardLexer()
        defer { lexer.deallocate() }
        var lines: [Line] = []
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { input in
            lexer.start(input)
            while lexer.next() {
                lines.append(
                    Line(
                        number: lexer.lineNumber, offset: lexer.lineOffset,
                        text: String(decoding: lexer.line.all, as: UTF8.self)))
            }
        }
        return (lines, lexer.lineCount)
    }

    @Test func everyLineEndIsALineEnd() {
        let (lines, count) = lex("A:1\r\nB:2\nC:3\rD:4\r\r\nE:5")
        #expect(lines.map(\.text) == ["A:1", "B:2", "C:3", "D:4", "E:5"])
        #expect(lines.map(\.number) == [1, 2, 3, 4, 5])
        #expect(lines.map(\.offset) == [0, 5, 9, 13, 19])
        #expect(count == 5)
    }

    @Test func emptyLinesAreSkippedButCounted() {
        let (lines, count) = lex("\r\n\r\nA:1\r\n\r\nB:2\r\n")
        #expect(lines == [Line(number: 3, offset: 4, text: "A:1"), Line(number: 5, offset: 11, text: "B:2")])
        #expect(count == 5)
    }

    @Test func byteOrderMarkIsSkipped() {
        let (lines, _) = lex("\u{FEFF}BEGIN:VCARD\r\n")
        #expect(lines == [Line(number: 1, offset: 3, text: "BEGIN:VCARD")])
    }

    @Test func spaceAndTabContinuationsAreUnfolded() {
        let (lines, count) = lex("NOTE:one\r\n  two\r\n\tthree\r\nFN:x\r\n")
        #expect(
            lines == [Line(number: 1, offset: 0, text: "NOTE:one twothree"), Line(number: 4, offset: 25, text: "FN:x")])
        #expect(count == 4)
    }

    @Test func quotedPrintableSoftBreaksJoinLines() {
        let (lines, _) = lex("NOTE;ENCODING=QUOTED-PRINTABLE:a=\r\nb=\r\nc\r\nFN:x\r\n")
        #expect(lines.map(\.text) == ["NOTE;ENCODING=QUOTED-PRINTABLE:abc", "FN:x"])
        // Without the encoding, a trailing '=' is the value's own.
        #expect(lex("NOTE:a=\r\nFN:x\r\n").lines.map(\.text) == ["NOTE:a=", "FN:x"])
        // A soft break never swallows the end of the card.
        #expect(
            lex("NOTE;QUOTED-PRINTABLE:a=\r\nEND:VCARD\r\n").lines.map(\.text) == [
                "NOTE;QUOTED-PRINTABLE:a=", "END:VCARD",
            ])
    }

    @Test func vCard21Base64RunsWithoutIndentationAreJoined() {
        let (lines, _) = lex("PHOTO;ENCODING=BASE64;TYPE=PNG:iVBO\r\nRw0K\r\nGgo=\r\nFN:x\r\n")
        #expect(lines.map(\.text) == ["PHOTO;ENCODING=BASE64;TYPE=PNG:iVBORw0KGgo=", "FN:x"])
        #expect(lex("PHOTO;ENCODING=b:iVBO\r\nRw0K\r\n").lines.map(\.text) == ["PHOTO;ENCODING=b:iVBORw0K"])
    }

    @Test func lineEncodingLooksOnlyAtParametersOutsideQuotes() {
        func encoding(_ line: String) -> UInt8 {
            var lexer = VCardLexer()
            defer { lexer.deallocate() }
            return Array(line.utf8).withUnsafeBufferPointer { input in
                lexer.start(input)
                _ = lexer.next()
                return lexer.lineEncoding()
            }
        }
        #expect(encoding("NOTE;ENCODING=QUOTED-PRINTABLE:x") == 1)
        #expect(encoding("NOTE;quoted-printable:x") == 1)
        #expect(encoding("PHOTO;ENCODING=b;TYPE=JPEG:x") == 2)
        #expect(encoding("PHOTO;BASE64:x") == 2)
        #expect(encoding("NOTE;X-A=\"ENCODING=BASE64\":x") == 0)
        #expect(encoding("NOTE:;QUOTED-PRINTABLE") == 0)
    }

    @Test func longLinesGrowTheBuffer() {
        let value = String(repeating: "x", count: 10_000)
        let (lines, _) = lex("NOTE:\(value.prefix(5000))\r\n \(value.dropFirst(5000))\r\n")
        #expect(lines.map(\.text) == ["NOTE:" + value])
    }

    @Test func keywordsMatchInAnyCaseWithTrailingBlanks() {
        func matches(_ text: String, _ keyword: StaticString) -> Bool {
            Array(text.utf8).withUnsafeBufferPointer { VCardLexer.matchesKeyword($0, keyword) }
        }
        #expect(matches("end:vcard \t", "END:VCARD"))
        #expect(!matches("END:VCARDS", "END:VCARD"))
        #expect(!matches("END:VCAR", "END:VCARD"))
        #expect(Array("Begin:VCard".utf8).withUnsafeBufferPointer { VCardLexer.isCardBoundary($0) })
    }

    @Test func emptyInputHasNoLines() {
        let (lines, count) = lex("")
        #expect(lines.isEmpty)
        #expect(count == 0)
    }
}
