// CICU: collators and sort keys, the C side of ICUKit's Collator.swift.
#include "cicu_bridge.h"

extern "C" {

cicu_collator *cicu_collator_open(const char *locale, int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<Collator> c(Collator::createInstance(localeOf(locale), ec));
        if (U_FAILURE(ec)) {
            *status = ec;
            return nullptr;
        }
        if (ec != U_ZERO_ERROR) *status = ec;  // warnings such as U_USING_DEFAULT_WARNING
        auto *h = new cicu_collator;
        h->collator = std::move(c);
        return h;
    })
}

void cicu_collator_close(cicu_collator *collator) { delete collator; }

void cicu_collator_configure(cicu_collator *collator, int32_t strength, int32_t numeric,
                             int32_t alternate_shifted, int32_t case_level, int32_t *status) {
    if (failed(status)) return;
    if (collator == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return;
    }
    try {
        UErrorCode ec = U_ZERO_ERROR;
        Collator &c = *collator->collator;
        if (strength >= 0) c.setAttribute(UCOL_STRENGTH, static_cast<UColAttributeValue>(strength), ec);
        if (numeric >= 0) c.setAttribute(UCOL_NUMERIC_COLLATION, numeric ? UCOL_ON : UCOL_OFF, ec);
        if (alternate_shifted >= 0)
            c.setAttribute(UCOL_ALTERNATE_HANDLING, alternate_shifted ? UCOL_SHIFTED : UCOL_NON_IGNORABLE, ec);
        if (case_level >= 0) c.setAttribute(UCOL_CASE_LEVEL, case_level ? UCOL_ON : UCOL_OFF, ec);
        if (U_FAILURE(ec)) *status = ec;
    } catch (...) {
        *status = U_INTERNAL_PROGRAM_ERROR;
    }
}

int32_t cicu_collator_sort_key(const cicu_collator *collator, const char *utf8, int32_t length, uint8_t *key,
                               int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (collator == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UnicodeString s = fromUTF8(utf8, length);
        int32_t needed = collator->collator->getSortKey(s, key, capacity);
        if (needed == 0) {
            *status = U_INTERNAL_PROGRAM_ERROR;
        } else if (needed > capacity) {
            *status = U_BUFFER_OVERFLOW_ERROR;
        }
        return needed;
    })
}

int32_t cicu_collator_sort_keys(const cicu_collator *collator, const char *text, const int32_t *offsets,
                                int32_t count, uint8_t *keys, int32_t capacity, int32_t *key_offsets,
                                int32_t *status) {
    if (failed(status)) return 0;
    if (collator == nullptr || offsets == nullptr || key_offsets == nullptr || count < 0) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        const Collator &c = *collator->collator;
        UErrorCode ec = U_ZERO_ERROR;
        // Reuse one UTF-16 buffer for all names (the hot loop allocates nothing per name).
        std::vector<UChar> u16(256);
        int32_t used = 0;
        for (int32_t i = 0; i < count; ++i) {
            const char *s = text + offsets[i];
            int32_t n = offsets[i + 1] - offsets[i];
            int32_t u16len = 0;
            ec = U_ZERO_ERROR;
            u_strFromUTF8WithSub(u16.data(), static_cast<int32_t>(u16.size()), &u16len, s, n, 0xFFFD, nullptr, &ec);
            if (ec == U_BUFFER_OVERFLOW_ERROR || u16len > static_cast<int32_t>(u16.size())) {
                u16.resize(static_cast<size_t>(u16len) + 16);
                ec = U_ZERO_ERROR;
                u_strFromUTF8WithSub(u16.data(), static_cast<int32_t>(u16.size()), &u16len, s, n, 0xFFFD, nullptr, &ec);
            }
            if (U_FAILURE(ec)) {
                *status = ec;
                return 0;
            }
            key_offsets[i] = used;
            int32_t room = capacity - used;
            int32_t needed = c.getSortKey(u16.data(), u16len, keys + used, room > 0 ? room : 0);
            if (needed == 0) {
                *status = U_INTERNAL_PROGRAM_ERROR;
                return 0;
            }
            if (needed > room) {
                *status = U_BUFFER_OVERFLOW_ERROR;
                // Upper bound for a retry: what we used so far plus a generous estimate for the rest.
                int64_t rest = static_cast<int64_t>(offsets[count] - offsets[i]) * 6 + (count - i) * 16 + needed;
                int64_t bound = static_cast<int64_t>(used) + rest;
                return bound > INT32_MAX ? INT32_MAX : static_cast<int32_t>(bound);
            }
            used += needed;
        }
        key_offsets[count] = used;
        return used;
    })
}

int32_t cicu_collator_compare(const cicu_collator *collator, const char *a, int32_t a_length, const char *b,
                              int32_t b_length, int32_t *status) {
    if (failed(status)) return 0;
    if (collator == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        if (a_length < 0) a_length = static_cast<int32_t>(std::strlen(a));
        if (b_length < 0) b_length = static_cast<int32_t>(std::strlen(b));
        UCollationResult r =
            collator->collator->compareUTF8(StringPiece(a, a_length), StringPiece(b, b_length), ec);
        if (U_FAILURE(ec)) *status = ec;
        return static_cast<int32_t>(r);
    })
}

}  // extern "C"
