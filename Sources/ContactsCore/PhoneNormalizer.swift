import CPhoneNumber
import Support
import Synchronization

/// E.164 forms of many phone numbers, fast and exactly as libphonenumber gives them
/// (`PhoneNumber.parse(raw, region:).e164`).
///
/// Three things make it fast: numbers already written in international form ("+44 20 7946 0958") are
/// normalized without libphonenumber wherever its metadata shows that parsing cannot change them (see
/// ``fastE164(_:)``); every other number goes through a libphonenumber call that only parses and checks the
/// length (no validity, type or national formats); and a batch parses each distinct (text, region) once,
/// spread over the cores.
///
/// ```swift
/// let normalizer = PhoneNormalizer.shared
/// normalizer.e164("+1 (415) 555-0100", region: "DE")        // "+14155550100" (no libphonenumber call)
/// normalizer.e164("030 1234567", region: "DE")              // "+49301234567" (libphonenumber)
/// normalizer.e164(["+33 1 99 00 12 34", "(415) 555-0100"], region: "US")
/// ```
public final class PhoneNormalizer: Sendable {
    /// The normalizer over libphonenumber's built-in metadata (read once).
    public static let shared = PhoneNormalizer()

    /// What the fast path needs of one calling code (the metadata of its main region).
    struct CallingCode: Sendable {
        /// Bit n: a national significant number of n digits is possible.
        var possibleLengths: UInt32
        /// nil: the national prefix for parsing is a pattern (asked through the bridge); empty: there is none.
        var nationalPrefix: [UInt8]?
    }

    /// Indexed by calling code (1…999).
    private let codes: [CallingCode?]
    /// Results of single lookups, by region then text (bounded: cleared when it grows past `cacheLimit`).
    private let cache = Mutex<(entries: [String: [String: String?]], count: Int)>(([:], 0))
    private let cacheLimit = 65_536
    /// Calling code (negative for the international prefix of its main region) and first digits of a
    /// national number → whether the prefix pattern may match there (see `mayMatch(key:_:ask:)`).
    private let prefixCache = Mutex<[Int: Bool]>([:])
    /// Region → its calling code when it is the code's main region, else 0.
    private let regionCodes = Mutex<[String: Int]>([:])

    public init() {
        var table = [CallingCode?](repeating: nil, count: 1000)
        let count = cphone_calling_codes(nil, 0)
        var infos = [cphone_calling_code](repeating: cphone_calling_code(), count: Int(max(count, 0)))
        // C bridge: the table is filled through a (pointer, count) pair.
        let filled = infos.withUnsafeMutableBufferPointer { cphone_calling_codes($0.baseAddress, Int32($0.count)) }
        for info in infos.prefix(Int(min(filled, count))) where (1..<1000).contains(info.country_code) {
            let prefix: [UInt8]?
            switch info.national_prefix_kind {
            case Int32(CPHONE_PREFIX_NONE): prefix = []
            case Int32(CPHONE_PREFIX_LITERAL):
                // C bridge: a fixed char array of the C struct, read-only.
                prefix = withUnsafeBytes(of: info.national_prefix) { Array($0.prefix { $0 != 0 }) }
            default: prefix = nil
            }
            table[Int(info.country_code)] = CallingCode(possibleLengths: info.possible_lengths, nationalPrefix: prefix)
        }
        codes = table
    }

    /// What the fast path decided.
    public enum FastResult: Sendable, Equatable {
        /// The E.164 form, or nil when libphonenumber would give none (too short, not a possible length…).
        case decided(String?)
        /// The text needs libphonenumber.
        case undecided
    }

