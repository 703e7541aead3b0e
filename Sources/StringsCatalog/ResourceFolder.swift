import Foundation

/// Finds a resource folder that SwiftPM copied for a target of this package, without `Bundle.module`
/// (which traps when the bundle is missing): the places `Bundle.module` searches, the executable's folder
/// and its parent, every loaded bundle, and finally the source folder of a development checkout.
/// Shared by the modules that ship resource folders (strings, templates).
package enum ResourceFolder {
    /// `bundle` is the SwiftPM bundle name without extension ("ContactsSelection_Templating"); `folder` the
    /// copied folder inside it ("Templates"); `source` the same folder in the checkout.
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
