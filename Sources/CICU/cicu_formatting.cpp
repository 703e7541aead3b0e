// CICU: lists, numbers and dates formatted once, the C side of ICUKit's Formatting.swift (ICUFormat).
#include "cicu_bridge.h"

extern "C" {

int32_t cicu_list_format(const char *locale, int32_t type, int32_t width, const char *const *items,
                         const int32_t *lengths, int32_t count, char *out, int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (count < 0 || (count > 0 && (items == nullptr || lengths == nullptr))) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        UListFormatterType t = type == CICU_LIST_OR ? ULISTFMT_TYPE_OR
                               : type == CICU_LIST_UNITS ? ULISTFMT_TYPE_UNITS
                                                         : ULISTFMT_TYPE_AND;
        UListFormatterWidth w = width == CICU_WIDTH_SHORT    ? ULISTFMT_WIDTH_SHORT
                                : width == CICU_WIDTH_NARROW ? ULISTFMT_WIDTH_NARROW
                                                             : ULISTFMT_WIDTH_WIDE;
        std::unique_ptr<ListFormatter> lf(ListFormatter::createInstance(localeOf(locale), t, w, ec));
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        std::vector<UnicodeString> parts;
        parts.reserve(static_cast<size_t>(count));
        for (int32_t i = 0; i < count; ++i) parts.push_back(fromUTF8(items[i], lengths[i]));
        UnicodeString result;
        lf->format(parts.data(), count, result, ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return copyOut(result, out, capacity, status);
    })
}

int32_t cicu_number_format(const char *locale, const char *skeleton, double value, const char *decimal, char *out,
                           int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        number::LocalizedNumberFormatter f = numberFormatter(locale, skeleton, ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        number::FormattedNumber fn =
            decimal != nullptr ? f.formatDecimal(StringPiece(decimal), ec) : f.formatDouble(value, ec);
        UnicodeString s = fn.toString(ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return copyOut(s, out, capacity, status);
    })
}

int32_t cicu_date_format(const char *locale, const char *time_zone, double millis, int32_t date_style,
                         int32_t time_style, const char *skeleton, char *out, int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        Locale loc = localeOf(locale);
        std::unique_ptr<DateFormat> df;
        if (skeleton != nullptr && *skeleton != 0) {
            std::unique_ptr<DateTimePatternGenerator> gen(DateTimePatternGenerator::createInstance(loc, ec));
            if (U_FAILURE(ec)) {
                *status = ec;
                return 0;
            }
            UnicodeString pattern = gen->getBestPattern(fromUTF8(skeleton, -1), ec);
            if (U_SUCCESS(ec)) df.reset(new SimpleDateFormat(pattern, loc, ec));
        } else {
            auto style = [](int32_t s) {
                switch (s) {
                    case 0: return DateFormat::kFull;
                    case 1: return DateFormat::kLong;
                    case 2: return DateFormat::kMedium;
                    case 3: return DateFormat::kShort;
                    default: return DateFormat::kNone;
                }
            };
            df.reset(DateFormat::createDateTimeInstance(style(date_style), style(time_style), loc));
            if (!df) ec = U_UNSUPPORTED_ERROR;
        }
        if (U_FAILURE(ec) || !df) {
            *status = U_FAILURE(ec) ? ec : U_INTERNAL_PROGRAM_ERROR;
            return 0;
        }
        if (time_zone != nullptr && *time_zone != 0) {
            TimeZone *tz = TimeZone::createTimeZone(fromUTF8(time_zone, -1));
            if (*tz == TimeZone::getUnknown()) {
                delete tz;
                *status = U_ILLEGAL_ARGUMENT_ERROR;
                return 0;
            }
            df->adoptTimeZone(tz);
        }
        UnicodeString s;
        df->format(static_cast<UDate>(millis), s);
        return copyOut(s, out, capacity, status);
    })
}

}  // extern "C"
