import CICU
import Dispatch
import Foundation
import Support
import Synchronization

/// An ICU collator for one locale. Immutable after creation and safe to share across threads.
///
/// ```swift
/// let sv = try Collator(locale: "sv")
/// sv.compare("Ö", "Z")   // 1: Ö sorts after Z in Swedish
/// ```
public final class Collator: @unchecked Sendable {
    // @unchecked: the handle is set once in init and only used by const ICU calls (compare, sort keys).
    /// Comparison strength (ICU `UCOL_STRENGTH`).
    public enum Strength: Int32, Sendable {
        case primary = 0
        case secondary = 1
        case tertiary = 2
        case quaternary = 3
        case identical = 15
    }

    /// Options that change ICU's defaults for the locale; `nil` keeps the locale's own value.
    public struct Options: Sendable, Hashable {
        public var strength: Strength?
        /// "File 2" before "File 10".
        public var numeric: Bool?
        /// Spaces and punctuation ignored at the first levels.
        public var alternateShifted: Bool?
        public var caseLevel: Bool?
        public init(
            strength: Strength? = nil, numeric: Bool? = nil, alternateShifted: Bool? = nil, caseLevel: Bool? = nil
        ) {
            self.strength = strength
            self.numeric = numeric
            self.alternateShifted = alternateShifted
            self.caseLevel = caseLevel
        }
    }

    let handle: OpaquePointer
    public let locale: String
    public let options: Options

    public init(locale: String, options: Options = Options()) throws {
        var status: Int32 = 0
        guard let h = cicu_collator_open(locale, &status), status <= 0 else {
            throw ICUError.failure(
                operation: "open collator for '\(locale)'", code: status, name: ICUError.name(status))
        }
        func flag(_ b: Bool?) -> Int32 { b.map { $0 ? 1 : 0 } ?? -1 }
        cicu_collator_configure(
            h, options.strength?.rawValue ?? -1, flag(options.numeric), flag(options.alternateShifted),
            flag(options.caseLevel), &status)
        if status > 0 {
            cicu_collator_close(h)
            throw ICUError.failure(operation: "configure collator", code: status, name: ICUError.name(status))
        }
        handle = h
        self.locale = locale
        self.options = options
    }

    deinit { cicu_collator_close(handle) }

    /// The sort key of `string`: comparing keys bytewise (`memcmp`) orders strings like `compare`.
    /// The trailing 0 byte is not included.
    public func sortKey(_ string: String) throws -> [UInt8] {
        try withUTF8(string) { p, n in
            var capacity = Int(n) * 3 + 32
            while true {
                var status: Int32 = 0
                var needed: Int32 = 0
                let key = [UInt8](unsafeUninitializedCapacity: capacity) { buf, count in
                    needed = cicu_collator_sort_key(handle, p, n, buf.baseAddress, Int32(capacity), &status)
                    count = status > 0 ? 0 : max(0, Int(needed) - 1)
                }
                if status == CICU_BUFFER_OVERFLOW {
                    capacity = Int(needed)
                    continue
                }
                try ICUError.check(status, "sort key")
                return key
            }
        }
    }

    /// Sort keys of many UTF-8 strings into one contiguous buffer (the fast path for sorting).
    /// `text` holds the strings back to back; `offsets` has `count + 1` entries.
    /// Many strings are keyed in parallel chunks (the collator is shared: ICU's const calls are
    /// thread-safe).
    public func sortKeys(text: UnsafeBufferPointer<UInt8>, offsets: [Int32]) throws -> SortKeyBuffer {
        let count = offsets.count - 1
        guard count >= 0, Int(offsets[count]) <= text.count else {
            throw ICUError.invalidArgument("offsets out of range")
        }
        let threads = ParallelWork.threads
        guard count >= 32_768, threads > 1 else { return try serialSortKeys(text: text, offsets: offsets) }
        // Chunk k keys strings bounds[k]..<bounds[k + 1] (offsets stay absolute into `text`).
        let chunks = threads * 4
        let bounds = (0...chunks).map { count * $0 / chunks }
        // nonisolated(unsafe): `text` is only read, and outlives the parallel loop below.
        nonisolated(unsafe) let shared = text
        let parts = try ParallelWork.map(count: chunks) { k in
            try self.serialSortKeys(text: shared, offsets: Array(offsets[bounds[k]...bounds[k + 1]]))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(0) { $0 + $1.bytes.count })
        var keyOffsets: [Int32] = []
        keyOffsets.reserveCapacity(count + 1)
        for part in parts {
            let base = Int32(bytes.count)
            for o in part.offsets.dropLast() { keyOffsets.append(base + o) }
            bytes.append(contentsOf: part.bytes)
        }
        keyOffsets.append(Int32(bytes.count))
        return SortKeyBuffer(bytes: bytes, offsets: keyOffsets)
    }