    /// The E.164 form of a number written "+<digits>" with only spaces, `-`, `.`, `/`, `(` and `)` between
    /// the digits (ending with a digit), decided without libphonenumber when its metadata makes the result
    /// certain: the calling code is the first 1–3 digits that name one; what follows is the national
    /// significant number unless the code's main region has a national prefix for parsing that this number
    /// starts with or, for a pattern, may start with (then libphonenumber decides); and E.164 is "+" and the digits when
    /// that length is possible for the code — the steps of libphonenumber's own parse for such text. The
    /// result is independent of the default region (the number carries its calling code).
    public func fastE164(_ raw: String) -> FastResult {
        var raw = raw
        return raw.withUTF8 { fastE164(bytes: $0) }
    }

    // `bytes`: the raw text, borrowed read-only from the caller's String (no copy per number).
    func fastE164(bytes: UnsafeBufferPointer<UInt8>) -> FastResult {
        let n = bytes.count
        guard n >= 4, n <= 250, bytes[0] == 0x2B, bytes[n - 1] &- 0x30 < 10 else { return .undecided }
        // Digits into a small fixed buffer (17 national digits + 3 for the code at most matter).
        // A stack scratch buffer (no allocation per number); every write is guarded by `count < 24`.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            guard let count = Self.digits(of: bytes, from: 1, into: digits), count >= 3, digits[0] != 0x30 else {
                return .undecided
            }
            var code = 0
            var codeLength = 0
            var info: CallingCode?
            while codeLength < 3 {
                code = code &* 10 &+ Int(digits[codeLength] &- 0x30)
                codeLength &+= 1
                if let found = codes[code] {
                    info = found
                    break
                }
            }
            guard let info else { return .undecided }
            let nationalLength = count - codeLength
            if nationalLength < 2 { return .decided(nil) }
            if nationalPrefixMayStart(code: code, info, UnsafeBufferPointer(rebasing: digits[codeLength..<count])) {
                return .undecided
            }
            return decide(digits, count: count, nationalLength: nationalLength, info)
        }
    }

    /// The E.164 form of a number written in national form ("(415) 555-0100" with "US") with `region` as its
    /// default, decided without libphonenumber when its metadata makes the result certain: the region is the
    /// main region of its calling code; the text is 3–17 ASCII digits with only spaces, `-`, `.`, `/`, `(`
    /// and `)` between them (ending with a digit); the region's international prefix cannot start it, it
    /// does not start with the calling code, and the national prefix for parsing cannot start it. Then
    /// libphonenumber keeps the digits as the national number, and E.164 is "+", the code and the digits when
    /// that length is possible for the code.
    public func fastNationalE164(_ raw: String, region: String) -> FastResult {
        var raw = raw
        return raw.withUTF8 { fastNationalE164(bytes: $0, region: region) }
    }

    // `bytes`: the raw text, borrowed read-only from the caller's String (no copy per number).
    func fastNationalE164(bytes: UnsafeBufferPointer<UInt8>, region: String) -> FastResult {
        let n = bytes.count
        guard n >= 3, n <= 250, bytes[n - 1] &- 0x30 < 10 else { return .undecided }
        let code = mainRegionCode(region)
        guard code > 0, let info = codes[code] else { return .undecided }
        // A stack scratch buffer (no allocation per number); every write is guarded by `count < 24`.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            guard let count = Self.digits(of: bytes, from: 0, into: digits), count >= 3, count <= 17 else {
                return .undecided
            }
            let national = UnsafeBufferPointer(rebasing: digits[0..<count])
            if internationalPrefixMayMatch(code: code, region: region, national) { return .undecided }
            let codeDigits = Array(String(code).utf8)
            if national.starts(with: codeDigits) { return .undecided }
            if nationalPrefixMayStart(code: code, info, national) { return .undecided }
            guard info.possibleLengths & (1 << UInt32(count)) != 0 else { return .decided(nil) }
            // "+", the code and the digits: exactly the bytes asked for (bounds-checked in debug).
            return .decided(
                String(unsafeUninitializedCapacity: 1 + codeDigits.count + count) { out in
                    out[0] = 0x2B
                    for k in 0..<codeDigits.count { out[1 + k] = codeDigits[k] }
                    for k in 0..<count { out[1 + codeDigits.count + k] = digits[k] }
                    return 1 + codeDigits.count + count
                })
        }
    }

    /// The calling code of `region` when it is the main region of the code, else 0 (cached).
    private func mainRegionCode(_ region: String) -> Int {
        if let known = regionCodes.withLock({ $0[region] }) { return known }
        let code = Int(cphone_main_region_calling_code(region))
        regionCodes.withLock { $0[region] = code }
        return code
    }

    /// Whether the international prefix of `region` (the main region of `code`) may match at the start of
    /// `national`.
    private func internationalPrefixMayMatch(code: Int, region: String, _ national: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        // Negative keys: international prefixes (the positive ones are national prefixes).
        mayMatch(key: -code, national) { cphone_international_prefix_may_match(region, $0, $1) }
    }

    /// Whether the national prefix for parsing of `code` (`info`) starts `national` or, for a pattern, may.
    private func nationalPrefixMayStart(code: Int, _ info: CallingCode, _ national: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard let prefix = info.nationalPrefix else {
            return mayMatch(key: code, national) { cphone_national_prefix_may_match(Int32(code), $0, $1) }
        }
        return !prefix.isEmpty && national.starts(with: prefix)
    }

    /// The ASCII digits of `bytes` from `start` into `digits` (at most 24): their count, or nil when a byte
    /// other than a digit or a separator (space `-` `.` `/` `(` `)`) comes, or there are too many digits.
    static func digits(
        of bytes: UnsafeBufferPointer<UInt8>, from start: Int, into digits: UnsafeMutableBufferPointer<UInt8>
    ) -> Int? {
        var count = 0
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if b &- 0x30 < 10 {
                guard count < min(24, digits.count) else { return nil }
                digits[count] = b
                count &+= 1
            } else {
                switch b {
                case 0x20, 0x2D, 0x2E, 0x2F, 0x28, 0x29: break
                default: return nil
                }
            }
            i &+= 1
        }
        return count
    }

    /// E.164 for digits whose national number stays as written: nil when too long or not a possible length.
    private func decide(
        _ digits: UnsafeMutableBufferPointer<UInt8>, count: Int, nationalLength: Int, _ info: CallingCode
    ) -> FastResult {
        if nationalLength > 17 { return .decided(nil) }
        guard info.possibleLengths & (1 << UInt32(nationalLength)) != 0 else { return .decided(nil) }
        return .decided(
            // "+" and the digits: exactly the `count + 1` bytes asked for (bounds-checked in debug).
            String(unsafeUninitializedCapacity: count + 1) { out in
                out[0] = 0x2B
                for k in 0..<count { out[k + 1] = digits[k] }
                return count + 1
            })
    }

    /// Whether a prefix pattern (asked of the bridge by `ask`) may match at the start of `national`, looking at
    /// its first one to four digits (ICU's `hitEnd` says when more digits could matter); answers are cached
    /// under `base` (the calling code, negative for international prefixes) and the digits.
    // `national`: a read-only slice of the caller's scratch digits.
    private func mayMatch(
        key base: Int, _ national: UnsafeBufferPointer<UInt8>, ask: (UnsafePointer<CChar>, Int32) -> Int32
    ) -> Bool {
        var value = 0
        var mark = 1
        for k in 0..<min(4, national.count) {
            value = value &* 10 &+ Int(national[k] &- 0x30)
            mark &*= 10
            let key = base &* 100_000 &+ mark &+ value
            let may: Bool
            if let cached = prefixCache.withLock({ $0[key] }) {
                may = cached
            } else {
                let answer = national.baseAddress!.withMemoryRebound(to: CChar.self, capacity: k + 1) {
                    ask($0, Int32(k + 1))
                }
                may = answer != 0
                prefixCache.withLock { $0[key] = may }
            }
            if !may { return false }
        }
        return true
    }

    /// libphonenumber's E.164 form (parse and length check only); `region` is the default for numbers
    /// without a calling code.
    public static func libphonenumberE164(_ raw: String, region: String) -> String? {
        var status: Int32 = 0
        let upperRegion = region.uppercased()
        let (length, out) = PhoneNumber.callBridge(PhoneNumber.bridgeInput(raw), capacity: 32) {
            input, count, output, size in
            cphone_e164(input, count, upperRegion, output, size, &status)
        }
        guard status == 0, length > 0, Int(length) <= out.count else { return nil }
        return String(decoding: out[0..<Int(length)], as: UTF8.self)
    }

    /// The E.164 form of `raw` with `region` (ISO 3166 alpha-2) as the default, as `PhoneNumber.parse`
    /// gives it; results are cached by (text, region).
    public func e164(_ raw: String, region: String) -> String? {
        if case .decided(let e) = fastE164(raw) { return e }
        if case .decided(let e) = fastNationalE164(raw, region: region) { return e }
        return parsedE164(raw, region: region)
    }

    /// libphonenumber's E.164 form of `raw` (cached by text and region), for a caller that has already
    /// tried ``fastE164(_:)`` and got `.undecided`.
    public func parsedE164(_ raw: String, region: String) -> String? {
        if let hit = cache.withLock({ $0.entries[region]?[raw] }) { return hit }
        let e = Self.libphonenumberE164(raw, region: region)
        cache.withLock { cache in
            if cache.count >= cacheLimit { cache = ([:], 0) }
            cache.entries[region, default: [:]][raw] = e
            cache.count += 1
        }
        return e
    }

    /// The E.164 forms of `raws` (same order): each distinct text is normalized once, the ones that need
    /// libphonenumber on all cores.
    public func e164(_ raws: [String], region: String) -> [String?] {
        normalize(raws, region: region).map(\.e164)
    }

    /// The batch `e164(_:region:)` with, for each number, whether the fast path decided it (`direct`) or
    /// libphonenumber parsed it.
    public func normalize(_ raws: [String], region: String) -> [(e164: String?, direct: Bool)] {
        var results = [(e164: String?, direct: Bool)](repeating: (nil, true), count: raws.count)
        var slowIndex: [String: Int] = [:]
        var slowTexts: [String] = []
        var slowOf = [Int32](repeating: -1, count: raws.count)
        for (i, raw) in raws.enumerated() {
            switch fastE164(raw) {
            case .decided(let e): results[i].e164 = e
            case .undecided:
                // Decided for the national form is as libphonenumber parsed it (not `direct`).
                if case .decided(let e) = fastNationalE164(raw, region: region) {
                    results[i] = (e, false)
                    continue
                }
                results[i].direct = false
                if let k = slowIndex[raw] {
                    slowOf[i] = Int32(k)
                } else {
                    slowIndex[raw] = slowTexts.count
                    slowOf[i] = Int32(slowTexts.count)
                    slowTexts.append(raw)
                }
            }
        }
        guard !slowTexts.isEmpty else { return results }
        let parsed = Self.parallelMap(slowTexts) { Self.libphonenumberE164($0, region: region) }
        for i in 0..<raws.count where slowOf[i] >= 0 { results[i].e164 = parsed[Int(slowOf[i])] }
        return results
    }

    /// `transform` of every element, in chunks over all cores (order kept).
    static func parallelMap<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
        let cores = ParallelWork.threads
        guard items.count >= 64, cores > 1 else { return items.map(transform) }
        let chunks = min(items.count / 32, cores * 8)
        let parts: [[R]] = ParallelWork.map(count: chunks) { chunk in
            let start = items.count * chunk / chunks
            let end = items.count * (chunk + 1) / chunks
            return items[start..<end].map(transform)
        }
        return Array(parts.joined())
    }
}
