// CICU: transliterators, the C side of ICUKit's Transliterator.swift.
#include "cicu_bridge.h"

struct cicu_translit {
    std::unique_ptr<Transliterator> translit;
};

extern "C" {

cicu_translit *cicu_translit_open(const char *id, int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<Transliterator> t(Transliterator::createInstance(fromUTF8(id, -1), UTRANS_FORWARD, ec));
        if (U_FAILURE(ec) || !t) {
            *status = U_FAILURE(ec) ? ec : U_INVALID_ID;
            return nullptr;
        }
        auto *h = new cicu_translit;
        h->translit = std::move(t);
        return h;
    })
}

cicu_translit *cicu_translit_open_rules(const char *id, const char *rules, int32_t length, int32_t *parse_offset,
                                        int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        UParseError pe;
        std::unique_ptr<Transliterator> t(Transliterator::createFromRules(
            fromUTF8(id ? id : "Custom", -1), fromUTF8(rules, length), UTRANS_FORWARD, pe, ec));
        if (U_FAILURE(ec) || !t) {
            if (parse_offset) *parse_offset = pe.offset;
            *status = U_FAILURE(ec) ? ec : U_INVALID_ID;
            return nullptr;
        }
        auto *h = new cicu_translit;
        h->translit = std::move(t);
        return h;
    })
}

void cicu_translit_close(cicu_translit *translit) { delete translit; }

int32_t cicu_translit_transform(cicu_translit *translit, const char *utf8, int32_t length, char *out,
                                int32_t capacity, int32_t *status) {
    if (failed(status)) return 0;
    if (translit == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UnicodeString s = fromUTF8(utf8, length);
        translit->translit->transliterate(s);
        return copyOut(s, out, capacity, status);
    })
}

}  // extern "C"
