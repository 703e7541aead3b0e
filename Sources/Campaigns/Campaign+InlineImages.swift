import Composer
import Foundation
import Support

extension Campaign {
    /// `html` with each `<img src="FILE">` whose FILE is a relative path turned into `src="cid:…"`, and the
    /// files as inline images (`MailDraft.inlineImages`, Composer): what an HTML or Markdown body
    /// (`![plan](plan.png)`) shows travels with the message. A file must lie inside `folder` (the
    /// template's), symbolic links followed; URLs (`https:`, `data:`, `cid:`) are left as they are. The
    /// same file shown twice is one part.
    static func inlineImages(in html: String, folder: URL) throws -> (html: String, images: [Attachment]) {
        var out = ""
        var images: [Attachment] = []
        var ids: [String: String] = [:]
        var rest = Substring(html)
        while let tag = rest.range(of: "<img", options: .caseInsensitive) {
            out += rest[..<tag.upperBound]
            rest = rest[tag.upperBound...]
            let end = rest.firstIndex(of: ">") ?? rest.endIndex
            guard let src = rest[..<end].range(of: "src=", options: .caseInsensitive),
                let quote = rest[src.upperBound...].first, quote == "\"" || quote == "'",
                let close = rest[rest.index(after: src.upperBound)...].firstIndex(of: quote)
            else { continue }
            let valueStart = rest.index(after: src.upperBound)
            let value = String(rest[valueStart..<close]).replacingOccurrences(of: "&amp;", with: "&")
            let scheme = value.prefix { $0 != ":" && $0 != "/" && $0 != "?" && $0 != "#" }
            guard !value.isEmpty, scheme.count == value.count || value[scheme.endIndex] != ":",
                !value.hasPrefix("/"), !value.hasPrefix("#")
            else { continue }
            let id: String
            if let known = ids[value] {
                id = known
            } else {
                let real: String
                do {
                    real = try ContainedPath.resolve(value, relativeTo: folder.path, inside: [folder.path])
                } catch {
                    throw CampaignError.composer(.io(path: value, message: "<img src>: \(error)"))
                }
                var image = try Attachment(contentsOfFile: real)
                image.filename = URL(fileURLWithPath: value).lastPathComponent
                id = "img\(images.count + 1).\(String(real.fnv1a64, radix: 16))@inline"
                image.contentID = id
                images.append(image)
                ids[value] = id
            }
            out += rest[..<valueStart] + "cid:" + id
            rest = rest[close...]
        }
        return (out + rest, images)
    }
}
