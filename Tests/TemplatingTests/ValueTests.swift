import Foundation
import Synchronization
import Testing

@testable import Templating

@Suite("Context values")
struct ValueTests {
    @Test func dictionaryLookupsAndEdits() {
        var d: MustacheDictionary = ["name": "Ada", "age": 36, "tags": ["a", "b"], "": "empty key"]
        #expect(d.count == 4)
        #expect(d["name"]?.scalarText == "Ada")
        #expect(d["age"]?.scalarText == "36")
        #expect(d[""]?.scalarText == "empty key")
        #expect(d["nope"] == nil)
        d["age"] = 37
        d["city"] = "Paris"
        d["tags"] = nil
        #expect(d["age"]?.scalarText == "37")
        #expect(d["city"]?.scalarText == "Paris")
        #expect(d["tags"] == nil)
        #expect(Set(d.keys) == ["name", "age", "", "city"])
        #expect(d.entries.map(\.key) == ["name", "age", "", "city"])
    }

    @Test func laterDuplicateWins() {
        let d = MustacheDictionary(entries: [("a", 1), ("b", 2), ("a", 3)])
        #expect(d.count == 2)
        #expect(d["a"]?.scalarText == "3")
    }

    @Test func largeDictionariesAndUnicodeKeys() throws {
        var entries: [(String, MustacheValue)] = []
        for i in 0..<300 { entries.append(("key\(i)", .int(i))) }
        entries.append(("ключ", "значение"))
        entries.append(("long key with spaces and more than sixteen bytes", "long"))
        let d = MustacheDictionary(entries: entries)
        for i in stride(from: 0, to: 300, by: 7) { #expect(d["key\(i)"]?.scalarText == String(i)) }
        #expect(d["ключ"]?.scalarText == "значение")
        let t = try MustacheTemplate("{{key299}} {{ключ}} {{key0}}")
        #expect(try t.render(.dictionary(d)) == "299 значение 0")
    }

    @Test func nestedValuesSurviveStorage() throws {
        let inner: MustacheValue = ["x": 1.5, "flag": false, "list": [1, 2], "none": nil]
        let v: MustacheValue = ["inner": inner, "n": -42, "big": .int(Int.max)]
        let t = try MustacheTemplate(
            "{{inner.x}} {{^inner.flag}}no{{/inner.flag}} {{#inner.list}}{{.}}{{/inner.list}} [{{inner.none}}] {{n}} {{big}}"
        )
        #expect(try t.render(v) == "1.5 no 12 [] -42 9223372036854775807")
    }

    @Test func concurrentRendersShareACompiledTemplate() throws {
        let t = try MustacheTemplate("{{#items}}<{{name}}:{{n}}>{{/items}} {{title}}")
        let results = ResultBox(count: 64)
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let ctx: MustacheValue = [
                "title": .string("t\(i) & co"),
                "items": .array((0..<20).map { ["name": .string("x\($0)"), "n": .int(i)] }),
            ]
            results.set(i, (try? t.render(ctx)) ?? "error")
        }
        for i in 0..<64 {
            let expected = (0..<20).map { "<x\($0):\(i)>" }.joined() + " t\(i) &amp; co"
            #expect(results.get(i) == expected)
        }
    }
}

final class ResultBox: Sendable {
    private let values: Mutex<[String]>
    init(count: Int) { values = Mutex(Array(repeating: "", count: count)) }
    func set(_ i: Int, _ v: String) { values.withLock { $0[i] = v } }
    func get(_ i: Int) -> String { values.withLock { $0[i] } }
}

@Suite struct JSONObjectTests {
    @Test func largeObjectKeepsOrderAndLaterDuplicatesWinInPlace() throws {
        var text = "{"
        for i in 0..<20_000 { text += "\"k\(i)\": \(i)," }
        text += "\"k5\": \"five\", \"last\": {\"a\": [1, 2], \"a\": \"b\"}}"
        let value = try MustacheValue(json: Array(text.utf8), file: "big.json")
        guard case .dictionary(let d) = value else {
            Issue.record("not a dictionary")
            return
        }
        #expect(d.count == 20_001)
        #expect(d.keys.prefix(3) == ["k0", "k1", "k2"])
        #expect(d.keys[5] == "k5")
        guard case .string("five")? = d["k5"], case .int(19_999)? = d["k19999"] else {
            Issue.record("k5 \(String(describing: d["k5"])), k19999 \(String(describing: d["k19999"]))")
            return
        }
        guard case .dictionary(let last)? = d["last"] else {
            Issue.record("no nested dictionary")
            return
        }
        #expect(last.count == 1)
        guard case .string("b")? = last["a"] else {
            Issue.record("a is \(String(describing: last["a"]))")
            return
        }
    }
}
