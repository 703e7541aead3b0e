#include "benchbaseline.h"

#include <unicode/coll.h>
#include <unicode/unistr.h>
#include <unicode/ustring.h>

#include <cstring>

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

extern "C" int32_t bench_baseline_sort(const char *locale, const char *text, const int32_t *offsets, int32_t count,
                                       int32_t *order) {
    try {
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<icu::Collator> coll(icu::Collator::createInstance(icu::Locale::forLanguageTag(locale, ec), ec));
        if (U_FAILURE(ec)) return ec;
        // Best plain C++: keys written back to back into one buffer, one reused UTF-16 buffer, then
        // std::sort of indices with memcmp (ties broken by input position, i.e. stable).
        std::vector<uint8_t> keys;
        keys.reserve(static_cast<size_t>(offsets[count]) * 3 + static_cast<size_t>(count) * 8);
        std::vector<size_t> start(static_cast<size_t>(count) + 1);
        std::vector<UChar> u16(256);
        for (int32_t i = 0; i < count; ++i) {
            int32_t n16 = 0;
            ec = U_ZERO_ERROR;
            u_strFromUTF8WithSub(u16.data(), static_cast<int32_t>(u16.size()), &n16, text + offsets[i],
                                 offsets[i + 1] - offsets[i], 0xFFFD, nullptr, &ec);
            if (ec == U_BUFFER_OVERFLOW_ERROR) {
                u16.resize(static_cast<size_t>(n16) + 1);
                ec = U_ZERO_ERROR;
                u_strFromUTF8WithSub(u16.data(), static_cast<int32_t>(u16.size()), &n16, text + offsets[i],
                                     offsets[i + 1] - offsets[i], 0xFFFD, nullptr, &ec);
            }
            if (U_FAILURE(ec)) return ec;
            size_t at = keys.size();
            start[static_cast<size_t>(i)] = at;
            keys.resize(at + 256);
            int32_t n = coll->getSortKey(u16.data(), n16, keys.data() + at, 256);
            if (n > 256) {
                keys.resize(at + static_cast<size_t>(n));
                coll->getSortKey(u16.data(), n16, keys.data() + at, n);
            }
            keys.resize(at + static_cast<size_t>(n));
        }
        start[static_cast<size_t>(count)] = keys.size();
        std::iota(order, order + count, 0);
        const uint8_t *base = keys.data();
        std::sort(order, order + count, [&](int32_t a, int32_t b) {
            size_t sa = start[static_cast<size_t>(a)], sb = start[static_cast<size_t>(b)];
            size_t la = start[static_cast<size_t>(a) + 1] - sa, lb = start[static_cast<size_t>(b) + 1] - sb;
            int c = std::memcmp(base + sa, base + sb, std::min(la, lb));
            if (c != 0) return c < 0;
            if (la != lb) return la < lb;
            return a < b;
        });
        return 0;
    } catch (...) {
        return 5;
    }
}