    /// ``sortKeys(text:offsets:)`` in one ICU call on this thread.
    func serialSortKeys(text: UnsafeBufferPointer<UInt8>, offsets: [Int32]) throws -> SortKeyBuffer {
        let count = offsets.count - 1
        var capacity = max(64, text.count * 3 + count * 12)
        var keyOffsets = [Int32](repeating: 0, count: count + 1)
        while true {
            var status: Int32 = 0
            var total: Int32 = 0
            let keys = [UInt8](unsafeUninitializedCapacity: capacity) { buf, initialized in
                total = text.withMemoryRebound(to: CChar.self) { chars in
                    keyOffsets.withUnsafeMutableBufferPointer { ko in
                        cicu_collator_sort_keys(
                            handle, chars.baseAddress, offsets, Int32(count), buf.baseAddress,
                            Int32(capacity), ko.baseAddress, &status)
                    }
                }
                initialized = status > 0 ? 0 : Int(total)
            }
            if status == CICU_BUFFER_OVERFLOW {
                guard capacity < Int(Int32.max) else { throw ICUError.invalidArgument("sort keys exceed 2 GiB") }
                capacity = max(Int(total), capacity * 2)
                continue
            }
            try ICUError.check(status, "sort keys")
            return SortKeyBuffer(bytes: keys, offsets: keyOffsets)
        }
    }

    /// -1, 0 or 1 as ICU compares the two strings.
    public func compare(_ a: String, _ b: String) -> Int {
        var status: Int32 = 0
        var a = a
        var b = b
        let r = a.withUTF8 { pa in
            b.withUTF8 { pb in
                pa.withMemoryRebound(to: CChar.self) { ca in
                    pb.withMemoryRebound(to: CChar.self) { cb in
                        cicu_collator_compare(
                            handle, ca.baseAddress, Int32(ca.count), cb.baseAddress, Int32(cb.count), &status)
                    }
                }
            }
        }
        return Int(r)
    }
}

/// Sort keys of many strings in one contiguous buffer; key `i` is `bytes[offsets[i]..<offsets[i+1]]`
/// including its terminating 0 byte, so `memcmp` over the shorter length + 1 orders them.
public struct SortKeyBuffer: Sendable {
    public let bytes: [UInt8]
    public let offsets: [Int32]
    public var count: Int { offsets.count - 1 }

    public init(bytes: [UInt8], offsets: [Int32]) {
        self.bytes = bytes
        self.offsets = offsets
    }

    /// The permutation that sorts the keys (stable: equal keys keep their input order).
    public func sortedIndices() -> [Int32] {
        let count = self.count
        // Parts sorted on all cores, then merged; keys are ordered by bytes, then length, then position: a
        // total order, so the result is the same however the work is split.
        let parts = count >= 65_536 && ParallelWork.threads > 1 ? ParallelWork.threads : 1
        let bounds = (0...parts).map { count * $0 / parts }
        return bytes.withUnsafeBufferPointer { keys in
            offsets.withUnsafeBufferPointer { off in
                // nonisolated(unsafe): the keys are only read, and outlive the parallel sort below.
                nonisolated(unsafe) let base = keys.baseAddress!
                nonisolated(unsafe) let off = off
                @Sendable func less(_ a: Int32, _ b: Int32) -> Bool {
                    let sa = Int(off[Int(a)])
                    let sb = Int(off[Int(b)])
                    let la = Int(off[Int(a) + 1]) - sa
                    let lb = Int(off[Int(b) + 1]) - sb
                    let c = memcmp(base + sa, base + sb, min(la, lb))
                    if c != 0 { return c < 0 }
                    if la != lb { return la < lb }
                    return a < b
                }
                var sorted = ParallelWork.map(count: parts) { k in
                    (Int32(bounds[k])..<Int32(bounds[k + 1])).sorted(by: less)
                }
                while sorted.count > 1 {
                    var merged: [[Int32]] = []
                    for k in stride(from: 0, to: sorted.count, by: 2) {
                        merged.append(k + 1 < sorted.count ? Self.merge(sorted[k], sorted[k + 1], by: less) : sorted[k])
                    }
                    sorted = merged
                }
                return sorted.first ?? []
            }
        }
    }

    private static func merge(_ a: [Int32], _ b: [Int32], by less: (Int32, Int32) -> Bool) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if less(b[j], a[i]) {
                out.append(b[j])
                j += 1
            } else {
                out.append(a[i])
                i += 1
            }
        }
        out.append(contentsOf: a[i...])
        out.append(contentsOf: b[j...])
        return out
    }

    /// Key `i` as a buffer slice (with its trailing 0).
    public func key(_ i: Int) -> ArraySlice<UInt8> { bytes[Int(offsets[i])..<Int(offsets[i + 1])] }
}
