import Foundation
import TestSupport
import Testing

/// `contacts strings pseudo` on a copy of the shipped localizations, and the templates rendered in it.
@Suite("contacts strings pseudo")
struct StringsPseudoCLITests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/StringsCatalog/Localizations")

    @Test func accentedAndRTLPseudolanguagesRenderTemplates() throws {
        let dir = Scratch.path("pseudo-cli")
        try FileManager.default.copyItem(at: Self.shipped.resolvingSymlinksInPath(), to: dir)
        let made = try CLI.run(["strings", "pseudo", "--dir", dir.path, "--style", "accented"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("en-XA.lproj/invite.strings") && made.stdout.contains("en-XA: "), "\(made.stdout)")
        let r = try CLI.run(["templates", "render", "invite", "--locale", "en-XA", "--strings", dir.path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let m = try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any]
        let subject = m?["subject"] as? String ?? ""
        #expect(subject == "Ada Lovelace îñṽîţéð ýöû ţö Atlas", "\(subject)")
        let get = try CLI.run(["strings", "get", "Cancel", "--dir", dir.path, "--locale", "en-XA"])
        #expect(get.stdout == "Çåñçéļ\n", "\(get.stdout) \(get.stderr)")
        let lint = try CLI.run(["strings", "lint", dir.path, "--quiet"])
        #expect(lint.status == 0, "\(lint.stdout)")
        let rtl = try CLI.run(["strings", "pseudo", "--dir", dir.path, "--style", "rtl"])
        #expect(rtl.status == 0 && rtl.stdout.contains("ar-XB"), "\(rtl.stderr)")
        let ar = try CLI.run(["strings", "get", "Cancel", "--dir", dir.path, "--locale", "ar-XB"])
        #expect(ar.stdout == "\u{200F}\u{202E}Cancel\u{202C}\u{200F}\n", "\(ar.stdout)")
        // A language with translations is refused, nothing written; a bad style is a usage error.
        let refused = try CLI.run(["strings", "pseudo", "--dir", dir.path, "--style", "double", "--into", "de"])
        #expect(refused.status == 1 && refused.stderr.contains("has translations already"), "\(refused.stderr)")
        #expect(try CLI.run(["strings", "pseudo", "--dir", dir.path, "--style", "wavy"]).status == 2)
    }
}
