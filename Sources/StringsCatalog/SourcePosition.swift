import Support

/// Line and column of a byte in a UTF-8 document: the one rule of the package (`TextPosition`), under the
/// name the catalog's readers use.
typealias SourcePosition = TextPosition
