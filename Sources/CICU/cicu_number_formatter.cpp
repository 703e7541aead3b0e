// CICU: number formatters kept open, the C side of ICUKit's ICUNumberFormatter.swift.
#include "cicu_bridge.h"

struct cicu_numfmt {
    number::LocalizedNumberFormatter formatter;
};

cicu_numfmt *cicu_numfmt_open(const char *locale, const char *skeleton, int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        number::LocalizedNumberFormatter f = numberFormatter(locale, skeleton, ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return nullptr;
        }
        return new cicu_numfmt{f};
    })
}

void cicu_numfmt_close(cicu_numfmt *format) { delete format; }

namespace {
number::FormattedNumber formatWith(const cicu_numfmt *format, double value, const char *decimal, UErrorCode &ec) {
    return decimal != nullptr ? format->formatter.formatDecimal(StringPiece(decimal), ec)
                              : format->formatter.formatDouble(value, ec);
}
}  // namespace

int32_t cicu_numfmt_format(const cicu_numfmt *format, double value, const char *decimal, char *out,
                           int32_t capacity, int32_t *fields, int32_t field_capacity, int32_t *field_count,
                           int32_t *status) {
    if (failed(status)) return 0;
    if (format == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        number::FormattedNumber fn = formatWith(format, value, decimal, ec);
        UnicodeString s = fn.toString(ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        if (fields != nullptr && field_count != nullptr) {
            // UTF-16 offsets to UTF-8 offsets: the UTF-8 length of each prefix.
            std::vector<int32_t> utf8At(static_cast<size_t>(s.length()) + 1, 0);
            int32_t bytes = 0;
            for (int32_t i = 0; i < s.length(); ++i) {
                utf8At[static_cast<size_t>(i)] = bytes;
                UChar c = s.charAt(i);
                if (c < 0x80) bytes += 1;
                else if (c < 0x800) bytes += 2;
                else if (U16_IS_LEAD(c)) bytes += 4;
                else if (U16_IS_TRAIL(c)) bytes += 0;
                else bytes += 3;
            }
            utf8At[static_cast<size_t>(s.length())] = bytes;
            ConstrainedFieldPosition cfpos;
            cfpos.constrainCategory(UFIELD_CATEGORY_NUMBER);
            int32_t n = 0;
            while (fn.nextPosition(cfpos, ec) && U_SUCCESS(ec)) {
                if (n < field_capacity) {
                    fields[3 * n] = cfpos.getField();
                    fields[3 * n + 1] = utf8At[static_cast<size_t>(cfpos.getStart())];
                    fields[3 * n + 2] = utf8At[static_cast<size_t>(cfpos.getLimit())];
                }
                ++n;
            }
            *field_count = n;
        }
        return copyOut(s, out, capacity, status);
    })
}

int32_t cicu_numfmt_plural(const cicu_numfmt *format, const cicu_plural *rules, double value, const char *decimal,
                           char *keyword, int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (format == nullptr || rules == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        number::FormattedNumber fn = formatWith(format, value, decimal, ec);
        UnicodeString k = rules->rules->select(fn, ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return copyOut(k, keyword, capacity, status);
    })
}
