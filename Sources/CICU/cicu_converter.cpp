// CICU: charset converters, the C side of ICUKit's Converter.swift.
#include "cicu_bridge.h"

extern "C" {

int32_t cicu_convert_to_utf8(const char *charset, const char *bytes, int32_t length, int32_t strict, char *out,
                             int32_t capacity, int32_t *error_offset, int32_t *status) {
    if (failed(status)) return 0;
    if (charset == nullptr || (bytes == nullptr && length > 0)) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        UConverter *cnv = ucnv_open(charset, &ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        if (strict) {
            ucnv_setToUCallBack(cnv, UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &ec);
        }
        if (length < 0) length = static_cast<int32_t>(std::strlen(bytes));
        // bytes → UTF-16 (convert in one go), then UTF-16 → UTF-8.
        std::vector<UChar> u16(static_cast<size_t>(length) * 2 + 16);
        UChar *target = u16.data();
        const char *source = bytes;
        ucnv_toUnicode(cnv, &target, u16.data() + u16.size(), &source, bytes + length, nullptr, true, &ec);
        if (U_FAILURE(ec)) {
            if (error_offset) {
                // The converter stopped after consuming the bad sequence; report where it starts.
                char errBytes[32];
                int8_t errLen = sizeof(errBytes);
                UErrorCode e2 = U_ZERO_ERROR;
                ucnv_getInvalidChars(cnv, errBytes, &errLen, &e2);
                *error_offset = static_cast<int32_t>(source - bytes) - (U_SUCCESS(e2) ? errLen : 0);
            }
            ucnv_close(cnv);
            *status = ec == U_ILLEGAL_CHAR_FOUND || ec == U_TRUNCATED_CHAR_FOUND ? U_INVALID_CHAR_FOUND : ec;
            return 0;
        }
        ucnv_close(cnv);
        UnicodeString s(u16.data(), static_cast<int32_t>(target - u16.data()));
        return copyOut(s, out, capacity, status);
    })
}

int32_t cicu_convert_from_utf8(const char *charset, const char *utf8, int32_t length, char *out, int32_t capacity,
                               int32_t *status) {
    if (failed(status)) return 0;
    if (charset == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        if (length < 0) length = static_cast<int32_t>(std::strlen(utf8));
        int32_t needed = ucnv_convert(charset, "UTF-8", out, capacity, utf8, length, &ec);
        if (ec == U_BUFFER_OVERFLOW_ERROR || ec == U_STRING_NOT_TERMINATED_WARNING) {
            if (ec == U_BUFFER_OVERFLOW_ERROR) *status = ec;
        } else if (U_FAILURE(ec)) {
            *status = ec;
            return 0;
        }
        return needed;
    })
}

}  // extern "C"
