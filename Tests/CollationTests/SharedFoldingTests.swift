import Collation
import Foundation
import TestSupport
import Testing

/// One `SearchFolding` shared by many threads (its transliterators and word cache behind one lock) must
/// give every thread what a folding of its own gives one thread.
@Suite("Search folding under concurrent use")
struct SharedFoldingTests {
    static let names: [String] = {
        let given = [
            "Hélène", "Борис", "Αλέξανδρος", "Łukasz", "Zoë", "Søren", "Ａｎｎａ", "Ἀθηνᾶ", "Олена", "Ольга", "Mehmet",
            "Çağla", "יעל", "محمد", "Nguyễn", "이상일", "山田", "Straße",
        ]
        let family = ["Dupont", "Иванов", "Παπαδόπουλος", "Żółć", "Ørsted", "Åberg", "Kowalski", "Öztürk", "Коваленко"]
        let han = ["张伟", "单雄", "李娜", "王芳", "刘洋", "陈静"]
        var names: [String] = []
        for (i, g) in given.enumerated() {
            for (j, f) in family.enumerated() { names.append(i % 2 == 0 ? "\(g) \(f)" : "\(f) \(g)\(j)") }
        }
        return names + han
    }()

    @Test func keysFromManyThreadsMatchOneThread() throws {
        let own = try SearchFolding()
        let expected = Self.names.map { (own.keys(for: $0), own.fold($0)) }
        let shared = try SearchFolding()
        let names = Self.names
        let results = try concurrently(workers: 8) { worker in
            names.indices.map { step in
                let i = (step + worker * 17) % names.count
                return (i, shared.keys(for: names[i]), shared.fold(names[i]))
            }
        }
        for (worker, got) in results.enumerated() {
            let wrong = got.filter { expected[$0.0].0 != $0.1 || expected[$0.0].1 != $0.2 }.map { names[$0.0] }
            #expect(wrong.isEmpty, "worker \(worker): \(wrong.prefix(5))")
        }
        // The keys are real transliterations, not empty strings that would agree anyway.
        #expect(shared.fold("Борис Иванов") == "boris ivanov")
        #expect(shared.keys(for: "张伟").initials == "zw")
    }
}
