import Foundation

/// Finds a resource that SwiftPM copied for a target of this package, without `Bundle.module` (which traps
/// when the bundle is missing, so that a documented "missing resource" error could never be thrown): the
/// places `Bundle.module` searches, the executable's folder and its parent, every loaded bundle, and finally
/// the source of a development checkout. Shared by every module that ships resources (the sample address
/// book, strings, templates).
package enum ResourceFolder {
    /// `bundle` is the SwiftPM bundle name without extension ("ContactsSelection_Templating"); `folder` the
    /// copied folder or file inside it ("Templates", "sample.vcf"); `source` the same item in the checkout.
    /// Nil when it is nowhere.
    package static func find(bundle: String, folder: String, source: URL) -> URL? {
        let fm = FileManager.default
        var dirs: [URL] = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let exe = Bundle.main.executableURL { dirs.append(exe.deletingLastPathComponent()) }
        if let arg0 = CommandLine.arguments.first {
            let exe = URL(fileURLWithPath: arg0).resolvingSymlinksInPath()
            dirs.append(exe.deletingLastPathComponent())
            dirs.append(exe.deletingLastPathComponent().deletingLastPathComponent())
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
