/// One `<file>` of an XLIFF document: the strings of one table for one language pair.
public struct XLIFFFile: Sendable, Hashable {
    /// The source file path as Xcode writes it (`en.lproj/Localizable.strings`, `Localizable.xcstrings`).
    public var original: String
    public var sourceLanguage: String
    public var targetLanguage: String
    public var units: [XLIFFUnit]
}
