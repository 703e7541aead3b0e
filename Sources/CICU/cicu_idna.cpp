// CICU: IDNA (UTS #46), the C side of ICUKit's IDNA.swift.
#include "cicu_bridge.h"

extern "C" {

struct cicu_idna {
    UIDNA *idna;
};

cicu_idna *cicu_idna_open(uint32_t options, int32_t *status) {
    if (failed(status)) return nullptr;
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        UIDNA *idna = uidna_openUTS46(options, &ec);
        if (U_FAILURE(ec)) {
            *status = ec;
            return nullptr;
        }
        return new cicu_idna{idna};
    })
}

void cicu_idna_close(cicu_idna *idna) {
    if (idna == nullptr) return;
    uidna_close(idna->idna);
    delete idna;
}

int32_t cicu_idna_name_to_ascii(const cicu_idna *idna, const char *name, int32_t length, char *out,
                                int32_t capacity, uint32_t *errors, int32_t *status) {
    if (failed(status)) return 0;
    if (idna == nullptr || (name == nullptr && length != 0) || capacity < 0 || (out == nullptr && capacity > 0)) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        UIDNAInfo info = UIDNA_INFO_INITIALIZER;
        int32_t needed = uidna_nameToASCII_UTF8(idna->idna, name, length, out, capacity, &info, &ec);
        if (errors != nullptr) *errors = info.errors;
        if (U_FAILURE(ec) && ec != U_BUFFER_OVERFLOW_ERROR) {
            *status = ec;
            return 0;
        }
        if (ec == U_BUFFER_OVERFLOW_ERROR) *status = U_BUFFER_OVERFLOW_ERROR;
        return needed;
    })
}

}  // extern "C"
