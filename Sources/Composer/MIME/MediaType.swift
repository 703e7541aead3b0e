/// The media type of an attachment, from its content first (the signatures of common formats) and its
/// file name's extension second: a PDF named `.txt` is sent as `application/pdf`; ZIP-based documents
/// (`.docx`, `.odt`, `.epub`, …) and text formats are told apart by their extension.
///
/// ```swift
/// MediaType.guess(Array("%PDF-1.7\n".utf8), filename: "Plan.txt")   // "application/pdf"
/// MediaType.guess(Array("BEGIN:VCARD\r\n".utf8), filename: "ada.vcf")  // "text/vcard"
/// ```
public enum MediaType {
    /// Signatures at the start of a file, most specific first.
    static let signatures: [(bytes: [UInt8], type: String)] = [
        (Array("%PDF-".utf8), "application/pdf"),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image/png"),
        ([0xFF, 0xD8, 0xFF], "image/jpeg"),
        (Array("GIF87a".utf8), "image/gif"),
        (Array("GIF89a".utf8), "image/gif"),
        ([0x1F, 0x8B], "application/gzip"),
        (Array("BEGIN:VCARD".utf8), "text/vcard"),
        (Array("BEGIN:VCALENDAR".utf8), "text/calendar"),
        ([0x25, 0x21, 0x50, 0x53], "application/postscript"),
        ([0x7B, 0x5C, 0x72, 0x74, 0x66], "application/rtf"),
        ([0x4F, 0x67, 0x67, 0x53], "audio/ogg"),
        ([0x49, 0x44, 0x33], "audio/mpeg"),
        (Array("fLaC".utf8), "audio/flac"),
        ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "application/x-7z-compressed"),
    ]

    /// Types by lowercased extension: what content alone cannot tell (ZIP containers, text formats).
    static let extensions: [String: String] = [
        "pdf": "application/pdf", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml", "heic": "image/heic",
        "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "tsv": "text/tab-separated-values",
        "html": "text/html", "htm": "text/html", "ics": "text/calendar", "vcf": "text/vcard",
        "json": "application/json", "xml": "application/xml", "zip": "application/zip",
        "gz": "application/gzip", "7z": "application/x-7z-compressed", "rtf": "application/rtf",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text",
        "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "odp": "application/vnd.oasis.opendocument.presentation", "epub": "application/epub+zip",
        "doc": "application/msword", "xls": "application/vnd.ms-excel", "mp3": "audio/mpeg",
        "ogg": "audio/ogg", "flac": "audio/flac", "mp4": "video/mp4", "mov": "video/quicktime",
    ]

    /// The media type of `data` named `filename`: a recognised signature wins (a ZIP, RIFF or ISO media
    /// file defers to a matching extension), then the extension, then `text/plain` for UTF-8 text without
    /// control characters, else `application/octet-stream`.
    public static func guess<Bytes: RandomAccessCollection<UInt8>>(_ data: Bytes, filename: String) -> String
    where Bytes.Index == Int {
        let ext = filename.lastIndex(of: ".").map { filename[filename.index(after: $0)...].lowercased() }
        let byExtension = ext.flatMap { extensions[$0] }
        for s in signatures where data.starts(with: s.bytes) { return s.type }
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            // ZIP: Office, OpenDocument and EPUB files are ZIP archives.
            return byExtension.map { $0.hasPrefix("application/") ? $0 : "application/zip" } ?? "application/zip"
        }
        if data.count >= 12, data.starts(with: Array("RIFF".utf8)) {
            let kind = String(decoding: data[8..<12], as: UTF8.self)
            if kind == "WEBP" { return "image/webp" }
            if kind == "WAVE" { return "audio/wav" }
        }
        if data.count >= 12, String(decoding: data[4..<8], as: UTF8.self) == "ftyp" {
            let brand = String(decoding: data[8..<12], as: UTF8.self)
            if brand.hasPrefix("heic") || brand.hasPrefix("heix") || brand.hasPrefix("mif1") { return "image/heic" }
            return byExtension.map { $0.hasPrefix("video/") || $0.hasPrefix("audio/") ? $0 : "video/mp4" }
                ?? "video/mp4"
        }
        if let byExtension { return byExtension }
        let isText =
            String(validating: data, as: UTF8.self) != nil
            && !data.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C }
        return isText ? "text/plain" : "application/octet-stream"
    }

    /// How an attachment of `mediaType` with `data` is labelled in its `Content-Type`: a `text/…` type
    /// gets `charset=utf-8` when the bytes are valid UTF-8 (RFC 2046 §4.1.2: without it a reader assumes
    /// US-ASCII; RFC 7763 requires it for Markdown). Text in another, unknown encoding is sent as
    /// `application/octet-stream` without a charset, as mutt does when it cannot tell the charset: its
    /// bytes arrive unchanged and no reader shows them as the wrong characters. Other types are as given.
    ///
    /// ```swift
    /// MediaType.label("text/csv", data: Array("Zoë;1\n".utf8))   // ("text/csv", "utf-8")
    /// MediaType.label("text/plain", data: [0x5A, 0x6F, 0xEB])     // ("application/octet-stream", nil)
    /// ```
    public static func label(_ mediaType: String, data: some Collection<UInt8>) -> (type: String, charset: String?) {
        guard mediaType.lowercased().hasPrefix("text/") else { return (mediaType, nil) }
        return String(validating: data, as: UTF8.self) != nil ? (mediaType, "utf-8") : ("application/octet-stream", nil)
    }
}
