import Foundation

/// Finds a resource that SwiftPM copied for a target of this package, without `Bundle.module` (which traps
/// when the bundle is missing, so that a documented "missing resource" error could never be thrown): the
/// places `Bundle.module` searches, the executable's folder and its parent, `share/contacts` beside the
/// executable's `bin` folder (where `make install` puts them: `<prefix>/bin/contacts` finds
/// `<prefix>/share/contacts/<bundle>.resources`), every loaded bundle, and finally the source of a
/// development checkout. Shared by every module that ships resources (the sample address
/// book, strings, templates).
package enum ResourceFolder {
    /// `bundle` is the SwiftPM bundle name without extension ("ContactsSelection_Templating"); `folder` the
    /// copied folder or file inside it ("Templates", "sample.vcf"); `source` the same item in the checkout.
    /// Nil when it is nowhere.
    package static func find(bundle: String, folder: String, source: URL) -> URL? {
        let fm = FileManager.default
        var dirs: [URL] = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let exe = Bundle.main.executableURL { dirs.append(exe.deletingLastPathComponent()) }
        var executables: [URL] = []
        // The running program itself (a copy or a link on PATH is found where it really is).
        if let path = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            executables.append(URL(fileURLWithPath: path))
        }
        if let arg0 = CommandLine.arguments.first, arg0.contains("/") {
            executables.append(URL(fileURLWithPath: arg0).resolvingSymlinksInPath())
        }
        for exe in executables {
            let bin = exe.deletingLastPathComponent()
            dirs.append(bin)
            dirs.append(bin.deletingLastPathComponent())
            dirs.append(bin.deletingLastPathComponent().appendingPathComponent("share/contacts"))
        }
        dirs += Bundle.allBundles.map(\.bundleURL)
        for dir in dirs {
            for name in [bundle + ".resources", bundle + ".bundle"] {
                for sub in [folder, "Contents/Resources/" + folder] {
                    let url = dir.appendingPathComponent(name).appendingPathComponent(sub)
                    if fm.fileExists(atPath: url.path) { return url }
                }
            }
        }
        return fm.fileExists(atPath: source.path) ? source : nil
    }
}
