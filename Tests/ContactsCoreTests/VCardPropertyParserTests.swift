import Support
import Testing

@testable import ContactsCore

/// The property parser alone, on one content line: head, parameters, RFC 6868, syntax errors.
@Suite struct VCardPropertyParserTests {
    /// What the parser made of `line`: the head (or the failure) and what the parser then tells about it.
    struct Parsed {
        var head: VCardPropertyParser.Head?
        var failure: VCardPropertyParser.Failure?
        var group: String?
        var name = ""
        var value = ""
        var parameters: [VCardParameter] = []
        var label = ""
        var sortAs: [String] = []
        var charset: String?
        /// The line after parsing (names upper-cased in place).
        var line = ""
    }

    func parse(_ text: String) -> Parsed {
        var buffer = CheckedBuffer<UInt8>(capacity: 8)
        defer { buffer.deallocate() }
        Array(text.utf8).withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
        var parser = VCardPropertyParser(line: buffer)
        defer { parser.deallocate() }
        var parsed = Parsed()
        do {
            let head = try parser.parse(buffer, from: 0)
            parsed.head = head
            parsed.group = parser.group(head)
            parsed.name = parser.name(head)
            parsed.value = parser.text(head.valueStart, buffer.count)
            parsed.parameters = parser.materializedParameters()
            if head.customStart >= 0 { parsed.label = parser.paramText(head.customStart, head.customEnd) }
            parser.appendSortAs(to: &parsed.sortAs)
            if head.charsetStart >= 0 { parsed.charset = parser.text(head.charsetStart, head.charsetEnd) }
        } catch {
            parsed.failure = error
        }
        parsed.line = String(decoding: buffer.all, as: UTF8.self)
        return parsed
    }

    @Test func groupNameAndValue() {
        let p = parse("item1.tel;type=cell:+1 555")
        #expect(p.group == "item1")
        #expect(p.name == "TEL")
        #expect(p.head?.kind == .tel)
        #expect(p.value == "+1 555")
        #expect(p.head?.types == TypeFlags.cell)
        #expect(p.line == "item1.TEL;TYPE=cell:+1 555")  // names upper-cased in place, values kept
        #expect(p.parameters == [VCardParameter(name: "TYPE", values: ["cell"])])
    }

    @Test func quotedAndMultipleValues() {
        let p = parse("EMAIL;TYPE=\"home,work\";TYPE=pref;PREF=2:a@b.example")
        #expect(p.head.map { $0.types & (TypeFlags.home | TypeFlags.work | TypeFlags.pref) } == 35)
        #expect(p.head?.pref == 2)
        #expect(
            p.parameters == [
                VCardParameter(name: "TYPE", values: ["home", "work"]), VCardParameter(name: "TYPE", values: ["pref"]),
                VCardParameter(name: "PREF", values: ["2"]),
            ])
        // A colon inside quotes belongs to the parameter value.
        let q = parse("X-A;X-P=\"a:b\",c:v")
        #expect(q.value == "v")
        #expect(q.parameters == [VCardParameter(name: "X-P", values: ["a:b", "c"])])
    }

    @Test func vCard21BareParameters() {
        let p = parse("TEL;HOME;FAX;QUOTED-PRINTABLE;CHARSET=ISO-8859-1:1")
        #expect(p.head?.types == TypeFlags.home | TypeFlags.fax)
        #expect(p.head?.encoding == 1)
        #expect(p.charset == "ISO-8859-1")
        #expect(
            p.parameters == [
                VCardParameter(name: "TYPE", values: ["HOME"]), VCardParameter(name: "TYPE", values: ["FAX"]),
                VCardParameter(name: "ENCODING", values: ["QUOTED-PRINTABLE"]),
                VCardParameter(name: "CHARSET", values: ["ISO-8859-1"]),
            ])
    }

    @Test func rfc6868EscapesInParameterValues() {
        let p = parse("X-A;X-P=\"caret ^^ quote ^' line^nend ^x\":v")
        #expect(p.parameters == [VCardParameter(name: "X-P", values: ["caret ^ quote \" line\nend ^x"])])
        let label = parse("TEL;TYPE=\"My ^'Desk^'\":1")
        #expect(label.label == "My \"Desk\"")
    }

    @Test func sortAsValuesSplitAtCommasOfQuotedValues() {
        #expect(parse("N;SORT-AS=\"Lovelace,Ada\":Lovelace;Ada;;;").sortAs == ["Lovelace", "Ada"])
        #expect(parse("N;SORT-AS=Lovelace,Ada:Lovelace;Ada;;;").sortAs == ["Lovelace", "Ada"])
        #expect(parse("N:Lovelace;Ada;;;").sortAs.isEmpty)
    }

    @Test func knownParametersAreFolded() {
        let p = parse("BDAY;VALUE=text;X-APPLE-OMIT-YEAR=1604:circa 1800")
        #expect(p.head?.kind == .bday)
        #expect(p.head?.valueIsText == true)
        #expect(p.head?.omitYear == 1604)
        #expect(parse("X-ABDATE:2001-01-01").head?.kind == .abDate)
        #expect(parse("X-UNKNOWN:v").head?.kind == .other)
    }

    @Test func syntaxErrorsNameTheColumnAndWhatWasExpected() {
        let badName = parse("TE L:1")
        #expect(badName.failure?.column == 3)
        #expect(badName.failure?.message.contains("expected ':' or ';' after 'TE'") == true)
        let noName = parse(":value")
        #expect(noName.failure?.column == 1)
        #expect(noName.failure?.message.contains("expected a property name") == true)
        let noColon = parse("NOTE")
        #expect(noColon.failure?.message.contains("expected ':' after the property name 'NOTE'") == true)
        let unterminated = parse("NOTE;X-P=\"open:value")
        #expect(unterminated.failure?.column == 10)
        #expect(unterminated.failure?.message.contains("unterminated quoted value of parameter X-P") == true)
        #expect(badName.head == nil && noName.head == nil && noColon.head == nil && unterminated.head == nil)
    }
}
