// CICU: plural rules and the available locales, the C side of ICUKit's PluralRules.swift.
#include "cicu_bridge.h"

extern "C" {

cicu_plural *cicu_plural_open(const char *locale, int32_t type, int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        Locale loc = localeOf(locale);
        std::unique_ptr<PluralRules> r(
            PluralRules::forLocale(loc, type == CICU_PLURAL_ORDINAL ? UPLURAL_TYPE_ORDINAL : UPLURAL_TYPE_CARDINAL, ec));
        if (U_FAILURE(ec)) {
            *status = ec;
            return nullptr;
        }
        auto *h = new cicu_plural;
        h->rules = std::move(r);
        h->locale = loc;
        return h;
    })
}

void cicu_plural_close(cicu_plural *rules) { delete rules; }

int32_t cicu_available_locale_count(void) { return uloc_countAvailable(); }

const char *cicu_available_locale(int32_t index) {
    if (index < 0 || index >= uloc_countAvailable()) return nullptr;
    return uloc_getAvailable(index);
}

int32_t cicu_plural_select(const cicu_plural *rules, double number, int32_t fraction_digits, char *keyword,
                           int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (rules == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UnicodeString k;
        if (fraction_digits < 0) {
            k = rules->rules->select(number);
        } else {
            UErrorCode ec = U_ZERO_ERROR;
            auto fmt = number::NumberFormatter::withLocale(rules->locale)
                           .precision(number::Precision::fixedFraction(fraction_digits))
                           .grouping(UNUM_GROUPING_OFF);
            number::FormattedNumber fn = fmt.formatDouble(number, ec);
            if (U_SUCCESS(ec)) k = rules->rules->select(fn, ec);
            if (U_FAILURE(ec)) {
                *status = ec;
                return 0;
            }
        }
        return copyOut(k, keyword, capacity, status);
    })
}

int32_t cicu_plural_keywords(const cicu_plural *rules, char *out, int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (rules == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<StringEnumeration> e(rules->rules->getKeywords(ec));
        std::string all;
        if (U_SUCCESS(ec) && e) {
            const char *kw;
            int32_t len;
            while ((kw = e->next(&len, ec)) != nullptr && U_SUCCESS(ec)) {
                if (!all.empty()) all += ' ';
                all.append(kw, static_cast<size_t>(len));
            }
        }
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return copyOut(all, out, capacity, status);
    })
}

}  // extern "C"
