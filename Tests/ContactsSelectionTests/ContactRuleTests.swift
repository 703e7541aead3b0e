import ContactsCore
import ContactsSelection
import Testing

@Suite struct ContactRuleTests {
    func card(_ configure: (inout Contact) -> Void) -> Contact {
        var c = Contact(id: "x")
        configure(&c)
        return c
    }

    @Test func hasTermsTestTheirFields() throws {
        let empty = Contact(id: "x")
        for field in ContactRule.Field.allCases {
            let rule = try ContactRule("has:\(field.rawValue)")
            #expect(!rule.accepts(empty), "\(field)")
            #expect(try ContactRule("!has:\(field.rawValue)").accepts(empty))
        }
        #expect(try ContactRule("has:email").accepts(card { $0.emails = [LabeledValue(value: "a@b.c")] }))
        #expect(try ContactRule("has:phone").accepts(card { $0.phones = [LabeledValue(value: "+1 415 555 0100")] }))
        #expect(try ContactRule("has:birthday").accepts(card { $0.birthday = ContactDate(month: 5, day: 1) }))
        #expect(try ContactRule("has:nickname").accepts(card { $0.nickname = "Bob" }))
        #expect(try ContactRule("has:org").accepts(card { $0.organization = "Acme" }))
    }

    @Test func groupAndLanguageTermsAndCommasJoin() throws {
        let worker = card {
            $0.categories = ["Work", "Friends"]
            $0.languages = ["de-CH"]
            $0.emails = [LabeledValue(value: "a@b.c")]
        }
        #expect(try ContactRule("group:work").accepts(worker))
        #expect(try !ContactRule("!group:Work").accepts(worker))
        #expect(try ContactRule("lang:de").accepts(worker))
        #expect(try !ContactRule("lang:d").accepts(worker))
        #expect(try ContactRule("has:email,group:Friends,lang:de_CH").accepts(worker))
        #expect(try !ContactRule("has:email,!group:Friends").accepts(worker))
    }

    @Test func badRulesNameTheColumnAndWhatWasExpected() {
        #expect(throws: ContactRule.ParseError.self) { try ContactRule("") }
        do {
            _ = try ContactRule("has:photo,has:fax")
            Issue.record("accepted has:fax")
        } catch let error as ContactRule.ParseError {
            #expect(error.column == 11)
            #expect(
                error.description == "column 11: has: expected photo, email, phone, birthday, nickname, org, got 'fax'")
        } catch { Issue.record("\(error)") }
        do {
            _ = try ContactRule("has:photo,,group:")
            Issue.record("accepted an empty term")
        } catch let error as ContactRule.ParseError {
            #expect(error.column == 11)
        } catch { Issue.record("\(error)") }
        #expect(throws: ContactRule.ParseError.self) { try ContactRule("group:") }
        #expect(throws: ContactRule.ParseError.self) { try ContactRule("photo") }
    }

    @Test func theRuleDisablesRowsOfTheList() throws {
        let source = try ContactsDataSource(
            contacts: [
                card {
                    $0.id = "a"
                    $0.givenName = "Ann"
                    $0.phones = [LabeledValue(value: "+1 415 555 0100")]
                    $0.categories = ["Work"]
                },
                card {
                    $0.id = "b"
                    $0.givenName = "Bob"
                    $0.phones = [LabeledValue(value: "+1 415 555 0101")]
                },
            ],
            configuration: {
                var config = Configuration()
                config.contactEnabledValidation = try ContactRule("!group:Work").validation
                return config
            }())
        #expect(source.row(id: "a")?.enabled == false)
        #expect(source.row(id: "b")?.enabled == true)
    }
}
