import Foundation

extension LocalizationFolder {
    static func argumentSignature(_ pattern: String) throws -> [Int: FormatSpecifier.Kind] {
        var sig: [Int: FormatSpecifier.Kind] = [:]
        for (index, spec) in try PrintfFormat.arguments(of: pattern) {
            var kind = spec.kind
            if kind == .unsigned { kind = .signed }  // %d and %u take the same integer
            if kind == .plural { kind = .signed }
            sig[index] = kind
        }
        return sig
    }

    static func describe(_ sig: [Int: FormatSpecifier.Kind]) -> String {
        sig.keys.sorted().map { "\($0 + 1):\(sig[$0]!.rawValue)" }.joined(separator: ", ")
    }

    /// Compares the printf specifiers of a translation with its source.
    static func formatFinding(source: String, translation: String, key: String, file: String, line: Int, column: Int)
        -> Diagnostic?
    {
        let sourceSig = try? argumentSignature(source)
        let sourceHasSpecs = (sourceSig?.isEmpty == false)
        guard sourceHasSpecs || translation.utf8.contains(UInt8(ascii: "%")) else { return nil }
        let tSig: [Int: FormatSpecifier.Kind]
        do { tSig = try argumentSignature(translation) } catch {
            guard sourceHasSpecs else { return nil }
            return Diagnostic(
                file: file, line: line, column: column, severity: .error, code: "format-invalid",
                message: "\"\(key)\": \(error)", key: key)
        }
        guard let sourceSig else { return nil }
        if sourceSig == tSig { return nil }
        let what: String
        if sourceSig.count != tSig.count {
            what = "has \(tSig.count) format arguments, the source has \(sourceSig.count)"
        } else if let i = tSig.keys.sorted().first(where: { tSig[$0] != sourceSig[$0] }),
            let kind = tSig[i], let expected = sourceSig[i],
            (try? PrintfFormat.arguments(of: translation))?.contains(where: { $0.specifier.position != nil }) == true
        {
            // Positions written out: the translation says which argument it means, and types it differently.
            what =
                "format arguments differ in type: argument \(i + 1) is \(kind.rawValue) here but "
                + "\(expected.rawValue) in the source"
        } else if Set(sourceSig.values) == Set(tSig.values) && sourceSig.keys.sorted() == tSig.keys.sorted() {
            what = "format arguments are in a different order (use positional %1$@ forms to reorder)"
        } else {
            what = "format arguments differ in type"
        }
        return Diagnostic(
            file: file, line: line, column: column, severity: .error, code: "format-mismatch",
            message: "\"\(key)\": \(what): source [\(describe(sourceSig))], translation [\(describe(tSig))]",
            key: key)
    }

    static func letters(_ s: String) -> Bool { s.unicodeScalars.contains { $0.properties.isAlphabetic } }
}
