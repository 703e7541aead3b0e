/// How a text message is encoded and split into SMS segments (GSM 03.38 / 3GPP TS 23.038).
///
/// GSM-7 when every character is in the default alphabet or its extension table (extension characters
/// cost two septets), else UCS-2 (UTF-16 code units). One segment holds 160 septets / 70 units; when more
/// are needed each segment loses 6 octets to the user data header: 153 septets / 67 units. A grapheme
/// cluster (an emoji sequence, an escape pair) is never split across segments.
///
/// ```swift
/// let info = SMSSegments.count("Grüße aus Zürich")   // ü and ß are in GSM-7
/// info.encoding   // .gsm7
/// info.segments   // 1
/// ```
public struct SMSSegments: Sendable, Equatable {
    public enum Encoding: String, Sendable {
        case gsm7 = "GSM-7"
        case ucs2 = "UCS-2"
    }

    public var encoding: Encoding
    public var segments: Int
    /// Payload size in bits (septets × 7 or code units × 16).
    public var messageBits: Int
    /// Bits on the air: payload plus a 48-bit user data header per segment when there are several.
    public var totalBits: Int
    /// Septets (GSM-7) or UTF-16 code units (UCS-2).
    public var units: Int

    /// Counts `body`.
    public static func count(_ body: String) -> SMSSegments {
        let gsm = body.unicodeScalars.allSatisfy { GSM7.septets($0) != nil }
        let unitBits = gsm ? 7 : 16
        var units = 0
        var segments = 1
        var inSegment = 0
        var sizes: [Int] = []
        sizes.reserveCapacity(body.utf8.count)
        for character in body {
            var size = 0
            for scalar in character.unicodeScalars {
                size += gsm ? (GSM7.septets(scalar) ?? 2) : (scalar.value > 0xFFFF ? 2 : 1)
            }
            sizes.append(size)
            units += size
        }
        let single = gsm ? 160 : 70
        if units > single {
            let capacity = gsm ? 153 : 67
            for size in sizes {
                if inSegment + size > capacity && inSegment > 0 {
                    segments += 1
                    inSegment = 0
                }
                inSegment += size
            }
        }
        let bits = units * unitBits
        return SMSSegments(
            encoding: gsm ? .gsm7 : .ucs2, segments: segments, messageBits: bits,
            totalBits: segments > 1 ? bits + 48 * segments : bits, units: units)
    }
}

/// The GSM 03.38 default alphabet and extension table.
enum GSM7 {
    static let basic: Set<UInt32> = Set(
        ("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§"
            + "¿abcdefghijklmnopqrstuvwxyzäöñüà").unicodeScalars.map(\.value))
    static let extended: Set<UInt32> = Set("\u{0C}^{}\\[~]|€".unicodeScalars.map(\.value))

    /// 1 for the default alphabet, 2 for the extension table (escape + code), nil if not GSM-7.
    @inline(__always) static func septets(_ s: Unicode.Scalar) -> Int? {
        if basic.contains(s.value) { return 1 }
        if extended.contains(s.value) { return 2 }
        return nil
    }
}

extension MessageDraft {
    /// How the body travels as SMS: encoding and number of segments.
    ///
    /// ```swift
    /// MessageDraft(recipients: ["+15555550123"], body: "Grüße 🎉").segments.encoding   // .ucs2
    /// ```
    public var segments: SMSSegments { SMSSegments.count(body) }
}
