import CICU

/// Charset conversion through ICU converters (ISO-8859-x, Windows-125x, Shift_JIS, GB18030, Big5, …).
///
/// ```swift
/// try CharsetConverter.toUTF8([0x4A, 0xFC, 0x72], charset: "ISO-8859-1")   // "Jür"
/// ```
public enum CharsetConverter {
    /// Decodes `bytes` in `charset`. With `strict`, an invalid or unmappable sequence throws
    /// `ICUError.invalidBytes` with its offset; otherwise it becomes U+FFFD.
    public static func toUTF8(_ bytes: some Collection<UInt8>, charset: String, strict: Bool = false) throws -> String {
        let input = Array(bytes)
        guard input.count <= Int32.max / 4 else { throw ICUError.invalidArgument("\(input.count) bytes") }
        return try input.withUnsafeBufferPointer { buf in
            try buf.withMemoryRebound(to: CChar.self) { chars in
                var errorOffset: Int32 = -1
                do {
                    return try preflightString("convert from \(charset)", guess: input.count * 3 + 16) { out, cap, st in
                        cicu_convert_to_utf8(
                            charset, chars.baseAddress, Int32(chars.count), strict ? 1 : 0, out, cap, &errorOffset, &st)
                    }
                } catch let ICUError.failure(_, code, _) where code == CICU_INVALID_CHAR_FOUND {
                    throw ICUError.invalidBytes(charset: charset, offset: Int(max(errorOffset, 0)))
                }
            }
        }
    }

    /// Encodes UTF-8 text in `charset`.
    public static func fromUTF8(_ text: String, charset: String) throws -> [UInt8] {
        try withUTF8(text) { p, n in
            var capacity = Int(n) * 4 + 16
            while true {
                var status: Int32 = 0
                var needed: Int32 = 0
                let out = [UInt8](unsafeUninitializedCapacity: capacity) { buf, count in
                    needed = buf.withMemoryRebound(to: CChar.self) {
                        cicu_convert_from_utf8(charset, p, n, $0.baseAddress, Int32(capacity), &status)
                    }
                    count = status > 0 ? 0 : Int(needed)
                }
                if status == CICU_BUFFER_OVERFLOW {
                    capacity = Int(needed)
                    continue
                }
                try ICUError.check(status, "convert to \(charset)")
                return out
            }
        }
    }
}
