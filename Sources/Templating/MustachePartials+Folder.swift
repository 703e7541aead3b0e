import Foundation

extension MustachePartials {
    /// The partials of a folder: `{{> name}}` reads `folder/name.mustache` (each compiled once, named by its
    /// path in errors). A folder that is not there is ``TemplatingError/noPartialsFolder(_:)``, a file that
    /// is not UTF-8 ``TemplatingError/notUTF8(path:)``.
    ///
    /// ```swift
    /// let partials = try MustachePartials(folder: "partials")
    /// ```
    public init(folder: String) throws {
        self.init()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
            throw TemplatingError.noPartialsFolder(folder)
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for file in files.sorted() where file.hasSuffix(".mustache") {
            let path = URL(fileURLWithPath: folder).appendingPathComponent(file).path
            guard let data = FileManager.default.contents(atPath: path),
                let text = String(data: data, encoding: .utf8)
            else { throw TemplatingError.notUTF8(path: path) }
            self[String(file.dropLast(".mustache".count))] = try MustacheTemplate(text, name: path)
        }
    }
}
