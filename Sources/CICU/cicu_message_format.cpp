// CICU: ICU MessageFormat, the C side of ICUKit's MessageFormat.swift.
#include "cicu_bridge.h"

struct cicu_msgfmt {
    std::unique_ptr<MessageFormat> format;
    std::vector<std::string> names;
};

extern "C" {

cicu_msgfmt *cicu_msgfmt_open(const char *pattern, int32_t length, const char *locale, int32_t *error_line,
                              int32_t *error_offset, int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        UParseError pe;
        pe.line = 0;
        pe.offset = -1;
        UnicodeString pat = fromUTF8(pattern, length);
        std::unique_ptr<MessageFormat> mf(new MessageFormat(pat, localeOf(locale), pe, ec));
        if (U_FAILURE(ec)) {
            // ICU reports the offset into the whole pattern in pe.offset; turn it into line + column.
            if (pe.offset >= 0) {
                int32_t line = 1, col = 0;
                for (int32_t i = 0; i < pe.offset && i < pat.length(); ++i) {
                    if (pat.charAt(i) == 0x0A) {
                        ++line;
                        col = 0;
                    } else {
                        ++col;
                    }
                }
                if (error_line) *error_line = line;
                if (error_offset) *error_offset = col;
            }
            *status = ec;
            return nullptr;
        }
        auto *h = new cicu_msgfmt;
        // Collect argument names (in order of first appearance) with MessagePattern.
        MessagePattern mp(pat, nullptr, ec);
        if (U_SUCCESS(ec)) {
            for (int32_t i = 0; i < mp.countParts(); ++i) {
                const MessagePattern::Part &part = mp.getPart(i);
                if (part.getType() != UMSGPAT_PART_TYPE_ARG_NAME) continue;
                std::string name;
                mp.getSubstring(part).toUTF8String(name);
                bool seen = false;
                for (const auto &n : h->names) seen = seen || n == name;
                if (!seen) h->names.push_back(name);
            }
        }
        h->format = std::move(mf);
        return h;
    })
}

void cicu_msgfmt_close(cicu_msgfmt *format) { delete format; }

int32_t cicu_msgfmt_arg_count(const cicu_msgfmt *format) {
    return format == nullptr ? 0 : static_cast<int32_t>(format->names.size());
}

int32_t cicu_msgfmt_arg_name(const cicu_msgfmt *format, int32_t i, char *out, int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (format == nullptr || i < 0 || i >= static_cast<int32_t>(format->names.size())) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    return copyOut(format->names[static_cast<size_t>(i)], out, capacity, status);
}

int32_t cicu_msgfmt_format(const cicu_msgfmt *format, const cicu_arg *args, int32_t count, char *out,
                           int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (format == nullptr || count < 0 || (count > 0 && args == nullptr)) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        std::vector<UnicodeString> names;
        std::vector<Formattable> values;
        names.reserve(static_cast<size_t>(count));
        values.reserve(static_cast<size_t>(count));
        for (int32_t i = 0; i < count; ++i) {
            const cicu_arg &a = args[i];
            names.push_back(fromUTF8(a.name, a.name_length));
            switch (a.type) {
                case CICU_ARG_DOUBLE: values.emplace_back(a.number); break;
                case CICU_ARG_INT64: values.emplace_back(static_cast<int64_t>(a.integer)); break;
                case CICU_ARG_DATE: values.emplace_back(static_cast<UDate>(a.number), Formattable::kIsDate); break;
                default: values.emplace_back(fromUTF8(a.string, a.string_length)); break;
            }
        }
        UErrorCode ec = U_ZERO_ERROR;
        UnicodeString result;
        format->format->format(names.data(), values.data(), count, result, ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return copyOut(result, out, capacity, status);
    })
}

}  // extern "C"
