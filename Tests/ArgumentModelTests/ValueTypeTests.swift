import Testing

@testable import ArgumentModel

/// The one duration grammar and the one size grammar every option parses through.
@Suite struct ValueTypeTests {
    @Test func rates() {
        #expect(RateValue("30/min")?.perMinute == 30)
        #expect(RateValue("30/minute")?.perMinute == 30)
        #expect(RateValue("12")?.perMinute == 12)
        #expect(RateValue("6/hour")?.perMinute == 0.1)
        #expect(RateValue("120/h")?.perMinute == 2)
        #expect(RateValue("0.5/hour").map { $0.perMinute < RateValue.lowestPerMinute } == true)
        for bad in ["", "/min", "0/min", "-1/h", "inf", "nan", "1/day", "5 per minute"] {
            #expect(RateValue(bad) == nil, "\(bad)")
        }
    }

    @Test func durations() {
        #expect(DurationValue("90")?.seconds == 90)
        #expect(DurationValue("90s")?.seconds == 90)
        #expect(DurationValue("30m")?.seconds == 1800)
        #expect(DurationValue("0.5h")?.seconds == 1800)
        #expect(DurationValue("2d")?.seconds == 172_800)
        for bad in ["", "m", "-5m", "1e3", "inf", "nan", "5 m", "5w", "1y", "++1"] {
            #expect(DurationValue(bad) == nil, "\(bad)")
        }
        #expect(DurationValue("2d", in: 0...86_400) == nil)
        #expect(DurationValue("0", in: Double.leastNonzeroMagnitude...86_400) == nil)
        #expect(DurationValue.describe(in: 0...86_400).hasSuffix("(a number alone is seconds) up to 1d"))
    }

    @Test func sizes() {
        #expect(SizeValue("1048576")?.bytes == 1_048_576)
        #expect(SizeValue("512K")?.bytes == 524_288)
        #expect(SizeValue("2k")?.bytes == 2048)
        #expect(SizeValue("25M")?.bytes == 26_214_400)
        #expect(SizeValue("1.5MB")?.bytes == 1_572_864)
        #expect(SizeValue("64MiB")?.bytes == 67_108_864)
        #expect(SizeValue("2 kb")?.bytes == 2048)
        #expect(SizeValue("1G")?.bytes == 1 << 30)
        for bad in ["", "K", "-1", "0", "1e3", "lots", "1T", "nan"] { #expect(SizeValue(bad) == nil, "\(bad)") }
        #expect(SizeValue("512", in: 1024...(2047 << 20)) == nil)
        #expect(SizeValue("3G", in: 1024...(2047 << 20)) == nil)
        #expect(SizeValue.describe(in: 1024...(2047 << 20)).hasSuffix("from 1K up to 2047M"))
    }
}
