import Foundation
import Support

extension MergeUndo {
    /// The undo record as JSON: `{"format": "contacts-merge-undo/1", "source": {"kind": "file"|"vdir",
    /// "path"}, "kept", "merged": [id], "files": [{"name", "afterHash", "hunks": [{"offset", "afterCount",
    /// "before" (base64)}]}]}`.
    public func json() -> String {
        func number(_ n: Int) -> JSONValue { .number(String(n)) }
        let kind: String
        let path: String
        switch source {
        case .file(let p): (kind, path) = ("file", p)
        case .vdir(let p): (kind, path) = ("vdir", p)
        case .standardInput: (kind, path) = ("file", "-")
        }
        let value = JSONValue.object([
            JSONMember(key: "format", value: .string(Self.format)),
            JSONMember(
                key: "source",
                value: .object([
                    JSONMember(key: "kind", value: .string(kind)), JSONMember(key: "path", value: .string(path)),
                ])),
            JSONMember(key: "kept", value: .string(kept)),
            JSONMember(key: "merged", value: .array(merged.map { .string($0) })),
            JSONMember(
                key: "files",
                value: .array(
                    files.map { change in
                        .object([
                            JSONMember(key: "name", value: .string(change.name)),
                            JSONMember(key: "afterHash", value: change.afterHash.map { .string($0) } ?? .null),
                            JSONMember(
                                key: "hunks",
                                value: .array(
                                    change.hunks.map { hunk in
                                        .object([
                                            JSONMember(key: "offset", value: number(hunk.offset)),
                                            JSONMember(key: "afterCount", value: number(hunk.afterCount)),
                                            JSONMember(
                                                key: "before", value: .string(Data(hunk.before).base64EncodedString())),
                                        ])
                                    })),
                        ])
                    })),
        ])
        return JSONText.written(value) + "\n"
    }

    /// The `format` of the JSON: what reads it checks.
    static let format = "contacts-merge-undo/1"

    /// Reads an undo record written by ``json()``; `file` names it in errors.
    public init(json bytes: [UInt8], file: String) throws {
        func bad(_ message: String) -> ContactsCoreError {
            .invalidEdit(field: file, message: message + " (expected an undo file written by contacts merge)")
        }
        var reader = JSONReader(bytes, file: file, keepRawText: false)
        let document: JSONValue
        do { document = try reader.document() } catch {
            throw bad("line \(error.line), column \(error.column): \(error.message)")
        }
        guard document["format"]?.stringValue == Self.format else { throw bad("no format \(Self.format)") }
        guard let kind = document["source"]?["kind"]?.stringValue, let path = document["source"]?["path"]?.stringValue,
            kind == "file" || kind == "vdir", path != "-"
        else { throw bad("no source") }
        guard let kept = document["kept"]?.stringValue, case .array(let mergedValues)? = document["merged"],
            case .array(let fileValues)? = document["files"]
        else { throw bad("no kept, merged or files") }
        var files: [FileChange] = []
        for value in fileValues {
            guard let name = value["name"]?.stringValue, MergeUndo.safeName(name),
                case .array(let hunkValues)? = value["hunks"]
            else { throw bad("a file without a safe name or hunks") }
            var hunks: [Hunk] = []
            for h in hunkValues {
                guard let offset = h["offset"]?.intValue, let count = h["afterCount"]?.intValue, offset >= 0,
                    count >= 0,
                    let text = h["before"]?.stringValue, let before = Data(base64Encoded: text)
                else { throw bad("a bad hunk in \(name)") }
                hunks.append(Hunk(offset: offset, afterCount: count, before: [UInt8](before)))
            }
            files.append(FileChange(name: name, afterHash: value["afterHash"]?.stringValue, hunks: hunks))
        }
        self.init(
            source: kind == "vdir" ? .vdir(path) : .file(path), kept: kept,
            merged: mergedValues.compactMap(\.stringValue), files: files)
    }

    /// Reads the undo file at `path` (``init(json:file:)``).
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ContactsCoreError.cannotRead(path: path, reason: "No such file or cannot be read")
        }
        try self.init(json: [UInt8](data), file: path)
    }

    /// The name an undo file gets when none is given: `contacts-merge-<kept id>-<UTC time>.undo.json`, the
    /// id made safe for a file name.
    public static func defaultFileName(kept: String, date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss"
        return SafeFileName.make(
            "contacts-merge-\(kept.prefix(40))-\(formatter.string(from: date))", suffix: ".undo.json")
    }
}
