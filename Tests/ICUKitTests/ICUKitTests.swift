import ICUKit
import Testing

@Suite struct ICUKitTests {
    @Test func version() { #expect(icuVersion.hasPrefix("7")) }

    @Test func pluralRules() throws {
        let ru = try PluralRules(locale: "ru")
        #expect(ru.category(for: 1) == .one)
        #expect(ru.category(for: 3) == .few)
        #expect(ru.category(for: 5) == .many)
        #expect(ru.category(for: 21) == .one)
        #expect(ru.categories == [.one, .few, .many, .other])
        let en = try PluralRules(locale: "en")
        #expect(en.category(for: 1) == .one)
        #expect(en.category(for: 1, fractionDigits: 1) == .other)
        let ar = try PluralRules(locale: "ar")
        #expect(ar.categories == [.zero, .one, .two, .few, .many, .other])
        #expect(ar.category(for: 0) == .zero)
        #expect(try PluralRules(locale: "ja").categories == [.other])
        let ordinal = try PluralRules(locale: "en", kind: .ordinal)
        #expect(ordinal.category(for: 2) == .two)
        #expect(ordinal.category(for: 3) == .few)
    }

    @Test func listFormatting() throws {
        #expect(try ICUFormat.list(["Alice", "Bob", "Carol"], locale: "en") == "Alice, Bob, and Carol")
        #expect(try ICUFormat.list(["Alice", "Bob", "Carol"], locale: "de") == "Alice, Bob und Carol")
        #expect(try ICUFormat.list(["Alice", "Bob", "Carol"], locale: "zh-Hans") == "Alice、Bob和Carol")
        #expect(try ICUFormat.list(["A", "B"], locale: "en", type: .or) == "A or B")
        #expect(try ICUFormat.list([], locale: "en") == "")
    }

    @Test func numbersAndDates() throws {
        #expect(try ICUFormat.number(1234.5, locale: "en") == "1,234.5")
        #expect(try ICUFormat.number(1234.5, locale: "de", skeleton: "currency/EUR") == "1.234,50\u{a0}€")
        #expect(try ICUFormat.number(decimal: "0.25", locale: "en", skeleton: "percent scale/100") == "25%")
        #expect(throws: ICUError.self) { try ICUFormat.number(1, locale: "en", skeleton: "nonsense/skeleton") }
        let d = try ICUFormat.date(millisecondsSince1970: 0, locale: "en", timeZone: "UTC", dateStyle: .long)
        #expect(d == "January 1, 1970")
        #expect(try ICUFormat.date(millisecondsSince1970: 0, locale: "de", timeZone: "UTC", skeleton: "yMMMd") == "1. Jan. 1970")
    }

    @Test func messageFormatNamedArguments() throws {
        let m = try MessageFormat("{count, plural, one {# guest} other {# guests}} for {name}", locale: "en")
        #expect(m.argumentNames == ["count", "name"])
        #expect(try m.format(["count": .int(1), "name": .string("Ana")]) == "1 guest for Ana")
        #expect(try m.format(["count": .int(3), "name": .string("Ana")]) == "3 guests for Ana")
        let ru = try MessageFormat("{n, plural, one {# гость} few {# гостя} many {# гостей} other {# гостя}}", locale: "ru")
        #expect(try ru.format(["n": .int(22)]) == "22 гостя")
        let sel = try MessageFormat("{g, select, female {her} male {his} other {their}}", locale: "en")
        #expect(try sel.format(["g": .string("female")]) == "her")
        #expect(throws: ICUError.self) { try MessageFormat("{count, plural, one {x}", locale: "en") }
        do {
            _ = try MessageFormat("line one\n{broken, plural,", locale: "en")
            Issue.record("expected a syntax error")
        } catch let ICUError.syntax(_, line, _, _, _) {
            #expect(line == 2)
        }
    }

    @Test func converters() throws {
        #expect(try CharsetConverter.toUTF8([0x4A, 0xFC, 0x72], charset: "ISO-8859-1") == "Jür")
        #expect(try CharsetConverter.toUTF8([0x93, 0xFA, 0x96, 0x7B], charset: "Shift_JIS") == "日本")
        #expect(try CharsetConverter.toUTF8([0x80], charset: "windows-1252") == "€")
        #expect(try CharsetConverter.fromUTF8("日本", charset: "GB18030") == [0xC8, 0xD5, 0xB1, 0xBE])
        #expect(throws: ICUError.invalidBytes(charset: "UTF-8", offset: 1)) {
            try CharsetConverter.toUTF8([0x41, 0xFF, 0x42], charset: "UTF-8", strict: true)
        }
        #expect(try CharsetConverter.toUTF8([0x41, 0xFF, 0x42], charset: "UTF-8") == "A\u{FFFD}B")
        #expect(throws: ICUError.self) { try CharsetConverter.toUTF8([0x41], charset: "no-such-charset") }
    }

    @Test func locales() {
        #expect(ICULocale.addLikelySubtags("zh-HK") == "zh-Hant-HK")
        #expect(ICULocale.addLikelySubtags("zh-SG") == "zh-Hans-SG")
        #expect(ICULocale.minimizeSubtags("zh-Hans-CN") == "zh")
        #expect(ICULocale.canonicalTag("zh_CN") == "zh-CN")
        #expect(ICULocale.isRightToLeft("ar"))
        #expect(ICULocale.isRightToLeft("he"))
        #expect(!ICULocale.isRightToLeft("en"))
    }

    @Test func transliterators() throws {
        let t = try Transliterator(id: "Any-Latin; Latin-ASCII; Any-Lower")
        #expect(try t.transform("Борис") == "boris")
        #expect(throws: ICUError.self) { try Transliterator(id: "No-Such-Transform") }
        let custom = try Transliterator(id: "x-custom", rules: "a > b;")
        #expect(try custom.transform("banana") == "bbnbnb")
        #expect(throws: ICUError.self) { try Transliterator(id: "bad", rules: "a > ;;; [") }
    }

    @Test func alphabeticIndex() throws {
        let idx = try AlphabeticIndex(locale: "sv", addingLabelsFrom: ["en"])
        #expect(idx.labelTypes.first == .underflow)
        #expect(idx.labelTypes.last == .overflow)
        #expect(idx.labels[idx.bucket(of: "Örjan")] == "Ö")
        let collator = try Collator(locale: "sv")
        #expect(collator.compare("Ö", "Z") == 1)
        #expect(try collator.sortKey("a").last != 0)
    }
}
