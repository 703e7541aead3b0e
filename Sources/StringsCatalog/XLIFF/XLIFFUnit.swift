/// One translation unit of an XLIFF 1.2 file.
public struct XLIFFUnit: Sendable, Hashable {
    /// Xcode's id: the key for `.strings`; `/key:dict/var:dict/one:dict/:string` for `.stringsdict`;
    /// `key|==|plural.one`, `key|==|device.mac`, `key|==|substitutions.name.plural.one` for catalogs.
    public var id: String
    public var source: String
    public var target: String?
    /// XLIFF `state` of the target (`translated`, `new`, `needs-review-translation`).
    public var state: String?
    public var note: String?
}
