import Foundation
import TestSupport
import Testing

/// `make install` as a packager or a user runs it: a clone of the current commit is built (release, once)
/// and installed into a temporary prefix, the clone is removed, and the installed tool must still find its
/// resources, show its manual page and have its completions where the shells look; `make uninstall` then
/// removes exactly what was installed. A second install into a DESTDIR staging folder (no second build)
/// puts the same files under `DESTDIR/usr/local`.
@Suite struct InstallCLITests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every file under `dir`, as paths relative to it, sorted.
    static func files(under dir: URL) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir.path) else { return [] }
        var result: [String] = []
        while let path = e.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent(path).path, isDirectory: &isDir),
                !isDir.boolValue
            {
                result.append(path)
            }
        }
        return result.sorted()
    }

    static var inGitCheckout: Bool {
        (try? runToEnd(["git", "-C", packageRoot.path, "rev-parse", "HEAD"]).status) == 0
    }

    @Test(
        "make install PREFIX=… installs a tool that works without the checkout; make uninstall removes exactly that",
        .enabled(if: inGitCheckout, "not in a git checkout: there is no commit to clone and install"),
        .timeLimit(.minutes(60)))
    func installIntoAPrefix() throws {
        let base = try Scratch.directory("install")
        defer { try? FileManager.default.removeItem(at: base) }
        let clone = base.appendingPathComponent("clone")
        let prefix = base.appendingPathComponent("prefix")
        let head = try runToEnd(["git", "-C", Self.packageRoot.path, "rev-parse", "HEAD"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let cloned = try runToEnd(["git", "clone", "--quiet", "--no-checkout", Self.packageRoot.path, clone.path])
        try #require(cloned.status == 0, "git clone: \(cloned.output)")
        let checkout = try runToEnd(["git", "-C", clone.path, "checkout", "--quiet", head])
        try #require(checkout.status == 0, "git checkout \(head): \(checkout.output)")

        // Something of the user's own in the prefix, which uninstall must leave alone.
        let own = prefix.appendingPathComponent("share/man/man1/other.1")
        try FileManager.default.createDirectory(at: own.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "keep me\n".write(to: own, atomically: true, encoding: .utf8)

        let install = try runToEnd(["make", "--no-print-directory", "install", "PREFIX=\(prefix.path)"], in: clone)
        try #require(install.status == 0, "make install: \(install.output.suffix(4000))")
        // A packager's staged install (DESTDIR, the default PREFIX): the same files under stage/usr/local, no
        // second build; the staged binary finds its resources relative to itself.
        let stage = base.appendingPathComponent("stage")
        let staged = try runToEnd(["make", "--no-print-directory", "install", "DESTDIR=\(stage.path)"], in: clone)
        try #require(staged.status == 0, "make install DESTDIR=…: \(staged.output.suffix(4000))")
        let stagedRoot = stage.appendingPathComponent("usr/local")
        #expect(Self.files(under: stage).allSatisfy { $0.hasPrefix("usr/local/") }, "\(Self.files(under: stage))")
        #expect(Self.files(under: stagedRoot) == Self.files(under: prefix).filter { $0 != "share/man/man1/other.1" })
        let stagedList = try runToEnd([stagedRoot.appendingPathComponent("bin/contacts").path, "templates", "list"])
        #expect(stagedList.status == 0 && stagedList.output.contains("invite"), "staged: \(stagedList.output)")
        let unstaged = try runToEnd(["make", "--no-print-directory", "uninstall", "DESTDIR=\(stage.path)"], in: clone)
        #expect(
            unstaged.status == 0 && Self.files(under: stage).isEmpty, "\(unstaged.output) \(Self.files(under: stage))")

        // Uninstalling needs nothing of the checkout but its Makefile.
        let makefile = base.appendingPathComponent("Makefile")
        try FileManager.default.copyItem(at: clone.appendingPathComponent("Makefile"), to: makefile)
        try FileManager.default.removeItem(at: clone)

        let installed = Self.files(under: prefix)
        for path in [
            "bin/contacts", "share/man/man1/contacts.1", "share/bash-completion/completions/contacts",
            "share/zsh/site-functions/_contacts", "share/fish/vendor_completions.d/contacts.fish",
            "share/contacts/ContactsSelection_ContactsCore.resources/sample.vcf",
            "share/contacts/ContactsSelection_Templating.resources/Templates/invite/subject.mustache",
            "share/contacts/ContactsSelection_StringsCatalog.resources/Localizations/de.lproj/Localizable.strings",
        ] {
            #expect(installed.contains(path), "not installed: \(path) (installed: \(installed.prefix(20)))")
        }

        // The installed tool, with the checkout gone: the sample, the templates and the strings are found.
        let tool = prefix.appendingPathComponent("bin/contacts").path
        let demoOut = base.appendingPathComponent("demo")
        let demo = try runToEnd([tool, "demo", "--deterministic", "--out", demoOut.path], in: base)
        #expect(demo.status == 0, "installed contacts demo: \(demo.output.suffix(3000))")
        #expect(demo.output.contains("Sample address book:"), "\(demo.output.prefix(2000))")
        #expect(demo.output.contains("Auswählen"), "German literals from the installed localizations")
        let onPath = try runToEnd(
            ["contacts", "templates", "list"], in: base,
            environment: ["PATH": prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin"])
        #expect(onPath.status == 0 && onPath.output.contains("invite"), "contacts from PATH: \(onPath.output)")

        let man = try runToEnd(
            ["man", "-l", prefix.appendingPathComponent("share/man/man1/contacts.1").path], in: base,
            environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"])
        #expect(man.status == 0, "man -l: \(man.output.prefix(2000))")
        for text in ["contacts compose", "contacts vcard inspect", "--template", "Examples:"] {
            #expect(man.output.contains(text), "man page lacks '\(text)':\n\(man.output.prefix(3000))")
        }
        let bash = try String(
            contentsOf: prefix.appendingPathComponent("share/bash-completion/completions/contacts"), encoding: .utf8)
        #expect(bash.contains("complete") && bash.contains("compose"))

        let uninstall = try runToEnd(
            ["make", "--no-print-directory", "-f", makefile.path, "uninstall", "PREFIX=\(prefix.path)"], in: base)
        #expect(uninstall.status == 0, "make uninstall: \(uninstall.output)")
        #expect(
            Self.files(under: prefix) == ["share/man/man1/other.1"],
            "left after uninstall: \(Self.files(under: prefix))")
    }
}
